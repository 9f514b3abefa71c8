package layout

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"testing"
)

// runOps plays ops on a tree, two bytes each (an operation and its
// argument), placing it after every one as the core does, and holds it
// to its shape, the tiles to the area's rules, and a save and load to
// the same places.
func runOps(t *testing.T, ops []byte) {
	tr := New()
	next := 0
	sizes := []int{1, 2, 3, 4, 5, 8, 9, 13, 24, 40, 81, 200, 1000}
	cols, rows := 80, 24
	hide := map[string]bool{}
	focus := ""
	pick := func(b byte) string {
		ids := tr.IDs()
		if len(ids) == 0 {
			return ""
		}
		return ids[int(b)%len(ids)]
	}
	shown := func(id string) bool { return !hide[id] }
	for i := 0; i+1 < len(ops) && i < 400; i += 2 {
		op, arg := ops[i]%8, ops[i+1]
		switch op {
		case 0: // a window arrives
			if tr.Len() < 40 {
				next++
				tr.Add(strconv.Itoa(next))
			}
		case 1, 2: // a split, either way
			if tr.Len() < 40 {
				dir := SideBySide
				if op == 2 {
					dir = Stacked
				}
				next++
				id := strconv.Itoa(next)
				target := pick(arg)
				ok := tr.Split(target, id, dir, arg&64 != 0, 10+int(arg)%81)
				if ok != tr.Has(id) || ok && target == "" {
					t.Fatalf("op %d: Split(%q) said %v, the tree holds it: %v", i/2, target, ok, tr.Has(id))
				}
			}
		case 3: // a window leaves
			id := pick(arg)
			tr.Remove(id)
			if tr.Has(id) {
				t.Fatalf("op %d: %s still there", i/2, id)
			}
		case 4:
			cols, rows = sizes[int(arg)%len(sizes)], sizes[int(arg/13)%len(sizes)]
		case 5: // minimize or restore
			if id := pick(arg); id != "" {
				hide[id] = !hide[id]
			}
		case 6:
			focus = pick(arg)
		case 7:
			if arg%2 == 0 {
				tr.Equalize()
			} else {
				tr.Swap(pick(arg), pick(arg/3))
			}
		}
		what := fmt.Sprintf("op %d (%d %d) in %dx%d", i/2, op, arg, cols, rows)
		checkTree(t, tr)
		ids := tr.IDs()
		res := tr.Place(cols, rows, shown, focus)
		var rs []Rect
		on := 0
		for _, id := range ids {
			r := res.Rects[id]
			if hide[id] && r != (Rect{}) {
				t.Fatalf("%s: %s is not shown but has %v", what, id, r)
			}
			if !hide[id] {
				on++
				if r.W == 0 && id == focus {
					t.Fatalf("%s: the focused window %s has no tile", what, id)
				}
			}
			rs = append(rs, r)
		}
		checkTiles(t, what, cols, rows, rs)
		if len(res.Rects)+res.Hidden != on {
			t.Fatalf("%s: %d placed and %d hidden of %d shown", what, len(res.Rects), res.Hidden, on)
		}
		back := Load(tr.Save(), func(id string) (string, bool) { return id, true }, 1000)
		if tr.Len() > 0 {
			checkTree(t, back)
			if again := back.Place(cols, rows, shown, focus); !reflect.DeepEqual(again.Rects, res.Rects) {
				t.Fatalf("%s: saved and loaded: %v, was %v", what, again.Rects, res.Rects)
			}
		}
	}
}

func FuzzTreeOps(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 1, 4, 200, 5, 0, 3, 1, 4, 0})
	f.Add([]byte{1, 0, 1, 1, 1, 2, 1, 3, 2, 4, 2, 5, 4, 30, 4, 0, 4, 12, 5, 1, 7, 0, 3, 2})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 1, 4, 14, 6, 3, 7, 1, 7, 2, 3, 0, 3, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		runOps(t, append([]byte{0, 0}, ops...))
	})
}

// A long fixed mix of every operation, so the plain test run covers
// what the fuzzer explores.
func TestTreeOpsKeepTheTreeAndTilesWhole(t *testing.T) {
	t.Parallel()
	seed := uint32(11)
	ops := make([]byte, 800)
	for i := range ops {
		seed = seed*1664525 + 1013904223
		ops[i] = byte(seed >> 24)
	}
	for round := 0; round < 8; round++ {
		runOps(t, append([]byte{0, 0}, ops[round*50:]...))
	}
}

// FuzzLoad feeds sessions-file trees as JSON: Load never panics, and
// what it gives back is a tree in shape that places within the area.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"split":"side-by-side","share":1,"kids":[{"window":"a","share":40},{"split":"stacked","share":40,"kids":[{"window":"b","share":12},{"window":"c","share":12}]}]}`))
	f.Add([]byte(`{"split":"stacked","share":-1,"kids":[{"window":"a","share":1e300},{"window":"a"},{"split":"stacked","kids":[{"window":"b"}]},{"split":"diagonal"}]}`))
	f.Add([]byte(`{"window":"x","kids":[{"window":"y"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Saved
		if json.Unmarshal(data, &s) != nil {
			return
		}
		tr := Load(&s, func(id string) (string, bool) { return id, id != "" && id != "gone" }, 200)
		if tr == nil {
			return
		}
		checkTree(t, tr)
		if tr.Has("gone") {
			t.Fatal("a window rename refused was loaded")
		}
		ids := tr.IDs()
		for _, size := range [][2]int{{1, 1}, {80, 24}, {1000, 1000}} {
			res := tr.Place(size[0], size[1], func(string) bool { return true }, "")
			rs := make([]Rect, len(ids))
			for i, id := range ids {
				rs[i] = res.Rects[id]
			}
			checkTiles(t, fmt.Sprintf("%s in %dx%d", data, size[0], size[1]), size[0], size[1], rs)
		}
	})
}
