package cli_test

import (
	"regexp"
	"strings"
	"testing"
)

// tableRow finds the row of a tuios table whose first cell is first.
func tableRow(t *testing.T, out, first string) []string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		cells := strings.Split(strings.Trim(line, "│ "), "│")
		if len(cells) > 1 && strings.TrimSpace(cells[0]) == first {
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			return cells
		}
	}
	t.Fatalf("no row %q in:\n%s", first, out)
	return nil
}

// The seed's "Seeing what is there": session-info shows the display
// name, the accent and the workspace names a person set, list-workspaces
// its NAME column, and the session is still addressed by its name.
func TestSessionLabelsAsPrinted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")

	out := e.ok("session-info", "-s", "work")
	if !strings.Contains(out, "session        work\ndisplay name   work\nwindows") || strings.Contains(out, "accent") || strings.Contains(out, "named") {
		t.Fatalf("session-info with no labels:\n%s", out)
	}

	var set struct {
		Type, Session string
		Display       string `json:"display_name"`
	}
	e.json(&set, "set-session-name", "-s", "work", "Payments API")
	if set.Type != "session_name_set" || set.Session != "work" || set.Display != "Payments API" {
		t.Fatalf("set-session-name --json: %+v", set)
	}
	if out := e.ok("set-session-accent", "-s", "work", "Cyan"); out != "" {
		t.Fatalf("a setter without --json printed %q", out)
	}
	e.ok("set-workspace-name", "-s", "work", "2", "review")

	out = e.ok("session-info", "-s", "work")
	for _, want := range []string{"session        work\n", "display name   Payments API\n", "accent         cyan\n", "named          2=review\n"} {
		if !strings.Contains(out, want) {
			t.Fatalf("session-info lacks %q:\n%s", want, out)
		}
	}
	if n := len(regexp.MustCompile(`\bwork\b`).FindAllString(out, -1)); n != 1 {
		t.Fatalf("session-info prints the session name more than once:\n%s", out)
	}
	var info struct {
		Display string            `json:"display_name"`
		Accent  string            `json:"accent"`
		Named   map[string]string `json:"workspace_names"`
	}
	e.json(&info, "session-info", "-s", "work")
	if info.Display != "Payments API" || info.Accent != "cyan" || info.Named["2"] != "review" {
		t.Fatalf("session-info --json: %+v", info)
	}
	var ls struct {
		Sessions []struct {
			Name    string `json:"name"`
			Display string `json:"display_name"`
			Accent  string `json:"accent"`
		} `json:"sessions"`
	}
	e.json(&ls, "ls")
	if len(ls.Sessions) != 1 || ls.Sessions[0].Name != "work" || ls.Sessions[0].Display != "Payments API" || ls.Sessions[0].Accent != "cyan" {
		t.Fatalf("ls --json: %+v", ls)
	}

	out = e.ok("list-workspaces", "-s", "work")
	if row := tableRow(t, out, "2"); row[1] != "review" || row[2] != "0" {
		t.Fatalf("list-workspaces row 2: %v\n%s", row, out)
	}
	if row := tableRow(t, out, "*1"); row[1] != "-" || row[2] != "1" {
		t.Fatalf("list-workspaces row 1: %v\n%s", row, out)
	}

	// 2,1 swaps the first two: the name and the window move, and the
	// screen shows the same workspace, now number 2.
	var ord struct {
		Current int `json:"current_workspace"`
		Moved   int `json:"windows_moved"`
	}
	e.json(&ord, "set-workspace-order", "-s", "work", "2,1")
	if ord.Current != 2 || ord.Moved != 1 {
		t.Fatalf("set-workspace-order --json: %+v", ord)
	}
	out = e.ok("list-workspaces", "-s", "work")
	if row := tableRow(t, out, "1"); row[1] != "review" || row[2] != "0" {
		t.Fatalf("after 2,1, row 1: %v\n%s", row, out)
	}
	if row := tableRow(t, out, "*2"); row[1] != "-" || row[2] != "1" {
		t.Fatalf("after 2,1, row 2: %v\n%s", row, out)
	}
	if out := e.ok("session-info", "-s", "work"); !strings.Contains(out, "named          1=review\n") || !strings.Contains(out, "workspace      2 of 9\n") {
		t.Fatalf("session-info after 2,1:\n%s", out)
	}

	// Refusals say what is wrong in the CLI's words, and change nothing.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"set-session-accent", "-s", "work", "purple"}, "accepted: red, green, yellow, blue, magenta, cyan, white"},
		{[]string{"set-session-name", "-s", "work", "bad\x1b[2Jname"}, "control character"},
		{[]string{"set-session-name", "-s", "work", strings.Repeat("x", 257)}, "over the cap of 256"},
		{[]string{"set-session-name", "-s", "work"}, "give the display name"},
		{[]string{"set-session-name", "-s", "Payments API", "x"}, "no session"},
		{[]string{"set-workspace-name", "-s", "work", "10", "x"}, "1 to 9"},
		{[]string{"set-workspace-name", "-s", "work", "2"}, "give the workspace number, then its name"},
		{[]string{"set-workspace-order", "-s", "work", "1,1"}, "twice"},
		{[]string{"set-workspace-order", "-s", "work", "2,x"}, `not "x"`},
		{[]string{"set-workspace-order", "-s", "work", "2,3"}, "not one of 1 to 2"},
	} {
		r := e.run(c.args...)
		if r.code != 1 || !strings.Contains(r.err, c.want) {
			t.Errorf("tuios %q: exit %d, stderr %q; want exit 1 and %q", c.args, r.code, r.err, c.want)
		}
	}
	if out := e.ok("session-info", "-s", "work"); !strings.Contains(out, "display name   Payments API\n") || !strings.Contains(out, "accent         cyan\n") {
		t.Fatalf("a refusal changed the labels:\n%s", out)
	}

	// Clearing: '' and none.
	e.ok("set-session-name", "-s", "work", "")
	e.ok("set-session-accent", "-s", "work", "none")
	e.ok("set-workspace-name", "-s", "work", "1", "")
	out = e.ok("session-info", "-s", "work")
	if !strings.Contains(out, "display name   work\n") || strings.Contains(out, "accent") || strings.Contains(out, "named") {
		t.Fatalf("session-info after clearing:\n%s", out)
	}

	for _, verb := range []string{"set-session-name", "set-session-accent", "set-workspace-name", "set-workspace-order"} {
		if out := e.ok(verb, "--help"); !regexp.MustCompile(`(?s)Example.*tuios ` + verb + ` -s work`).MatchString(out) {
			t.Errorf("%s --help has no example:\n%s", verb, out)
		}
	}
}
