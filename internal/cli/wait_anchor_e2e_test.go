package cli_test

import (
	"strings"
	"testing"
)

// wait-for window-output: ^ and $ anchor to a line of the pane, so a line
// that is exactly the pattern matches; (?m) written out still works, and
// (?-m) anchors to the whole text again.
func TestWaitForOutputAnchorsToLines(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "runner", "--no-focus")
	e.ok("send-text", "-s", "work", "-w", "runner", "printf '\\nANCH_%s\\n' x\n")
	for _, pat := range []string{`^ANCH_x$`, `ANCH_x$`, `(?m)^ANCH_x$`} {
		out := e.ok("wait-for", "window-output", "-s", "work", "-w", "runner", "--pattern", pat, "--timeout", "10000")
		if !strings.Contains(out, "│ ANCH_x\n") {
			t.Fatalf("%s: %q", pat, out)
		}
	}
	r := e.run("wait-for", "window-output", "-s", "work", "-w", "runner", "--pattern", `(?-m)^ANCH_x$`, "--timeout", "300")
	if r.code != 1 || !strings.Contains(r.err, "timed out") {
		t.Fatalf("(?-m) should anchor to the whole text: exit %d %q %q", r.code, r.out, r.err)
	}
	if out := e.ok("wait-for", "--help"); !strings.Contains(out, "^ and $ anchor to a line") {
		t.Fatalf("--help does not say how ^ and $ anchor:\n%s", out)
	}
	if out := e.ok("--skill", "panes"); !strings.Contains(out, "(?-m)") {
		t.Fatalf("skill panes does not say how ^ and $ anchor:\n%s", out)
	}
}

// A wait-for timeout's hint captures the same pane the wait watched (the
// caller's -s/-w, or what the wait resolved), and a session-exists
// timeout lists the sessions instead.
func TestWaitForTimeoutHintNamesThePane(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "build", "--no-focus")
	for _, args := range [][]string{
		{"window-output", "--pattern", "zzzqqq"},
		{"agent-state", "--until", "needs_input"},
		{"window-idle", "--idle", "60000"},
	} {
		r := e.run(append([]string{"wait-for", args[0], "-s", "work", "-w", "build", "--timeout", "300"}, args[1:]...)...)
		if r.code != 1 || !strings.Contains(r.err, "tuios capture-pane -s work -w build --scrollback --lines 40") {
			t.Fatalf("%s: exit %d\n%s", args[0], r.code, r.err)
		}
	}
	r := e.run("wait-for", "session-exists", "-s", "nope", "--timeout", "300")
	if r.code != 1 || !strings.Contains(r.err, "tuios ls") || strings.Contains(r.err, "capture-pane") {
		t.Fatalf("session-exists: exit %d\n%s", r.code, r.err)
	}
	// No -w: the hint names the pane the wait resolved, by its short id.
	var wins struct {
		Focused string `json:"focused_window_id"`
	}
	e.json(&wins, "list-windows", "-s", "work")
	if len(wins.Focused) < 8 {
		t.Fatalf("no focused window: %+v", wins)
	}
	focused := wins.Focused[:8]
	r = e.run("wait-for", "window-output", "-s", "work", "--pattern", "zzzqqq", "--timeout", "300")
	if r.code != 1 || !strings.Contains(r.err, "tuios capture-pane -s work -w "+focused+" --scrollback") {
		t.Fatalf("no -w: exit %d\n%s", r.code, r.err)
	}
}
