package cli_test

import (
	"regexp"
	"strings"
	"testing"
)

type addrRow struct {
	WindowID    string `json:"window_id"`
	DisplayName string `json:"display_name"`
}

var otherCommand = regexp.MustCompile(`tuios [a-z-]+ [^;\n]*`)

var flagMention = regexp.MustCompile(`(?:^|[\s(:;,'"])--([a-z][a-z0-9-]*)`)

// unknownFlags lists the --flags text mentions that verb's --help does not
// list.
func unknownFlags(e *env, verb []string, text string) []string {
	help := e.ok(append(append([]string{}, verb...), "--help")...)
	// A command the hint suggests ("try: tuios set-window ... --name NEW")
	// is checked against its own verb, not this one.
	text = otherCommand.ReplaceAllStringFunc(text, func(c string) string {
		if strings.HasPrefix(c, "tuios "+verb[0]+" ") {
			return c
		}
		return ""
	})
	var out []string
	for _, m := range flagMention.FindAllStringSubmatch(text, -1) {
		if !strings.Contains(help, "--"+m[1]+" ") {
			out = append(out, "--"+m[1])
		}
	}
	return out
}

// An explicitly empty -w or -s is a usage error, never the default: the
// skill's -w "$TUIOS_PANE_ID" with the variable unset must not type into
// whatever pane has the focus.
func TestEmptyTargetsAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	for _, args := range [][]string{
		{"send-text", "-s", "work", "-w", "", "echo EMPTYW_$((1+2))\n"},
		{"get-window", "-s", "work", "-w", ""},
		{"close-window", "-s", "work", ""},
		{"capture-pane", "-s", "work", "--window="},
	} {
		r := e.run(args...)
		if r.code != 1 || !strings.Contains(r.err, "invalid_params:") || !strings.Contains(r.err, "empty: name a window, or leave") {
			t.Fatalf("tuios %q: exit %d\n%s", args, r.code, r.err)
		}
	}
	r := e.run("get-window", "-s", "work", "-w", "")
	if !strings.Contains(r.err, "tuios: invalid_params: -w is empty: name a window, or leave -w out for the focused one") {
		t.Fatalf("message: %s", r.err)
	}
	if r := e.run("session-info", "-s", ""); r.code != 1 || !strings.Contains(r.err, "invalid_params: -s is empty: name a session") {
		t.Fatalf("session-info -s '': exit %d\n%s", r.code, r.err)
	}
	// Nothing was typed into the focused pane: text sent after the refusal
	// arrives, the refused text never did.
	e.ok("send-text", "-s", "work", "echo AFTER_$((2+3))\n")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", "AFTER_5", "--timeout", "10000")
	if screen := e.ok("capture-pane", "-s", "work"); strings.Contains(screen, "EMPTYW_3") {
		t.Fatalf("the refused text ran in the focused pane:\n%s", screen)
	}
	// And the window still exists (close-window "" closed nothing).
	var list struct {
		Windows []addrRow `json:"windows"`
	}
	e.json(&list, "list-windows", "-s", "work")
	if len(list.Windows) != 1 {
		t.Fatalf("windows: %+v", list.Windows)
	}
}

// A word too many is an error, not silently dropped.
func TestExtraArgumentsAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "xa", "--no-focus")
	e.ok("new-window", "-s", "work", "xb", "--no-focus")
	for _, args := range [][]string{
		{"close-window", "-s", "work", "xa", "xb"},
		{"focus-window", "-s", "work", "xa", "xb"},
		{"get-window", "-s", "work", "-w", "xa", "xb"},
		{"set-window", "-s", "work", "-w", "xa", "xb", "--minimize"},
	} {
		r := e.run(args...)
		if r.code != 1 || !strings.Contains(r.err, `tuios: invalid_params: unexpected argument "xb"`) {
			t.Fatalf("tuios %q: exit %d\n%s", args, r.code, r.err)
		}
	}
	var list struct {
		Windows []struct {
			Name      string `json:"name"`
			Minimized bool   `json:"minimized"`
		} `json:"windows"`
	}
	e.json(&list, "list-windows", "-s", "work")
	if len(list.Windows) != 3 || list.Windows[1].Minimized {
		t.Fatalf("a refused command acted: %+v", list.Windows)
	}
	// One window closes as before.
	e.ok("close-window", "-s", "work", "xa")
}

// Errors speak of the verb's own flags and arguments, never of a daemon
// param or a flag the verb lacks.
func TestErrorsNameOnlyRealFlags(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "runner", "--no-focus")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"send-text", "-s", "work", "-w", "runner", ""}, "give the text to send, or - to read it from standard input"},
		{[]string{"send-keys", "-s", "work", "-w", "runner", ""}, "name the keys to press"},
		{[]string{"select-workspace", "-s", "work", "0"}, "workspace 0 is out of range (1 to 9)"},
		{[]string{"select-workspace", "-s", "work", "10"}, "out of range (1 to 9)"},
		{[]string{"dismiss-attention", ""}, "give the item id"},
		{[]string{"mark-attention", "snooze", "4104", "--for", "100000h"}, "--for is at most a year (8760h)"},
		{[]string{"respond", "-s", "work", "-w", "runner", "choose", "0"}, "choose takes the option number"},
		{[]string{"respond", "-s", "work", "-w", "runner", "text", ""}, "text takes the answer"},
		{[]string{"move-window", "-s", "work", "-w", "runner", "--workspace", "12"}, "out of range"},
		{[]string{"new-window", "-s", "work", "runner"}, `the name "runner" is taken by window`},
		// Workspaces are 1-based: a typed 0 is refused, not read as "the current one".
		{[]string{"new-window", "-s", "work", "ws0", "--workspace", "0"}, "--workspace is 0, out of range (1 to 9)"},
		{[]string{"new-window", "-s", "work", "--workspace", "0", "ws0"}, "--workspace is 0, out of range (1 to 9)"},
		{[]string{"set-window", "-s", "work", "-w", "0", "--name", "runner"}, `the name "runner" is taken by window`},
	} {
		r := e.run(c.args...)
		if r.code != 1 || !strings.Contains(r.err, c.want) {
			t.Errorf("tuios %q: exit %d, want %q\n%s", c.args, r.code, c.want, r.err)
			continue
		}
		if strings.Contains(r.err, "the param") || strings.Contains(r.err, "for_ms") {
			t.Errorf("tuios %q speaks of a protocol param:\n%s", c.args, r.err)
		}
		verb := c.args[:1]
		if miss := unknownFlags(e, verb, r.err); len(miss) > 0 {
			t.Errorf("tuios %q names %v, which %s --help lacks:\n%s", c.args, miss, verb[0], r.err)
		}
	}
	if out := e.ok("list-windows", "-s", "work"); strings.Contains(out, "ws0") {
		t.Errorf("a refused new-window opened a window:\n%s", out)
	}
}

// The addresses list-windows shows work as addresses; an index past the
// end fails, naming the range.
func TestWindowAddressesFromTheCLI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "build", "--no-focus")
	var list struct {
		Windows []addrRow `json:"windows"`
	}
	e.json(&list, "list-windows", "-s", "work")
	first := list.Windows[0]
	if first.DisplayName != "sh" { // named after what runs in it: the test shell
		t.Fatalf("display name %q", first.DisplayName)
	}
	var w addrRow
	e.json(&w, "get-window", "-s", "work", "-w", first.DisplayName)
	if w.WindowID != first.WindowID {
		t.Fatalf("%q found %s", first.DisplayName, w.WindowID)
	}
	r := e.run("get-window", "-s", "work", "-w", "5")
	if r.code != 1 || !strings.Contains(r.err, "window_not_found: no window at index 5 in session \"work\" (its indexes are 0 to 1)") {
		t.Fatalf("index 5: exit %d\n%s", r.code, r.err)
	}
}
