package tui_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/vt"
)

// tileOf is a window's place as list-windows gives it.
type tileOf struct {
	ID      string `json:"window_id"`
	Index   int    `json:"index"`
	X       int    `json:"x"`
	Y       int    `json:"y"`
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Focused bool   `json:"focused"`
}

// waitTiles polls list-windows until there are n windows, placed.
func (w *world) waitTiles(session string, n int) []tileOf {
	w.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var out struct {
			Windows []tileOf `json:"windows"`
		}
		json.Unmarshal([]byte(w.ok("list-windows", "-s", session, "--json")), &out)
		if len(out.Windows) == n {
			return out.Windows
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("never %d windows: %+v", n, out.Windows)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// railOff writes a config with the rail hidden, so the area starts at the
// left edge of the terminal.
func (w *world) railOff() {
	conf := filepath.Join(w.dir, "home", ".config", "tuios")
	os.MkdirAll(conf, 0o700)
	os.WriteFile(filepath.Join(conf, "config.toml"), []byte("[ui]\nrail = \"off\"\n"), 0o600)
}

// Prefix " stacks, prefix % puts side by side, as tmux's keys: one
// window and " gives two full-width tiles, one over the other, with no
// border column (the lower title bar is the line); % on the lower one
// splits only it, with a border column from its title row (┬) down;
// every pane's terminal is the cells it is drawn in; closing the right
// one gives its cells back to the left one.
func TestAttachSplitKeysStackAndSideBySide(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.railOff()
	w.ok("new", "--detach", "s")
	const cols, rows = 100, 30
	w.startAt("c", cols, rows, "TERM=xterm-256color "+w.bin+" attach -t s")
	w.waitFor("c", `(?m)^ 0:\S`)

	w.keys("c", "C-b", `"`)
	ts := w.waitTiles("s", 2)
	top, low := ts[0], ts[1]
	if top.X != 0 || low.X != 0 || top.Width != cols || low.Width != cols || top.Y != 0 || low.Y != top.Height || !low.Focused {
		t.Fatalf(`one window and ": not stacked full width: %+v`, ts)
	}
	sc := w.waitCells("c", cols, rows, "the lower title bar", func(sc *vt.Screen) bool {
		return strings.HasPrefix(rowText(sc, low.Y, 0, cols), " 1:") && strings.HasPrefix(rowText(sc, 0, 0, cols), " 0:")
	})
	for y := 0; y < top.Height+low.Height; y++ {
		if r := rowText(sc, y, 0, cols); strings.ContainsAny(r, "│┬┼├┤") {
			t.Fatalf("a border in stacked tiles, row %d: %q", y, r)
		}
	}
	w.ok("send-text", "-s", "s", "-w", "0", "stty size\n")
	w.ok("send-text", "-s", "s", "-w", "1", "stty size\n")
	w.waitCells("c", cols, rows, "stty's answers", func(sc *vt.Screen) bool {
		return strings.Contains(rowText(sc, 2, 0, cols), fmt.Sprintf("%d %d", top.Height-1, cols)) &&
			strings.Contains(rowText(sc, low.Y+2, 0, cols), fmt.Sprintf("%d %d", low.Height-1, cols))
	})

	w.keys("c", "C-b", "%")
	ts = w.waitTiles("s", 3)
	left, right := ts[1], ts[2]
	if ts[0] != top || left.Y != low.Y || right.Y != low.Y || left.X != 0 || right.X != left.Width+1 ||
		left.Width+1+right.Width != cols || left.Height != low.Height || !right.Focused {
		t.Fatalf("%% on the lower tile: %+v (the top one was %+v)", ts, top)
	}
	border := left.Width
	sc = w.waitCells("c", cols, rows, "the border under the top tile", func(sc *vt.Screen) bool {
		return sc.Cell(border, low.Y).Content == "┬" && sc.Cell(border, low.Y+3).Content == "│" &&
			strings.HasPrefix(rowText(sc, low.Y, border+1, 4), " 2:")
	})
	for y := 0; y < top.Height; y++ {
		if c := sc.Cell(border, y).Content; c == "│" || c == "┬" {
			t.Fatalf("the border runs up into the top tile at row %d", y)
		}
	}
	if b := sc.Cell(border, low.Y+3).Style; b.Attrs&vt.AttrBold == 0 || b.Fg != vt.IndexColor(2) {
		t.Errorf("the border beside the focused tile is %+v, want bold green", b)
	}
	w.ok("send-text", "-s", "s", "-w", "2", "stty size\n")
	w.ok("send-text", "-s", "s", "-w", "1", "clear; stty size\n")
	w.waitCells("c", cols, rows, "stty's answers side by side", func(sc *vt.Screen) bool {
		return strings.Contains(rowText(sc, low.Y+1, 0, left.Width), fmt.Sprintf("%d %d", left.Height-1, left.Width)) &&
			strings.Contains(rowText(sc, low.Y+2, border+1, right.Width), fmt.Sprintf("%d %d", right.Height-1, right.Width))
	})

	// Close the right one (prefix x, y): the left one takes its cells.
	w.keys("c", "C-b", "x")
	w.waitFor("c", `close window .*\? \(y/n\)`)
	w.keys("c", "y")
	deadline := time.Now().Add(15 * time.Second)
	for ts = w.waitTiles("s", 2); ts[1].Width != cols; ts = w.waitTiles("s", 2) {
		if time.Now().After(deadline) {
			t.Fatalf("the right tile closed, the left one did not take its cells: %+v", ts)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if ts[1].X != 0 || ts[1].Y != low.Y || ts[1].Height != low.Height {
		t.Fatalf("the right tile closed: %+v", ts)
	}
	w.waitCells("c", cols, rows, "the border gone", func(sc *vt.Screen) bool {
		return sc.Cell(border, low.Y+3).Content != "│"
	})
	w.detach("c")
}

// A tile too small to split says so on the dock and opens nothing; a
// terminal too short for a stack lays it out side by side.
func TestAttachSplitTooSmallAndTooShort(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.railOff()
	w.ok("new", "--detach", "s")
	w.startAt("c", 80, 16, "TERM=xterm-256color "+w.bin+" attach -t s")
	w.waitFor("c", `(?m)^ 0:\S`)
	count := func() int {
		var out struct {
			Windows []tileOf `json:"windows"`
		}
		json.Unmarshal([]byte(w.ok("list-windows", "-s", "s", "--json")), &out)
		return len(out.Windows)
	}
	// Each " halves the focused tile (the new one is focused), until one
	// is too small: 15 rows, 7, 3, then no room.
	refused := false
	for n := 1; n <= 6 && !refused; n++ {
		w.keys("c", "C-b", `"`)
		deadline := time.Now().Add(15 * time.Second)
		for {
			if strings.Contains(w.screen("c"), "too small to split") {
				refused = true
				break
			}
			if count() > n {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("prefix \" did neither split nor say why:\n%s", w.screen("c"))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	s := w.waitFor("c", `split-window: window sh's tile \(80x3\) is too small to split stacked`)
	before := count()
	// Refused again, through the CLI, which answers once the daemon has:
	// a second " here would be seen refused by the dock line the first
	// left, and its split could reach the daemon after the resize below.
	if out, err := w.tuios("split-window", "-s", "s", "down"); err == nil || !strings.Contains(out, "too small to split stacked") {
		t.Fatalf("split-window on the 80x3 tile: %v\n%s", err, out)
	}
	if after := count(); after != before || before < 3 {
		t.Fatalf("a refused split opened a window, or the splits were refused early: %d windows, then %d\n%s", before, after, s)
	}

	// Shrink the terminal below what the stack needs (a title row and a
	// pane row each): the column lays its tiles out side by side instead,
	// every pane's terminal still the cells it is drawn in; grown back,
	// they are stacked again.
	if out, err := w.tmuxRun("resize-window", "-t", "c", "-x", "80", "-y", "5"); err != nil {
		t.Fatalf("resize-window: %v %s", err, out)
	}
	w.waitFor("c", `(?m)^ 0:sh\s.*┬ 1:sh\s.*┬ 2:sh`)
	small := w.waitTiles("s", before)
	last := small[len(small)-1]
	for _, x := range small {
		if x.Y != 0 || x.Height != 4 {
			t.Fatalf("not side by side in 80x4: %+v", small)
		}
	}
	w.ok("send-text", "-s", "s", "-w", last.ID, "clear; stty size\n")
	w.waitCells("c", 80, 5, "stty in the narrowed tile", func(sc *vt.Screen) bool {
		t := last
		return strings.Contains(rowText(sc, 1, t.X, t.Width), fmt.Sprintf("%d %d", t.Height-1, t.Width))
	})
	if out, err := w.tmuxRun("resize-window", "-t", "c", "-x", "80", "-y", "16"); err != nil {
		t.Fatalf("resize-window: %v %s", err, out)
	}
	w.waitFor("c", `(?m)^ 2:sh`) // the column stacked again: a later tile's title bar at the left edge
	w.detach("c")
}
