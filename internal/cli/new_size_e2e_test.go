package cli_test

import (
	"strings"
	"testing"
)

// tuios new -x -y sizes a detached session's windows, as tmux new-session
// does, and a size out of bounds is refused naming the flag.
func TestNewSizesADetachedSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "wide", "-x", "132", "-y", "37")
	var w struct {
		Width  int `json:"width"`
		Height int `json:"height"`
	}
	e.json(&w, "get-window", "-s", "wide", "-w", "0")
	if w.Width != 132 || w.Height != 37 {
		t.Fatalf("the window is %dx%d, want 132x37", w.Width, w.Height)
	}
	if r := e.run("new", "--detach", "huge", "-x", "5000"); r.code == 0 || !strings.Contains(r.err, "--cols") {
		t.Fatalf("-x 5000: exit %d %q", r.code, r.err)
	}
}
