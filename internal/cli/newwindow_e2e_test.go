package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// new-window NAME ARGV…: the program's own flags are its, tuios's flags
// may sit between the name and the program, and after -- every word is
// the argv (the first one is never taken for the name).
func TestNewWindowArgvAfterTheName(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")

	// -f is tail's, -c is sh's: nothing re-parses them.
	e.ok("new-window", "-s", "work", "tl", "--no-focus", "sh", "-c", "echo argv_ok_$((6*7)); exec tail -f /dev/null")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "tl", "--pattern", "argv_ok_42", "--timeout", "10000")
	var w struct {
		Name    string `json:"name"`
		Focused bool   `json:"focused"`
	}
	e.json(&w, "get-window", "-s", "work", "-w", "tl")
	if w.Name != "tl" || w.Focused {
		t.Fatalf("tl: --no-focus before the program is tuios's: %+v", w)
	}

	// The seed's form: tuios flags after the name, no program.
	var created struct {
		WindowID  string `json:"window_id"`
		Name      string `json:"name"`
		Workspace int    `json:"workspace"`
		Focused   bool   `json:"focused"`
		Unplaced  bool   `json:"unplaced"`
	}
	e.json(&created, "new-window", "-s", "work", "tests", "--workspace", "2", "--no-focus")
	if created.Name != "tests" || created.Workspace != 2 || created.Focused || !created.Unplaced {
		t.Fatalf("tests --workspace 2 --no-focus: %+v", created)
	}

	// -- with no name: the words are the argv, the window has no name
	// given: it is named after its program, automatically.
	var auto struct {
		WindowID      string `json:"window_id"`
		Name          string `json:"name"`
		AutomaticName bool   `json:"automatic_name"`
	}
	e.json(&auto, "new-window", "-s", "work", "--no-focus", "--", "sh", "-c", "sleep 0.2; exit 3")
	if auto.Name != "sh" || !auto.AutomaticName {
		t.Fatalf("-- sh …: the window is named %q (automatic %v), want sh, automatic", auto.Name, auto.AutomaticName)
	}
	created.WindowID = auto.WindowID
	var done struct {
		ExitCode int `json:"exit_code"`
	}
	e.json(&done, "wait-for", "window-exit", "-s", "work", "-w", created.WindowID, "--timeout", "10000")
	if done.ExitCode != 3 {
		t.Fatalf("-- sh -c 'exit 3' exited %d: the program did not run as given", done.ExitCode)
	}
	// -- sleep 1 runs sleep, not a program named 1.
	e.ok("new-window", "-s", "work", "--no-focus", "--", "sleep", "1")
	// NAME -- ARGV: the argv starts after --, even a word that looks like a flag.
	e.ok("new-window", "-s", "work", "dash", "--no-focus", "--", "sh", "-c", "echo dash_$((2+2)); exec tail -f /dev/null")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "dash", "--pattern", "dash_4", "--timeout", "10000")

	// A flag between the name and the program that is not new-window's is
	// a usage error, before anything starts.
	if r := e.run("new-window", "-s", "work", "bad", "--bogus", "true"); r.code == 0 || !strings.Contains(r.err, "invalid_params") || !strings.Contains(r.err, "--bogus") {
		t.Fatalf("--bogus between name and program: exit %d\n%s", r.code, r.err)
	}
	for _, l := range strings.Split(e.ok("list-windows", "-s", "work"), "\n") {
		if strings.Contains(l, " bad ") {
			t.Fatalf("a refused new-window opened a window:\n%s", l)
		}
	}
}

// A window that cannot start names the fix in the CLI's terms.
func TestNewWindowStartErrorsNameNoInternals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"new-window", "-s", "work", "x", "--", "no-such-program-xyz"}, "check the command name and PATH"},
		{[]string{"new-window", "-s", "work", "y", "--cwd", "/nonexistent/xyz"}, "the directory does not exist"},
	} {
		r := e.run(c.args...)
		if r.code == 0 || !strings.Contains(r.err, "command_failed") || !strings.Contains(r.err, c.want) || strings.Contains(r.err, "Options") {
			t.Fatalf("tuios %s: exit %d\n%s", strings.Join(c.args, " "), r.code, r.err)
		}
	}
}

func TestNewWindowHelpShowsTheArgvForm(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, args := range [][]string{{"new-window", "--help"}, {"new-window", "-s", "work", "logs", "--help"}} {
		out := e.ok(args...)
		if !strings.Contains(out, "tail -f") || !strings.Contains(out, "-- make test") || !strings.Contains(out, "--no-focus") {
			t.Fatalf("tuios %s:\n%s", strings.Join(args, " "), out)
		}
	}
}

// capture-pane prints every row of the visible screen: as many lines as
// the pane is high, ending in the blank rows below the cursor.
func TestCapturePaneIsThePanesHeight(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("send-text", "-s", "work", "clear; echo q$((1+0)); echo q$((1+1))\n")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", "(?m)^q2$", "--timeout", "10000")
	e.ok("wait-for", "window-idle", "-s", "work", "--idle", "300", "--timeout", "10000")
	var g struct {
		Height int `json:"height"`
	}
	e.json(&g, "get-window", "-s", "work")
	out := e.ok("capture-pane", "-s", "work")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !strings.HasSuffix(out, "\n") || len(lines) != g.Height || lines[0] != "q1" || lines[len(lines)-1] != "" {
		t.Fatalf("capture-pane printed %d lines for a %d-row pane:\n%q", len(lines), g.Height, out)
	}
	if tail := e.ok("capture-pane", "-s", "work", "--lines", "2"); tail != "q2\n$\n" {
		t.Fatalf("--lines 2 counts from the last line with content: %q", tail)
	}
}

// A relative --cwd is the caller's, as a shell reads it: the daemon that
// starts the pane runs in another directory. new and new-window both.
func TestRelativeCwdIsTheCallers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work") // the daemon starts here, in the test's directory
	here := filepath.Join(e.dir, "src")
	if err := os.MkdirAll(filepath.Join(here, "api"), 0o755); err != nil {
		t.Fatal(err)
	}
	runIn := func(args ...string) {
		t.Helper()
		cmd := exec.Command(e.bin, args...)
		cmd.Env, cmd.Dir = e.vars, here
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tuios %s in %s: %v\n%s", strings.Join(args, " "), here, err, out)
		}
	}
	runIn("new-window", "-s", "work", "dot", "--cwd", ".", "--no-focus")
	runIn("new-window", "-s", "work", "api", "--cwd", "api", "--no-focus")
	runIn("new", "--detach", "rel", "--cwd", "api")
	for _, c := range []struct{ session, window, want string }{
		{"work", "dot", here},
		{"work", "api", filepath.Join(here, "api")},
		{"rel", "0", filepath.Join(here, "api")},
	} {
		var w struct {
			Cwd string `json:"cwd"`
		}
		e.json(&w, "get-window", "-s", c.session, "-w", c.window)
		if w.Cwd != c.want {
			t.Errorf("%s:%s started in %q, want %q", c.session, c.window, w.Cwd, c.want)
		}
	}
}
