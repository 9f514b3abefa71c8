package tui_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// A config change that gives panes more waits, and the Inbox says so
// under Settings with its own glyph and no session in front; Enter on
// it says in the dock what applies it, since there is no pane to go to.
func TestAttachInboxConfigItem(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cfg := filepath.Join(w.dir, "home", ".config", "tuios", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	if err := os.WriteFile(cfg, []byte("[agents.permissions]\nmode = \"strict\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.ok("new", "--detach", "s1")
	if err := os.WriteFile(cfg, []byte("[agents.permissions]\nmode = \"open\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.itemOf("config", func(it attention) bool { return it.Kind == "config" })
	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", `\[s1\]`)
	w.keys("c", "C-b", "i")
	s := w.waitFor("c", `Settings \(1\)`)
	if !regexp.MustCompile(`≡\s+\d+s  config  waits for tuios config apply`).MatchString(s) {
		t.Fatalf("no config row; the screen:\n%s", s)
	}
	w.keys("c", "Enter")
	w.waitFor("c", `run tuios config apply in a terminal outside tuios`)
}
