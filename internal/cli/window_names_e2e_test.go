package cli_test

import (
	"strings"
	"testing"
	"time"
)

// windowRow is the part of get-window --json the naming tests read.
type windowRow struct {
	WindowID      string `json:"window_id"`
	Index         int    `json:"index"`
	Name          string `json:"name"`
	AutomaticName bool   `json:"automatic_name"`
	DisplayName   string `json:"display_name"`
	Title         string `json:"title"`
}

// getWindow reads one window by an address, or fails the test.
// idPrefix is the first n characters of a window id, or the whole id
// when they are fewer than eight and all digits: such an address is an
// index only (eight digits, the ID column, are an id prefix).
func idPrefix(id string, n int) string {
	if n < 8 && strings.Trim(id[:n], "0123456789") == "" {
		return id
	}
	return id[:n]
}

func (e *env) getWindow(addr string) windowRow {
	e.t.Helper()
	var w windowRow
	e.json(&w, "get-window", "-s", "work", "-w", addr)
	return w
}

// A window's name is what it was given, else what runs in it, never its
// title. While the pretend agent spins a braille glyph through its title
// (⠋ ⠙ ⠹ ...), every address a script took keeps finding the same
// window: the id, an id prefix, the index, the name given to one window
// and the automatic name ("tuios", the program) of the other. The title
// stays its own field and does change.
func TestNamesStayPutWhileTheTitleSpins(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	agent := []string{e.bin, "pretend-agent", "-prompt=false", "-steps", "60", "-step", "100ms", "-exit"}
	var n, a struct {
		WindowID string `json:"window_id"`
		Name     string `json:"name"`
	}
	e.json(&n, append([]string{"new-window", "-s", "work", "pa", "--no-focus", "--"}, agent...)...)
	e.json(&a, append([]string{"new-window", "-s", "work", "--no-focus", "--"}, agent...)...)
	if n.Name != "pa" || a.Name != "tuios" {
		t.Fatalf("new-window names: %q and %q, want pa and tuios", n.Name, a.Name)
	}

	titles := map[string]bool{}
	deadline := time.Now().Add(20 * time.Second)
	for len(titles) < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("the title did not spin: saw %v", titles)
		}
		for _, c := range []struct{ addr, want string }{
			{n.WindowID, n.WindowID}, {idPrefix(n.WindowID, 8), n.WindowID}, {"pa", n.WindowID}, {"1", n.WindowID},
			{a.WindowID, a.WindowID}, {idPrefix(a.WindowID, 6), a.WindowID}, {"tuios", a.WindowID}, {"2", a.WindowID},
		} {
			w := e.getWindow(c.addr)
			if w.WindowID != c.want {
				t.Fatalf("-w %s found %s, want %s", c.addr, w.WindowID, c.want)
			}
			if c.want == a.WindowID && (w.Name != "tuios" || w.DisplayName != "tuios" || !w.AutomaticName) {
				t.Fatalf("the unnamed window reads name %q display_name %q automatic %v (title %q)", w.Name, w.DisplayName, w.AutomaticName, w.Title)
			}
			if c.want == n.WindowID && (w.Name != "pa" || w.AutomaticName) {
				t.Fatalf("the named window reads name %q automatic %v", w.Name, w.AutomaticName)
			}
			if strings.HasSuffix(w.Title, " pretend-agent") {
				titles[w.Title] = true
			}
		}
	}
	t.Logf("titles seen while every address held: %v", titles)

	// The list says the same: names, and the titles beside them.
	var list struct {
		Windows []windowRow `json:"windows"`
	}
	e.json(&list, "list-windows", "-s", "work")
	if len(list.Windows) != 3 || list.Windows[0].Name != "sh" || !list.Windows[0].AutomaticName ||
		list.Windows[1].Name != "pa" || list.Windows[2].Name != "tuios" || list.Windows[2].Title == "" {
		t.Fatalf("list-windows: %+v", list.Windows)
	}
	if out := e.ok("list-windows", "-s", "work"); strings.Contains(out, "pretend-agent") {
		t.Fatalf("the table names a window by its title:\n%s", out)
	}
}

// An automatic name follows the program in the foreground, as tmux's
// automatic-rename does: a shell window reads sh, then the program it
// runs, then sh again once that exits; a name given never moves.
func TestAnAutomaticNameFollowsTheProgram(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	id := e.getWindow("0").WindowID
	waitName := func(want string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			w := e.getWindow(id)
			if w.Name == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("name %q (title %q), want %q", w.Name, w.Title, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitName("sh")
	// sleep prints nothing: the read after the echo of its command line
	// names it.
	e.ok("send-text", "-s", "work", "-w", id, "sleep 3\n")
	waitName("sleep")
	if w := e.getWindow("sleep"); w.WindowID != id {
		t.Fatalf("-w sleep found %s", w.WindowID)
	}
	waitName("sh")
	if r := e.run("get-window", "-s", "work", "-w", "sleep"); r.code == 0 || !strings.Contains(r.err, "window_not_found") {
		t.Fatalf("the name of a program that exited still addresses the window: %+v", r)
	}
	// A name given stays whatever runs.
	e.ok("set-window", "-s", "work", "-w", id, "--name", "build")
	e.ok("send-text", "-s", "work", "-w", id, "sleep 2\n")
	time.Sleep(700 * time.Millisecond) // past a read of the foreground
	if w := e.getWindow("build"); w.WindowID != id || w.Name != "build" || w.AutomaticName {
		t.Fatalf("a named window while sleep runs: %+v", w)
	}
	// Cleared, the automatic name shows again.
	e.ok("set-window", "-s", "work", "-w", id, "--name", "")
	if w := e.getWindow(id); !w.AutomaticName || w.Name == "build" || w.Name == "" {
		t.Fatalf("a cleared name: %+v", w)
	}
}

// A node-based agent CLI is named by the command a person types, not by
// the interpreter tmux would show: codex runs as `node .../bin/codex`
// with the native codex behind it; the pane reads codex.
func TestANodeAgentIsNamedByItsCommand(t *testing.T) {
	t.Parallel()
	a := findNPMAgent(t, "@openai/codex", "codex")
	realAgent(t, lightAgent)
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	id := e.getWindow("0").WindowID
	e.ok("send-text", "-s", "work", "-w", id, a.shim+"\n")
	deadline := time.Now().Add(20 * time.Second)
	for {
		w := e.getWindow(id)
		if w.Name == "codex" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("codex's window reads %q", w.Name)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if w := e.getWindow("codex"); w.WindowID != id {
		t.Fatalf("-w codex found %s", w.WindowID)
	}
}
