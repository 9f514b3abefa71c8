package tui_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// focusedName is the name of the session's focused window.
func (w *world) focusedName(session string) string {
	w.t.Helper()
	var res struct {
		Focused string `json:"focused_window_id"`
		Windows []struct {
			ID   string `json:"window_id"`
			Name string `json:"name"`
		} `json:"windows"`
	}
	if err := json.Unmarshal([]byte(w.ok("list-windows", "-s", session, "--json")), &res); err != nil {
		w.t.Fatal(err)
	}
	for _, x := range res.Windows {
		if x.ID == res.Focused {
			return x.Name
		}
	}
	return ""
}

// waitFocused polls until the session's focused window is name.
func (w *world) waitFocused(session, name string) {
	w.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for got := w.focusedName(session); got != name; got = w.focusedName(session) {
		if time.Now().After(deadline) {
			w.t.Fatalf("the focus never reached %q: it is on %q", name, got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSendKeysLeaderChordReachesTheClient: with the real client attached
// in a terminal, send-keys 'ctrl+b,n' is the person's ctrl+b n: the
// client's binding moves the focus, and the shell gets no bytes. A chord
// that would open something for the person's keys is not run, and says
// so in the dock. Detached, the same keys are the two bytes they spell.
func TestSendKeysLeaderChordReachesTheClient(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "-n", "first", "s")
	w.ok("new-window", "-s", "s", "second", "--no-focus")
	w.ok("new-window", "-s", "s", "third", "--no-focus")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `2:third`)
	if got := w.focusedName("s"); got != "first" {
		t.Fatalf("focused before the chord: %q", got)
	}

	w.ok("send-keys", "-s", "s", "-w", "first", "ctrl+b,n")
	w.waitFocused("s", "second")
	// The chord acts from the pane it was sent to, not from the focused
	// one: next after third wraps to first (after second it is third).
	w.ok("send-keys", "-s", "s", "-w", "third", "C-b", "n")
	w.waitFocused("s", "first")
	w.ok("send-keys", "-s", "s", "-w", "second", "ctrl+b,n")
	w.waitFocused("s", "third")

	// Opening the Inbox takes the person's next keys: not from a program.
	w.ok("send-keys", "-s", "s", "-w", "third", "ctrl+b,i")
	w.waitFor("c", `a program sent ctrl\+b i`)

	// None of it reached a shell.
	for _, win := range []string{"first", "second", "third"} {
		if s := w.ok("capture-pane", "-s", "s", "-w", win); regexp.MustCompile(`(?m)^\$ \S`).MatchString(s) {
			t.Fatalf("the shell of %s got keys the client took:\n%s", win, s)
		}
	}
	// A chord with more after it is refused.
	if out, err := w.tuios("send-keys", "-s", "s", "-w", "third", "ctrl+b,n,ls,Enter"); err == nil || !regexp.MustCompile(`invalid_params`).MatchString(out) {
		t.Fatalf("a chord with keys after it: %v\n%s", err, out)
	}

	// Detached: the bytes go to the shell and the focus stays.
	w.detach("c")
	w.ok("send-keys", "-s", "s", "-w", "third", "ctrl+b,n")
	w.ok("wait-for", "window-output", "-s", "s", "-w", "third", "--pattern", `(?m)^\$ (\^B|\x02)?n$`, "--timeout", "10000")
	if got := w.focusedName("s"); got != "third" {
		t.Fatalf("detached, the chord moved the focus to %q", got)
	}
}

// TestSendKeysLeaderChordUsesTheClientsPrefix: the chord is the prefix
// the attached client runs with, here ctrl+a from the config file; ctrl+b
// is then just two bytes for the shell.
func TestSendKeysLeaderChordUsesTheClientsPrefix(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conf := filepath.Join(w.dir, "home", ".config", "tuios")
	os.MkdirAll(conf, 0o700)
	if err := os.WriteFile(filepath.Join(conf, "config.toml"), []byte("[keybindings]\nprefix = \"ctrl+a\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.ok("new", "--detach", "-n", "first", "s")
	w.ok("new-window", "-s", "s", "second", "--no-focus")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `1:second`)

	w.ok("send-keys", "-s", "s", "-w", "first", "ctrl+b,n")
	w.ok("wait-for", "window-output", "-s", "s", "-w", "first", "--pattern", `(?m)^\$ (\^B|\x02)?n$`, "--timeout", "10000")
	if got := w.focusedName("s"); got != "first" {
		t.Fatalf("ctrl+b is not this client's prefix, yet the focus moved to %q", got)
	}
	w.ok("send-keys", "-s", "s", "-w", "first", "ctrl+u") // clear the line
	w.ok("send-keys", "-s", "s", "-w", "first", "ctrl+a,n")
	w.waitFocused("s", "second")
}
