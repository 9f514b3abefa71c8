package tui_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/vt"
)

// cellsAt is what target shows of row y from column x, as text.
func rowText(sc *vt.Screen, y, x, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(sc.Cell(x+i, y).Content)
	}
	return b.String()
}

// waitCells polls target's cells until ok holds, or fails with the screen.
func (w *world) waitCells(target string, cols, rows int, what string, ok func(*vt.Screen) bool) *vt.Screen {
	w.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		sc := w.outerCells(target, cols, rows)
		if ok(sc) {
			return sc
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%s: waiting for %s; the screen:\n%s", target, what, w.screen(target))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Two windows side by side: a one-column border between them, in box
// drawing, joined to the title bars; the focused tile's title bar is
// reverse video (the cue that needs no colour) and the border beside it
// bold green; each pane's PTY is exactly the cells it is drawn in; and
// --ascii-only draws the same with ASCII.
func TestAttachBordersAndFocus(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s")
	w.startAt("c", 104, 20, "TERM=xterm-256color "+w.bin+" attach -t s")
	w.waitFor("c", `\[s\] 1\*`)

	// The area is 80 wide: 40 | border | 39, the border at 24+40.
	const border = 64
	sc := w.waitCells("c", 104, 20, "the border", func(sc *vt.Screen) bool {
		return sc.Cell(border, 0).Content == "┬" && sc.Cell(border, 5).Content == "│" && sc.Cell(border, 18).Content == "│"
	})
	if got := rowText(sc, 0, 24, 80); !regexp.MustCompile(`^ 0:\S+ (.* )?─+┬ 1:`).MatchString(got) {
		t.Errorf("title row: %q", got)
	}
	focused, other := sc.Cell(border+2, 0).Style, sc.Cell(25, 0).Style
	if focused.Attrs&vt.AttrReverse == 0 || focused.Attrs&vt.AttrBold == 0 || other.Attrs&vt.AttrReverse != 0 {
		t.Errorf("the focused title bar is not the only reversed one: focused %+v, other %+v", focused, other)
	}
	if b := sc.Cell(border, 5).Style; b.Attrs&vt.AttrBold == 0 || b.Fg != vt.IndexColor(2) {
		t.Errorf("the border beside the focused tile is %+v, want bold green", b)
	}

	// Each PTY is its pane's cells: 40x18 on the left, 39x18 on the right.
	w.ok("send-text", "-s", "s", "-w", "0", "stty size\n")
	w.ok("send-text", "-s", "s", "-w", "1", "stty size\n")
	w.waitCells("c", 104, 20, "stty's answers", func(sc *vt.Screen) bool {
		return strings.Contains(rowText(sc, 2, 24, 40), "18 40") && strings.Contains(rowText(sc, 2, border+1, 39), "18 39")
	})

	// Focus moves: the reversed bar follows it.
	w.ok("focus-window", "-s", "s", "-w", "0")
	w.waitCells("c", 104, 20, "the left title reversed", func(sc *vt.Screen) bool {
		return sc.Cell(25, 0).Style.Attrs&vt.AttrReverse != 0 && sc.Cell(border+2, 0).Style.Attrs&vt.AttrReverse == 0
	})

	// ASCII only: the same lines in ASCII.
	w.startAt("a", 104, 20, "TERM=xterm-256color "+w.bin+" attach -t s --ascii-only")
	s := w.waitFor("a", `\|\$ stty size +\|\$ stty size`)
	if strings.ContainsAny(s, "│─┬") || !strings.Contains(s, " ---") {
		t.Errorf("ASCII only:\n%s", s)
	}
}

// With NO_COLOR the client draws no colour at all, its own or a pane's,
// and what colour marked still reads: the focused title bar and the dock
// are reverse video, a pane's bold stays bold.
func TestAttachNoColorKeepsItsCues(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s")
	w.startAt("c", 104, 20, "TERM=xterm-256color COLORTERM=truecolor NO_COLOR=1 "+w.bin+" attach -t s")
	w.waitFor("c", `\[s\] 1\*`)
	w.ok("send-text", "-s", "s", "-w", "1", `printf '\033[1;31mloud\033[0m \033[38;2;0;200;0mgreen\033[0m\n'`+"\n")
	w.waitFor("c", `loud green`)
	out, _ := w.tmuxRun("capture-pane", "-p", "-e", "-t", "c")
	for _, re := range []string{`\x1b\[[0-9;]*(3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]`} {
		if m := regexp.MustCompile(re).FindString(out); m != "" {
			t.Errorf("a colour reached the screen under NO_COLOR: %q in\n%q", m, out)
		}
	}
	sc := w.outerCells("c", 104, 20)
	if a := sc.Cell(70, 0).Style.Attrs; a&vt.AttrReverse == 0 {
		t.Errorf("the focused title bar is not reverse video: %v", a)
	}
	if a := sc.Cell(1, 19).Style.Attrs; a&vt.AttrReverse == 0 {
		t.Errorf("the dock is not reverse video: %v", a)
	}
	found := false
	for y := 1; y < 19; y++ {
		if k := strings.Index(rowText(sc, y, 65, 39), "loud"); k >= 0 {
			found = sc.Cell(65+k, y).Style.Attrs&vt.AttrBold != 0
		}
	}
	if !found {
		t.Errorf("the pane's bold did not survive NO_COLOR")
	}
}

// Two clients of different sizes: the session takes the size of the one
// used last (tmux's window-size latest); the larger one shows the part it
// does not use dotted, and one line says which client sets the size; the
// smaller one says its view is cut. Typing in a client makes it the
// latest.
func TestAttachTwoClientsLatestSizes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.startAt("small", 104, 20, "TERM=xterm-256color "+w.bin+" attach -t s")
	w.waitFor("small", `\[s\] 1\*`)
	w.startAt("big", 134, 30, "TERM=xterm-256color "+w.bin+" attach -t s")
	w.waitFor("big", `\[s\] 1\*`)

	// The big one attached last: the session is its 110x29 area, and the
	// small one is told its view is cut.
	w.waitFor("small", `110x29, cut to fit: sized by /dev/pts/\d+ \(pid \d+\), used last`)
	w.ok("send-text", "-s", "s", "stty size\n")
	w.waitFor("big", `(?m)│28 110\s*$`)

	// Typing in the small one makes it the latest: the session shrinks to
	// it, and the big one dots what it does not use and says why.
	w.keys("small", "echo from-small", "Enter")
	s := w.waitFor("big", `80x19: sized by /dev/pts/\d+ \(pid \d+\), used last · type here to take this size`)
	if !strings.Contains(s, strings.Repeat("·", 20)) {
		t.Errorf("the unused area is not dotted:\n%s", s)
	}
	w.waitGone("small", `cut to fit`)

	// And back.
	w.keys("big", "echo from-big", "Enter")
	w.waitGone("big", `·····`)
	w.waitFor("small", `110x29, cut to fit`)
}

// findText is the column where text starts on row y, cell by cell, or -1.
func findText(sc *vt.Screen, y int, text string) int {
	cols, _ := sc.Size()
	want := []rune(text)
	for x := 0; x+len(want) <= cols; x++ {
		ok := true
		for i, r := range want {
			if sc.Cell(x+i, y).Content != string(r) {
				ok = false
				break
			}
		}
		if ok {
			return x
		}
	}
	return -1
}

// selected reports whether text shows on some row with every cell of it
// drawn as a selection (reverse video) and the cell after it, if any,
// not: what a person sees selected is exactly the text.
func selected(sc *vt.Screen, text string) bool {
	cols, rows := sc.Size()
	for y := 0; y < rows; y++ {
		x := findText(sc, y, text)
		if x < 0 {
			continue
		}
		n := len([]rune(text))
		all := true
		for i := 0; i < n; i++ {
			all = all && sc.Cell(x+i, y).Style.Attrs&vt.AttrReverse != 0
		}
		if all && (x+n >= cols || sc.Cell(x+n, y).Content == " " || sc.Cell(x+n, y).Style.Attrs&vt.AttrReverse == 0) {
			return true
		}
	}
	return false
}

// waitSelected waits until target (cols x rows) shows each of texts
// selected.
func (w *world) waitSelected(target string, cols, rows int, texts ...string) {
	w.t.Helper()
	w.waitCells(target, cols, rows, fmt.Sprintf("%q selected", texts), func(sc *vt.Screen) bool {
		for _, t := range texts {
			if !selected(sc, t) {
				return false
			}
		}
		return true
	})
}
