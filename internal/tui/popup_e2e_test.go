package tui_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The real client inside tmux shows a popup framed over the layout; what
// the person types goes to it; it closes when its command exits, and a
// second one closes with esc in window mode.
func TestPopupInTheRealClient(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.ok("send-text", "-s", "s", "echo under-$((20+1))\n")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `\[s\] 1\*`)
	w.waitFor("c", `under-21`)

	answer := filepath.Join(w.dir, "answer")
	out := w.ok("popup", "-s", "s", "--", "sh", "-c", "echo picked; read x; echo \"got-$x\" > "+answer)
	id := strings.Fields(out)[0]
	// The frame (top edge, sides, bottom edge) around the command's
	// output, and the tile still visible above it.
	s := w.waitFor("c", `(?s)┌─ [^\n]*─┐.*│picked\s+│.*└─+┘`)
	if !strings.Contains(s, "under-21") {
		t.Fatalf("the tile under the popup is gone:\n%s", s)
	}
	var wins struct {
		Windows []struct {
			ID      string `json:"window_id"`
			Popup   bool   `json:"popup"`
			Focused bool   `json:"focused"`
		} `json:"windows"`
	}
	if err := json.Unmarshal([]byte(w.ok("list-windows", "-s", "s", "--json")), &wins); err != nil {
		t.Fatal(err)
	}
	if len(wins.Windows) != 2 || wins.Windows[1].ID != id || !wins.Windows[1].Popup || !wins.Windows[1].Focused {
		t.Fatalf("list-windows with the popup open: %+v", wins)
	}

	w.keys("c", "hello", "Enter")
	deadline := time.Now().Add(15 * time.Second)
	for {
		b, _ := os.ReadFile(answer)
		if strings.TrimSpace(string(b)) == "got-hello" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the popup's command never read the typing: %q\n%s", b, w.screen("c"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	w.waitForGone("c", "picked")

	w.ok("popup", "-s", "s", "--", "sh", "-c", "echo second-popup; exec cat")
	w.waitFor("c", `│second-popup`)
	w.keys("c", "C-b", "Escape")
	w.waitForGone("c", "second-popup")
	if err := json.Unmarshal([]byte(w.ok("list-windows", "-s", "s", "--json")), &wins); err != nil || len(wins.Windows) != 1 || wins.Windows[0].Popup {
		t.Fatalf("after esc in window mode: %+v %v", wins, err)
	}
	// The tile has the keys again.
	w.keys("c", "echo back-$((40+2))", "Enter")
	w.waitFor("c", `back-42`)
}

// waitForGone polls the tmux pane until text is no longer on it.
func (w *world) waitForGone(target, text string) {
	w.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := w.screen(target)
		if !strings.Contains(s, text) {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%q is still on the screen:\n%s", text, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
