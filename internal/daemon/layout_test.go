package daemon

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"testing"
)

// ids0 are window ids "0", "1", ... for trees tested on their own.
func ids0(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(i)
	}
	return out
}

func allShown(string) bool { return true }

// placeAll lays t out with every window shown and returns the tiles in
// the order of ids (a zero rect for one that did not fit).
func placeAll(t *layoutTree, cols, rows int, focus string, ids []string) ([]rect, int) {
	res := t.place(cols, rows, allShown, focus)
	out := make([]rect, len(ids))
	for i, id := range ids {
		out[i] = res.rects[id]
	}
	return out, res.hidden
}

// autoTree is n windows opened with new-window.
func autoTree(n int) *layoutTree {
	t := newLayoutTree()
	for _, id := range ids0(n) {
		t.insertAuto(id)
	}
	return t
}

// Windows opened only with new-window: one fills the area, two are side
// by side a border column apart, more a master and an even stack.
func TestAutomaticTilingIsAMasterAndAStack(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name          string
		n, cols, rows int
		want          []rect
	}{
		{"one fills", 1, 80, 24, []rect{{0, 0, 80, 24}}},
		{"two side by side, a border apart", 2, 81, 24, []rect{{0, 0, 40, 24}, {41, 0, 40, 24}}},
		{"two, even width: the left takes the extra column", 2, 80, 24, []rect{{0, 0, 40, 24}, {41, 0, 39, 24}}},
		{"three: master and two stacked", 3, 81, 24, []rect{{0, 0, 40, 24}, {41, 0, 40, 12}, {41, 12, 40, 12}}},
		{"four: the remainder goes to the first", 4, 81, 25, []rect{{0, 0, 40, 25}, {41, 0, 40, 9}, {41, 9, 40, 8}, {41, 17, 40, 8}}},
		{"too narrow for two columns and a border: one column", 2, 8, 24, []rect{{0, 0, 8, 12}, {0, 12, 8, 12}}},
		{"just wide enough for two columns", 2, 9, 24, []rect{{0, 0, 4, 24}, {5, 0, 4, 24}}},
		{"an area below the minimum: the one tile takes it", 1, 1, 1, []rect{{0, 0, 1, 1}}},
		{"too short for the stack: the stack goes side by side", 5, 81, 5,
			[]rect{{0, 0, 40, 5}, {41, 0, 10, 5}, {52, 0, 9, 5}, {62, 0, 9, 5}, {72, 0, 9, 5}}},
		{"too small either way: the master and what fits of the stack", 5, 22, 5,
			[]rect{{0, 0, 11, 5}, {12, 0, 10, 3}, {12, 3, 10, 2}, {}, {}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, hidden := placeAll(autoTree(c.n), c.cols, c.rows, "", ids0(c.n))
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("%d windows in %dx%d: %v, want %v", c.n, c.cols, c.rows, got, c.want)
			}
			off := 0
			for _, r := range c.want {
				if r.w == 0 {
					off++
				}
			}
			if hidden != off {
				t.Fatalf("hidden = %d, want %d", hidden, off)
			}
		})
	}
}

// split halves the tile it splits, in the direction asked, and no other
// tile moves; the new window goes after the target, or before it.
func TestSplitHalvesTheTileAndMovesNoOther(t *testing.T) {
	t.Parallel()
	tr := newLayoutTree()
	tr.insertAuto("a")
	at := func(ids ...string) []rect {
		r, _ := placeAll(tr, 121, 40, "", ids)
		return r
	}
	at("a")
	if !tr.split("a", "b", stacked, false, 50) {
		t.Fatal("split a stacked")
	}
	if got := at("a", "b"); !reflect.DeepEqual(got, []rect{{0, 0, 121, 20}, {0, 20, 121, 20}}) {
		t.Fatalf(`one window and prefix ": stacked, %v`, got)
	}
	if !tr.split("b", "c", sideBySide, false, 50) {
		t.Fatal("split b side by side")
	}
	if got := at("a", "b", "c"); !reflect.DeepEqual(got, []rect{{0, 0, 121, 20}, {0, 20, 60, 20}, {61, 20, 60, 20}}) {
		t.Fatalf("b split side by side, a untouched: %v", got)
	}
	// Another side-by-side split of c joins b and c's split: c halves,
	// b keeps its 60 columns.
	tr.split("c", "d", sideBySide, false, 50)
	if got := at("a", "b", "c", "d"); !reflect.DeepEqual(got, []rect{{0, 0, 121, 20}, {0, 20, 60, 20}, {61, 20, 30, 20}, {92, 20, 29, 20}}) {
		t.Fatalf("c halved, b kept: %v", got)
	}
	// Before: the new window on the left of (above) the target.
	tr.split("a", "e", stacked, true, 25)
	if got := at("e", "a"); !reflect.DeepEqual(got, []rect{{0, 0, 121, 5}, {0, 5, 121, 15}}) {
		t.Fatalf("e above a with a quarter: %v", got)
	}
	if got := at("b"); got[0] != (rect{0, 20, 60, 20}) {
		t.Fatalf("b moved when a was split: %v", got)
	}
	if tr.split("zz", "f", stacked, false, 50) || tr.split("a", "b", stacked, false, 50) || tr.split("a", "", stacked, false, 50) {
		t.Fatal("a split of an unknown target, to a window already placed, or of no id went through")
	}
	checkTree(t, tr)
}

// A window that leaves gives its cells, border included, to the sibling
// before it, else the one after; a split left with one child gives it
// its place, and a child split of the grandparent's direction merges.
func TestRemoveGivesTheSpaceToTheSibling(t *testing.T) {
	t.Parallel()
	tr := newLayoutTree()
	tr.insertAuto("a")
	placeAll(tr, 121, 30, "", nil) // the daemon places after every change
	tr.split("a", "b", sideBySide, false, 50)
	placeAll(tr, 121, 30, "", nil)
	tr.split("b", "c", sideBySide, false, 50)
	got, _ := placeAll(tr, 121, 30, "", []string{"a", "b", "c"})
	if !reflect.DeepEqual(got, []rect{{0, 0, 60, 30}, {61, 0, 30, 30}, {92, 0, 29, 30}}) {
		t.Fatalf("three side by side: %v", got)
	}
	placeAll(tr, 121, 30, "", nil)
	tr.remove("b")
	got, _ = placeAll(tr, 121, 30, "", []string{"a", "c"})
	if !reflect.DeepEqual(got, []rect{{0, 0, 91, 30}, {92, 0, 29, 30}}) {
		t.Fatalf("b's cells and border went to a, c did not move: %v", got)
	}
	tr.remove("a")
	got, _ = placeAll(tr, 121, 30, "", []string{"c"})
	if got[0] != (rect{0, 0, 121, 30}) || !tr.root.leaf() {
		t.Fatalf("the last one fills the area: %v", got)
	}

	// row[ col[ row[p,q], r ], s ]: r leaves, so row[p,q] joins the
	// outer row, p and q keeping their columns.
	tr = newLayoutTree()
	tr.insertAuto("p")
	for _, s := range []struct {
		target, id string
		dir        splitDir
	}{{"p", "s", sideBySide}, {"p", "r", stacked}, {"p", "q", sideBySide}} {
		placeAll(tr, 101, 30, "", nil)
		tr.split(s.target, s.id, s.dir, false, 50)
	}
	before, _ := placeAll(tr, 101, 30, "", []string{"p", "q", "s"})
	tr.remove("r")
	checkTree(t, tr)
	after, _ := placeAll(tr, 101, 30, "", []string{"p", "q", "s"})
	if tr.root.dir != sideBySide || len(tr.root.kids) != 3 {
		t.Fatalf("the row inside a row did not merge: %s", dumpTree(tr.root))
	}
	for i := range before {
		if before[i].x != after[i].x || before[i].w != after[i].w || after[i].h != 30 {
			t.Fatalf("after r left: %v, before %v", after, before)
		}
	}
	tr.remove("nobody") // nothing happens
	checkTree(t, tr)
}

// A window not shown (minimized) keeps its leaf: its siblings take its
// space, and it comes back where it was.
func TestAMinimizedWindowComesBackWhereItWas(t *testing.T) {
	t.Parallel()
	tr := autoTree(3) // 0 | (1 over 2)
	want, _ := placeAll(tr, 81, 24, "", ids0(3))
	res := tr.place(81, 24, func(id string) bool { return id != "1" }, "")
	if res.rects["2"] != (rect{41, 0, 40, 24}) || res.hidden != 0 {
		t.Fatalf("1 minimized: 2 takes the column: %v", res.rects)
	}
	if got, _ := placeAll(tr, 81, 24, "", ids0(3)); !reflect.DeepEqual(got, want) {
		t.Fatalf("1 restored: %v, want %v", got, want)
	}
	if res := tr.place(81, 24, func(string) bool { return false }, ""); len(res.rects) != 0 {
		t.Fatalf("nothing shown, nothing placed: %v", res.rects)
	}
}

func TestEqualizeAndSwap(t *testing.T) {
	t.Parallel()
	tr := newLayoutTree()
	tr.insertAuto("a")
	tr.split("a", "b", sideBySide, false, 10)
	placeAll(tr, 81, 24, "", nil)
	tr.split("b", "c", stacked, false, 80)
	placeAll(tr, 81, 24, "", nil)
	tr.equalize()
	got, _ := placeAll(tr, 81, 24, "", []string{"a", "b", "c"})
	if !reflect.DeepEqual(got, []rect{{0, 0, 40, 24}, {41, 0, 40, 12}, {41, 12, 40, 12}}) {
		t.Fatalf("equalized: %v", got)
	}
	if !tr.swap("a", "c") || tr.swap("a", "zz") {
		t.Fatal("swap")
	}
	got, _ = placeAll(tr, 81, 24, "", []string{"c", "b", "a"})
	if !reflect.DeepEqual(got, []rect{{0, 0, 40, 24}, {41, 0, 40, 12}, {41, 12, 40, 12}}) {
		t.Fatalf("a and c swapped: %v", got)
	}
	checkTree(t, tr)
}

// Areas from 1x1 to 1000x1000: the focused window is always on screen;
// a split too small for its tiles lays them out the other way or shows
// those that fit; at the largest area every tile is placed.
func TestPlaceTinyAndHugeAreas(t *testing.T) {
	t.Parallel()
	tr := autoTree(6)
	tr.split("0", "6", stacked, false, 50)
	ids := ids0(7)
	for _, size := range [][2]int{{1, 1}, {2, 1}, {1, 2}, {3, 3}, {4, 2}, {9, 3}, {8, 40}, {40, 4}, {80, 24}, {1000, 1000}, {1000, 1}, {1, 1000}} {
		for _, focus := range []string{"", "0", "5", "6"} {
			got, hidden := placeAll(tr, size[0], size[1], focus, ids)
			checkTiles(t, fmt.Sprintf("%dx%d focus %q", size[0], size[1], focus), size[0], size[1], got)
			on := 0
			for i, r := range got {
				if r.w > 0 {
					on++
				} else if ids[i] == focus {
					t.Fatalf("%dx%d: the focused window %s is not on screen: %v", size[0], size[1], focus, got)
				}
			}
			if on+hidden != len(ids) {
				t.Fatalf("%dx%d: %d on screen and %d hidden of %d", size[0], size[1], on, hidden, len(ids))
			}
			if size[0] >= 1000 && size[1] >= 1000 && hidden != 0 {
				t.Fatalf("1000x1000 hid %d", hidden)
			}
		}
	}
}

func TestSavedTreesComeBackAndBadOnesAreRefused(t *testing.T) {
	t.Parallel()
	tr := autoTree(4)
	placeAll(tr, 120, 40, "", nil)
	tr.split("0", "4", stacked, true, 30)
	placeAll(tr, 120, 40, "", nil)
	want, _ := placeAll(tr, 120, 40, "", ids0(5))
	same := func(id string) (string, bool) { return id, id != "" }
	back := loadLayoutTree(tr.save(), same, 100)
	if got, _ := placeAll(back, 120, 40, "", ids0(5)); !reflect.DeepEqual(got, want) {
		t.Fatalf("saved and loaded: %v, want %v", got, want)
	}
	checkTree(t, back)

	// A window that did not come back is dropped, and its split with it
	// when one child is left.
	back = loadLayoutTree(tr.save(), func(id string) (string, bool) { return id, id != "4" }, 100)
	checkTree(t, back)
	if back.has("4") || back.len() != 4 {
		t.Fatalf("window 4 is gone: %s", dumpTree(back.root))
	}

	deep := savedNode{Window: "x"}
	for i := 0; i < maxLayoutDepth+1; i++ {
		deep = savedNode{Split: "stacked", Kids: []savedNode{deep, {Window: "y" + strconv.Itoa(i)}}}
	}
	if loadLayoutTree(&deep, same, 1000) != nil {
		t.Fatal("a tree deeper than maxLayoutDepth was loaded")
	}
	if loadLayoutTree(&deep, same, 5) != nil {
		t.Fatal("a tree of more nodes than allowed was loaded")
	}
	odd := savedNode{Split: "side-by-side", Share: math.Inf(1), Kids: []savedNode{
		{Window: "a", Share: -1},
		{Window: "a", Share: 1},                               // twice
		{Split: "diagonal", Kids: []savedNode{{Window: "b"}}}, // no such split
		{Split: "side-by-side", Kids: []savedNode{{Window: "c"}, {Window: "d", Share: math.NaN()}}}, // merges
		{Split: "stacked", Kids: []savedNode{{Window: "e", Kids: []savedNode{{Window: "f"}}}}},      // a leaf with children is no leaf
	}}
	got := loadLayoutTree(&odd, same, 100)
	checkTree(t, got)
	if fmt.Sprint(got.ids()) != "[a c d]" || got.root.dir != sideBySide {
		t.Fatalf("odd file: %s", dumpTree(got.root))
	}
}

// checkTiles: inside the area, none overlapping, and every cell a
// tile's or a border column with a tile on each side, which is what the
// client draws a border on. Row by row: the tiles crossing a row, left
// to right, start at its first column, end at its last, and touch or
// leave one column between them.
func checkTiles(t *testing.T, what string, cols, rows int, rs []rect) {
	t.Helper()
	cols, rows = max(cols, 1), max(rows, 1)
	big := cols >= minTileCols && rows >= minTileRows
	any := false
	for i, r := range rs {
		if r.w == 0 && r.h == 0 {
			continue
		}
		any = true
		if r.x < 0 || r.y < 0 || r.w < 1 || r.h < 1 || r.x+r.w > cols || r.y+r.h > rows {
			t.Fatalf("%s: tile %d %v is outside the area", what, i, r)
		}
		if big && (r.w < minTileCols || r.h < minTileRows) {
			t.Fatalf("%s: tile %d %v is below the minimum in an area that holds it", what, i, r)
		}
	}
	if !any {
		return
	}
	var cross []rect
	for y := 0; y < rows; y++ {
		cross = cross[:0]
		for _, r := range rs {
			if r.w > 0 && y >= r.y && y < r.y+r.h {
				cross = append(cross, r)
			}
		}
		sort.Slice(cross, func(a, b int) bool { return cross[a].x < cross[b].x })
		if len(cross) == 0 || cross[0].x != 0 || cross[len(cross)-1].x+cross[len(cross)-1].w != cols {
			t.Fatalf("%s: row %d is not covered end to end: %v", what, y, rs)
		}
		for i := 1; i < len(cross); i++ {
			if gap := cross[i].x - (cross[i-1].x + cross[i-1].w); gap != 0 && gap != gutter {
				t.Fatalf("%s: row %d: %v then %v (overlapping, or more than a border apart): %v", what, y, cross[i-1], cross[i], rs)
			}
		}
	}
}

// checkTree: the tree's own shape holds.
func checkTree(t *testing.T, tr *layoutTree) {
	t.Helper()
	seen := 0
	var walk func(n *layoutNode, depth int)
	walk = func(n *layoutNode, depth int) {
		if !(n.share > 0) || math.IsInf(n.share, 0) {
			t.Fatalf("share %v: %s", n.share, dumpTree(tr.root))
		}
		if depth > maxLayoutDepth {
			t.Fatalf("deeper than %d: %s", maxLayoutDepth, dumpTree(tr.root))
		}
		if n.leaf() {
			if tr.leaves[n.id] != n {
				t.Fatalf("leaf %s is not in the index", n.id)
			}
			seen++
			return
		}
		if len(n.kids) < 2 {
			t.Fatalf("a split of %d: %s", len(n.kids), dumpTree(tr.root))
		}
		for _, k := range n.kids {
			if k.parent != n {
				t.Fatalf("a child's parent is wrong: %s", dumpTree(tr.root))
			}
			if !k.leaf() && k.dir == n.dir {
				t.Fatalf("a split inside one of its direction: %s", dumpTree(tr.root))
			}
			walk(k, depth+1)
		}
	}
	if tr.root != nil {
		if tr.root.parent != nil {
			t.Fatal("the root has a parent")
		}
		walk(tr.root, 0)
	}
	if seen != len(tr.leaves) {
		t.Fatalf("%d leaves in the tree, %d in the index", seen, len(tr.leaves))
	}
}

func dumpTree(n *layoutNode) string {
	if n == nil {
		return "()"
	}
	if n.leaf() {
		return fmt.Sprintf("%s:%.3g", n.id, n.share)
	}
	s := n.dir.String() + ":" + strconv.FormatFloat(n.share, 'g', 3, 64) + "["
	for i, k := range n.kids {
		if i > 0 {
			s += " "
		}
		s += dumpTree(k)
	}
	return s + "]"
}
