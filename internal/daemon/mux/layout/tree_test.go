package layout

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
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
// the order of ids (a zero Rect for one that did not fit).
func placeAll(t *Tree, cols, rows int, focus string, ids []string) ([]Rect, int) {
	res := t.Place(cols, rows, allShown, focus)
	out := make([]Rect, len(ids))
	for i, id := range ids {
		out[i] = res.Rects[id]
	}
	return out, res.Hidden
}

// autoTree is n windows opened with new-window.
func autoTree(n int) *Tree {
	t := New()
	for _, id := range ids0(n) {
		t.Add(id)
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
		want          []Rect
	}{
		{"one fills", 1, 80, 24, []Rect{{0, 0, 80, 24}}},
		{"two side by side, a border apart", 2, 81, 24, []Rect{{0, 0, 40, 24}, {41, 0, 40, 24}}},
		{"two, even width: the left takes the extra column", 2, 80, 24, []Rect{{0, 0, 40, 24}, {41, 0, 39, 24}}},
		{"three: master and two stacked", 3, 81, 24, []Rect{{0, 0, 40, 24}, {41, 0, 40, 12}, {41, 12, 40, 12}}},
		{"four: the remainder goes to the first", 4, 81, 25, []Rect{{0, 0, 40, 25}, {41, 0, 40, 9}, {41, 9, 40, 8}, {41, 17, 40, 8}}},
		{"too narrow for two columns and a border: one column", 2, 8, 24, []Rect{{0, 0, 8, 12}, {0, 12, 8, 12}}},
		{"just wide enough for two columns", 2, 9, 24, []Rect{{0, 0, 4, 24}, {5, 0, 4, 24}}},
		{"an area below the minimum: the one tile takes it", 1, 1, 1, []Rect{{0, 0, 1, 1}}},
		{"too short for the stack: the stack goes side by side", 5, 81, 5,
			[]Rect{{0, 0, 40, 5}, {41, 0, 10, 5}, {52, 0, 9, 5}, {62, 0, 9, 5}, {72, 0, 9, 5}}},
		{"too small either way: the master and what fits of the stack", 5, 22, 5,
			[]Rect{{0, 0, 11, 5}, {12, 0, 10, 3}, {12, 3, 10, 2}, {}, {}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, hidden := placeAll(autoTree(c.n), c.cols, c.rows, "", ids0(c.n))
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("%d windows in %dx%d: %v, want %v", c.n, c.cols, c.rows, got, c.want)
			}
			off := 0
			for _, r := range c.want {
				if r.W == 0 {
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
	tr := New()
	tr.Add("a")
	at := func(ids ...string) []Rect {
		r, _ := placeAll(tr, 121, 40, "", ids)
		return r
	}
	at("a")
	if !tr.Split("a", "b", Stacked, false, 50) {
		t.Fatal("split a stacked")
	}
	if got := at("a", "b"); !reflect.DeepEqual(got, []Rect{{0, 0, 121, 20}, {0, 20, 121, 20}}) {
		t.Fatalf(`one window and prefix ": stacked, %v`, got)
	}
	if !tr.Split("b", "c", SideBySide, false, 50) {
		t.Fatal("split b side by side")
	}
	if got := at("a", "b", "c"); !reflect.DeepEqual(got, []Rect{{0, 0, 121, 20}, {0, 20, 60, 20}, {61, 20, 60, 20}}) {
		t.Fatalf("b split side by side, a untouched: %v", got)
	}
	// Another side-by-side split of c joins b and c's split: c halves,
	// b keeps its 60 columns.
	tr.Split("c", "d", SideBySide, false, 50)
	if got := at("a", "b", "c", "d"); !reflect.DeepEqual(got, []Rect{{0, 0, 121, 20}, {0, 20, 60, 20}, {61, 20, 30, 20}, {92, 20, 29, 20}}) {
		t.Fatalf("c halved, b kept: %v", got)
	}
	// Before: the new window on the left of (above) the target.
	tr.Split("a", "e", Stacked, true, 25)
	if got := at("e", "a"); !reflect.DeepEqual(got, []Rect{{0, 0, 121, 5}, {0, 5, 121, 15}}) {
		t.Fatalf("e above a with a quarter: %v", got)
	}
	if got := at("b"); got[0] != (Rect{0, 20, 60, 20}) {
		t.Fatalf("b moved when a was split: %v", got)
	}
	if tr.Split("zz", "f", Stacked, false, 50) || tr.Split("a", "b", Stacked, false, 50) || tr.Split("a", "", Stacked, false, 50) {
		t.Fatal("a split of an unknown target, to a window already placed, or of no id went through")
	}
	checkTree(t, tr)
}

// A window that leaves gives its cells, border included, to the sibling
// before it, else the one after; a split left with one child gives it
// its place, and a child split of the grandparent's direction merges.
func TestRemoveGivesTheSpaceToTheSibling(t *testing.T) {
	t.Parallel()
	tr := New()
	tr.Add("a")
	placeAll(tr, 121, 30, "", nil) // the daemon places after every change
	tr.Split("a", "b", SideBySide, false, 50)
	placeAll(tr, 121, 30, "", nil)
	tr.Split("b", "c", SideBySide, false, 50)
	got, _ := placeAll(tr, 121, 30, "", []string{"a", "b", "c"})
	if !reflect.DeepEqual(got, []Rect{{0, 0, 60, 30}, {61, 0, 30, 30}, {92, 0, 29, 30}}) {
		t.Fatalf("three side by side: %v", got)
	}
	placeAll(tr, 121, 30, "", nil)
	tr.Remove("b")
	got, _ = placeAll(tr, 121, 30, "", []string{"a", "c"})
	if !reflect.DeepEqual(got, []Rect{{0, 0, 91, 30}, {92, 0, 29, 30}}) {
		t.Fatalf("b's cells and border went to a, c did not move: %v", got)
	}
	tr.Remove("a")
	got, _ = placeAll(tr, 121, 30, "", []string{"c"})
	if got[0] != (Rect{0, 0, 121, 30}) || !tr.root.leaf() {
		t.Fatalf("the last one fills the area: %v", got)
	}

	// row[ col[ row[p,q], r ], s ]: r leaves, so row[p,q] joins the
	// outer row, p and q keeping their columns.
	tr = New()
	tr.Add("p")
	for _, s := range []struct {
		target, id string
		dir        Dir
	}{{"p", "s", SideBySide}, {"p", "r", Stacked}, {"p", "q", SideBySide}} {
		placeAll(tr, 101, 30, "", nil)
		tr.Split(s.target, s.id, s.dir, false, 50)
	}
	before, _ := placeAll(tr, 101, 30, "", []string{"p", "q", "s"})
	tr.Remove("r")
	checkTree(t, tr)
	after, _ := placeAll(tr, 101, 30, "", []string{"p", "q", "s"})
	if tr.root.dir != SideBySide || len(tr.root.kids) != 3 {
		t.Fatalf("the row inside a row did not merge: %s", dumpTree(tr.root))
	}
	for i := range before {
		if before[i].X != after[i].X || before[i].W != after[i].W || after[i].H != 30 {
			t.Fatalf("after r left: %v, before %v", after, before)
		}
	}
	tr.Remove("nobody") // nothing happens
	checkTree(t, tr)
}

// A window not shown (minimized) keeps its leaf: its siblings take its
// space, and it comes back where it was.
func TestAMinimizedWindowComesBackWhereItWas(t *testing.T) {
	t.Parallel()
	tr := autoTree(3) // 0 | (1 over 2)
	want, _ := placeAll(tr, 81, 24, "", ids0(3))
	res := tr.Place(81, 24, func(id string) bool { return id != "1" }, "")
	if res.Rects["2"] != (Rect{41, 0, 40, 24}) || res.Hidden != 0 {
		t.Fatalf("1 minimized: 2 takes the column: %v", res.Rects)
	}
	if got, _ := placeAll(tr, 81, 24, "", ids0(3)); !reflect.DeepEqual(got, want) {
		t.Fatalf("1 restored: %v, want %v", got, want)
	}
	if res := tr.Place(81, 24, func(string) bool { return false }, ""); len(res.Rects) != 0 {
		t.Fatalf("nothing shown, nothing placed: %v", res.Rects)
	}
}

func TestEqualizeAndSwap(t *testing.T) {
	t.Parallel()
	tr := New()
	tr.Add("a")
	tr.Split("a", "b", SideBySide, false, 10)
	placeAll(tr, 81, 24, "", nil)
	tr.Split("b", "c", Stacked, false, 80)
	placeAll(tr, 81, 24, "", nil)
	tr.Equalize()
	got, _ := placeAll(tr, 81, 24, "", []string{"a", "b", "c"})
	if !reflect.DeepEqual(got, []Rect{{0, 0, 40, 24}, {41, 0, 40, 12}, {41, 12, 40, 12}}) {
		t.Fatalf("equalized: %v", got)
	}
	if !tr.Swap("a", "c") || tr.Swap("a", "zz") {
		t.Fatal("swap")
	}
	got, _ = placeAll(tr, 81, 24, "", []string{"c", "b", "a"})
	if !reflect.DeepEqual(got, []Rect{{0, 0, 40, 24}, {41, 0, 40, 12}, {41, 12, 40, 12}}) {
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
	tr.Split("0", "6", Stacked, false, 50)
	ids := ids0(7)
	for _, size := range [][2]int{{1, 1}, {2, 1}, {1, 2}, {3, 3}, {4, 2}, {9, 3}, {8, 40}, {40, 4}, {80, 24}, {1000, 1000}, {1000, 1}, {1, 1000}} {
		for _, focus := range []string{"", "0", "5", "6"} {
			got, hidden := placeAll(tr, size[0], size[1], focus, ids)
			checkTiles(t, fmt.Sprintf("%dx%d focus %q", size[0], size[1], focus), size[0], size[1], got)
			on := 0
			for i, r := range got {
				if r.W > 0 {
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
	tr.Split("0", "4", Stacked, true, 30)
	placeAll(tr, 120, 40, "", nil)
	want, _ := placeAll(tr, 120, 40, "", ids0(5))
	same := func(id string) (string, bool) { return id, id != "" }
	back := Load(tr.Save(), same, 100)
	if got, _ := placeAll(back, 120, 40, "", ids0(5)); !reflect.DeepEqual(got, want) {
		t.Fatalf("saved and loaded: %v, want %v", got, want)
	}
	checkTree(t, back)

	// A window that did not come back is dropped, and its split with it
	// when one child is left.
	back = Load(tr.Save(), func(id string) (string, bool) { return id, id != "4" }, 100)
	checkTree(t, back)
	if back.Has("4") || back.Len() != 4 {
		t.Fatalf("window 4 is gone: %s", dumpTree(back.root))
	}

	deep := Saved{Window: "x"}
	for i := 0; i < MaxDepth+1; i++ {
		deep = Saved{Split: "stacked", Kids: []Saved{deep, {Window: "y" + strconv.Itoa(i)}}}
	}
	if Load(&deep, same, 1000) != nil {
		t.Fatal("a tree deeper than MaxDepth was loaded")
	}
	if Load(&deep, same, 5) != nil {
		t.Fatal("a tree of more nodes than allowed was loaded")
	}
	odd := Saved{Split: "side-by-side", Share: math.Inf(1), Kids: []Saved{
		{Window: "a", Share: -1},
		{Window: "a", Share: 1},                           // twice
		{Split: "diagonal", Kids: []Saved{{Window: "b"}}}, // no such split
		{Split: "side-by-side", Kids: []Saved{{Window: "c"}, {Window: "d", Share: math.NaN()}}}, // merges
		{Split: "stacked", Kids: []Saved{{Window: "e", Kids: []Saved{{Window: "f"}}}}},          // a leaf with children is no leaf
	}}
	got := Load(&odd, same, 100)
	checkTree(t, got)
	if fmt.Sprint(got.IDs()) != "[a c d]" || got.root.dir != SideBySide {
		t.Fatalf("odd file: %s", dumpTree(got.root))
	}
}

// checkTiles fails t when rs breaks the tiling Place gives (CheckTiling).
func checkTiles(t *testing.T, what string, cols, rows int, rs []Rect) {
	t.Helper()
	if err := CheckTiling(cols, rows, rs); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// checkTree: the tree's own shape holds.
func checkTree(t *testing.T, tr *Tree) {
	t.Helper()
	seen := 0
	var walk func(n *node, depth int)
	walk = func(n *node, depth int) {
		if !(n.share > 0) || math.IsInf(n.share, 0) {
			t.Fatalf("share %v: %s", n.share, dumpTree(tr.root))
		}
		if depth > MaxDepth {
			t.Fatalf("deeper than %d: %s", MaxDepth, dumpTree(tr.root))
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

func dumpTree(n *node) string {
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

// CheckTiling finds what breaks a tiling, so the placement tests that
// lean on it can fail.
func TestCheckTilingFindsBrokenTilings(t *testing.T) {
	for _, c := range []struct {
		rs   []Rect
		want string
	}{
		{[]Rect{{X: 0, Y: 0, W: 40, H: 20}, {X: 41, Y: 0, W: 39, H: 20}}, ""},
		{[]Rect{{X: 0, Y: 0, W: 40, H: 20}, {X: 42, Y: 0, W: 38, H: 20}}, "more than a border apart"},
		{[]Rect{{X: 0, Y: 0, W: 50, H: 20}, {X: 41, Y: 0, W: 39, H: 20}}, "overlapping"},
		{[]Rect{{X: 0, Y: 0, W: 81, H: 20}}, "outside the area"},
		{[]Rect{{X: 0, Y: 0, W: 80, H: 10}}, "not covered end to end"},
		{[]Rect{{X: 0, Y: 0, W: 2, H: 20}, {X: 3, Y: 0, W: 77, H: 20}}, "below the minimum"},
	} {
		err := CheckTiling(80, 20, c.rs)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%v: %v, want %q", c.rs, err, c.want)
		}
	}
}
