package mux

import (
	"fmt"
	"math"
	"testing"

	"github.com/tuios/tuios/internal/daemon/mux/layout"
)

// layoutWorld is a session's windows without processes: what the layout
// code reads of them (id, workspace, minimized, focus, zoom, area), so
// any sequence of what verbs do can be run on it quickly.
type layoutWorld struct {
	ss   *Session
	next int
}

func newLayoutWorld() *layoutWorld {
	return &layoutWorld{ss: &Session{Name: "f", workspace: 1, cols: 80, rows: 24, wsNames: map[int]string{}}}
}

func (lw *layoutWorld) add(ws int) *Window {
	lw.next++
	w := &Window{ID: fmt.Sprintf("w%07d", lw.next), session: lw.ss, workspace: ws}
	lw.ss.windows = append(lw.ss.windows, w)
	lw.ss.focused, lw.ss.workspace = w, ws
	return w
}

// split is split-window: refused without room, else the window joins
// and the tree splits, as startWindow does.
func (lw *layoutWorld) split(target *Window, dir layout.Dir, before bool, pct int) bool {
	ss := lw.ss
	syncLayoutsLocked(ss)
	at := &splitAt{target: target, dir: dir, before: before, pct: pct}
	if roomToSplitLocked(ss, at) != nil {
		return false
	}
	lw.next++
	nw := &Window{ID: fmt.Sprintf("w%07d", lw.next), session: ss, workspace: target.workspace}
	ss.windows = append(ss.windows, nw)
	splitForLocked(ss, at, nw)
	ss.focused, ss.workspace = nw, nw.workspace
	return true
}

func (lw *layoutWorld) close(w *Window) {
	ss := lw.ss
	ss.windows = append(ss.windows[:indexOf(ss.windows, w)], ss.windows[indexOf(ss.windows, w)+1:]...)
	if ss.focused == w {
		ss.focused = nil
		for _, x := range ss.windows {
			if x.workspace == ss.workspace {
				ss.focused = x
			}
		}
	}
}

// check lays the workspace on screen out as a client would get it and
// holds it to the invariants: tiles inside the area, disjoint, every
// cell a tile's or a border with a tile each side; zoom one tile of the
// whole area; the focused window always on screen; the trees in shape
// and holding exactly their workspace's windows.
func (lw *layoutWorld) check(t *testing.T, step string) {
	t.Helper()
	ss := lw.ss
	wins, zoom := onScreen(ss)
	rects := layoutRects(ss, wins, zoom)
	what := fmt.Sprintf("%s (%dx%d, %d windows on screen, zoom %d)", step, ss.cols, ss.rows, len(wins), zoom)
	if zoom >= 0 {
		for i, r := range rects {
			if i == zoom && r != (rect{W: ss.cols, H: ss.rows}) || i != zoom && r.W != 0 {
				t.Fatalf("%s: zoomed, tile %d is %v", what, i, r)
			}
		}
	} else {
		checkTiles(t, what, ss.cols, ss.rows, rects)
		for i, w := range wins {
			if w == ss.focused && rects[i].W == 0 {
				t.Fatalf("%s: the focused window is not on screen: %v", what, rects)
			}
		}
		if len(wins) > 0 && ss.cols >= 1000 && ss.rows >= 1000 {
			for i, r := range rects {
				if r.W == 0 {
					t.Fatalf("%s: window %d has no tile in the largest area", what, i)
				}
			}
		}
	}
	for i, tr := range ss.layouts {
		if tr == nil {
			continue
		}
		checkSaved(t, what, tr)
		for _, id := range tr.IDs() {
			found := false
			for _, w := range ss.windows {
				found = found || w.ID == id && w.workspace == i+1
			}
			if !found {
				t.Fatalf("%s: workspace %d's tree holds %s, which is not there", what, i+1, id)
			}
		}
	}
	for _, w := range ss.windows {
		if !ss.layoutLocked(w.workspace).Has(w.ID) {
			t.Fatalf("%s: %s is in no tree", what, w.ID)
		}
	}
}

// run plays ops, two bytes each: an operation and its argument.
func (lw *layoutWorld) run(t *testing.T, ops []byte) {
	ss := lw.ss
	pick := func(b byte) *Window {
		if len(ss.windows) == 0 {
			return nil
		}
		return ss.windows[int(b)%len(ss.windows)]
	}
	sizes := []int{1, 2, 3, 4, 5, 8, 9, 13, 24, 40, 81, 200, 1000}
	for i := 0; i+1 < len(ops) && i < 400; i += 2 {
		op, arg := ops[i]%10, ops[i+1]
		step := fmt.Sprintf("op %d (%d %d)", i/2, op, arg)
		switch op {
		case 0: // new-window
			if len(ss.windows) < 40 {
				lw.add(ss.workspace)
			}
		case 1, 2: // split-window, either way
			if w := pick(arg); w != nil && len(ss.windows) < 40 {
				dir := layout.SideBySide
				if op == 2 {
					dir = layout.Stacked
				}
				lw.split(w, dir, arg&64 != 0, 10+int(arg)%81)
			}
		case 3: // close-window
			if w := pick(arg); w != nil {
				lw.close(w)
			}
		case 4: // resize
			ss.cols, ss.rows = sizes[int(arg)%len(sizes)], sizes[int(arg/13)%len(sizes)]
		case 5: // ToggleZoom
			ss.zoomed = !ss.zoomed
		case 6: // minimize or restore
			if w := pick(arg); w != nil {
				w.minimized = !w.minimized
			}
		case 7: // move-window, or select-workspace
			if w := pick(arg); w != nil && arg&128 != 0 {
				w.workspace = 1 + int(arg)%3
			} else {
				ss.workspace = 1 + int(arg)%3
			}
		case 8: // focus-window
			if w := pick(arg); w != nil {
				ss.focused, ss.workspace, w.minimized = w, w.workspace, false
			}
		case 9: // set-layout --equalize, pane.swap, set-workspace-order 2,1
			switch arg % 3 {
			case 0:
				syncLayoutsLocked(ss)
				ss.layoutLocked(ss.workspace).Equalize()
			case 1:
				if a, b := pick(arg), pick(arg/3); a != nil && b != nil && a.workspace == b.workspace {
					syncLayoutsLocked(ss)
					ss.layoutLocked(a.workspace).Swap(a.ID, b.ID)
				}
			case 2:
				ss.reorderWorkspacesLocked([]int{2, 1})
			}
		}
		lw.check(t, step)
	}
}

func FuzzLayoutOps(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 1, 4, 200, 5, 0, 3, 1, 4, 0})
	f.Add([]byte{1, 0, 1, 1, 1, 2, 1, 3, 2, 4, 2, 5, 4, 30, 4, 0, 4, 12, 6, 1, 9, 0, 3, 2})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 1, 4, 14, 7, 129, 7, 1, 8, 3, 9, 1, 9, 2, 3, 0, 3, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		lw := newLayoutWorld()
		lw.add(1)
		lw.check(t, "start")
		lw.run(t, ops)
	})
}

// A long fixed mix of every operation, so the plain test run covers
// what the fuzzer explores.
func TestLayoutOpsKeepTheTilesWhole(t *testing.T) {
	seed := uint32(7)
	ops := make([]byte, 800)
	for i := range ops {
		seed = seed*1664525 + 1013904223
		ops[i] = byte(seed >> 24)
	}
	for round := 0; round < 8; round++ {
		lw := newLayoutWorld()
		lw.add(1)
		lw.run(t, ops[round*50:])
	}
}

// The splits split-window makes are the ones asked: one window and
// prefix " gives two layout.Stacked, prefix % on the lower one two side by side
// under the first, and closing the lower right one gives its cells back.
func TestSplitWindowShapesTheWorkspace(t *testing.T) {
	lw := newLayoutWorld()
	ss := lw.ss
	ss.cols, ss.rows = 120, 40
	a := lw.add(1)
	if !lw.split(a, layout.Stacked, false, 50) {
		t.Fatal(`" refused`)
	}
	b := ss.focused
	if !lw.split(b, layout.SideBySide, false, 50) {
		t.Fatal("% refused")
	}
	c := ss.focused
	wins, zoom := onScreen(ss)
	got := layoutRects(ss, wins, zoom)
	want := []rect{{W: 120, H: 20}, {X: 0, Y: 20, W: 60, H: 20}, {X: 61, Y: 20, W: 59, H: 20}}
	if fmt.Sprint(got) != fmt.Sprint(want) || wins[1] != b || wins[2] != c {
		t.Fatalf("a over (b | c): %v, want %v", got, want)
	}
	// Zoomed: a split unzooms, so what it made is seen.
	ss.zoomed = true
	if !lw.split(c, layout.Stacked, false, 50) || ss.zoomed {
		t.Fatalf("split while zoomed: zoomed=%v", ss.zoomed)
	}
	lw.close(ss.focused)
	lw.close(c)
	wins, zoom = onScreen(ss)
	if got := layoutRects(ss, wins, zoom); fmt.Sprint(got) != fmt.Sprint([]rect{{W: 120, H: 20}, {X: 0, Y: 20, W: 120, H: 20}}) {
		t.Fatalf("c closed: b takes its cells: %v", got)
	}
	// A tile too small to split is refused, and nothing changes.
	ss.cols, ss.rows = 8, 3
	onScreen(ss)
	if lw.split(a, layout.SideBySide, false, 50) || lw.split(a, layout.Stacked, false, 50) || len(ss.windows) != 2 {
		t.Fatalf("a split of a tiny tile went through: %d windows", len(ss.windows))
	}
	err := roomToSplitLocked(ss, &splitAt{target: a, dir: layout.SideBySide, pct: 50})
	if err == nil || err.Code != "no_space" || err.Hint == nil {
		t.Fatalf("no room: %+v", err)
	}
}

// BenchmarkLayoutRects is what every layout a client gets costs in
// placement: the trees brought in step, then 16 windows of a mixed tree
// placed in 200x60.
func BenchmarkLayoutRects(b *testing.B) {
	lw := newLayoutWorld()
	ss := lw.ss
	ss.cols, ss.rows = 200, 60
	w := lw.add(1)
	for i := 0; i < 15; i++ {
		dir := layout.SideBySide
		if i%2 == 1 {
			dir = layout.Stacked
		}
		if !lw.split(w, dir, false, 50) {
			lw.add(1)
		}
		w = ss.windows[i%len(ss.windows)]
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		wins, zoom := onScreen(ss)
		layoutRects(ss, wins, zoom)
	}
}

// checkTiles fails t when rs breaks the tiling the layout gives
// (layout.CheckTiling).
func checkTiles(t *testing.T, what string, cols, rows int, rs []rect) {
	t.Helper()
	if err := layout.CheckTiling(cols, rows, rs); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// checkSaved: a workspace's tree is in shape, as its saved form shows
// it (the tree's own links are the layout package's tests'): shares
// positive, no deeper than layout.MaxDepth, every split of two children
// or more and none inside a split of its direction, each window once.
func checkSaved(t *testing.T, what string, tr *layout.Tree) {
	t.Helper()
	seen := map[string]bool{}
	var walk func(n *layout.Saved, dir string, depth int)
	walk = func(n *layout.Saved, dir string, depth int) {
		if !(n.Share > 0) || math.IsInf(n.Share, 0) {
			t.Fatalf("%s: share %v in %+v", what, n.Share, tr.Save())
		}
		if depth > layout.MaxDepth {
			t.Fatalf("%s: deeper than %d", what, layout.MaxDepth)
		}
		if n.Split == "" {
			if n.Window == "" || seen[n.Window] || len(n.Kids) > 0 {
				t.Fatalf("%s: leaf %q twice, unnamed or with children: %+v", what, n.Window, tr.Save())
			}
			seen[n.Window] = true
			return
		}
		if len(n.Kids) < 2 || n.Split == dir {
			t.Fatalf("%s: a %s split of %d inside a %q one: %+v", what, n.Split, len(n.Kids), dir, tr.Save())
		}
		for i := range n.Kids {
			walk(&n.Kids[i], n.Split, depth+1)
		}
	}
	if s := tr.Save(); s != nil {
		walk(s, "", 0)
	}
	if len(seen) != tr.Len() {
		t.Fatalf("%s: %d leaves in the tree, %d counted", what, len(seen), tr.Len())
	}
}
