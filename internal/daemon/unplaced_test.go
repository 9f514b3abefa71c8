package daemon

import "testing"

// list-windows and get-window say whether a window's geometry is still
// the placeholder, as new-window does, until a client's size places it.
func TestListAndGetWindowCarryUnplaced(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	a := str(r.must("new-session", map[string]any{"name": "u"})["window_id"])
	nw := r.must("new-window", map[string]any{"session": "u", "name": "later", "workspace": 2, "no_focus": true})
	if nw["unplaced"] != true {
		t.Fatalf("new-window on a detached session: %v", nw)
	}
	for _, w := range windowsOf(t, r, "u") {
		if !w.Unplaced {
			t.Fatalf("detached, nothing is placed: %+v", w)
		}
	}
	if g := r.must("get-window", map[string]any{"session": "u", "window": "later"}); g["unplaced"] != true {
		t.Fatalf("get-window: %v", g)
	}
	r.must("resize", map[string]any{"session": "u", "cols": 100, "rows": 30}) // what an attached client does
	byID := map[string]windowRow{}
	for _, w := range windowsOf(t, r, "u") {
		byID[w.WindowID] = w
	}
	if byID[a].Unplaced || byID[str(nw["window_id"])].Unplaced != true {
		t.Fatalf("after a client's size: the shown window is placed, the one on workspace 2 is not: %+v", byID)
	}
	if g := r.must("get-window", map[string]any{"session": "u", "window": a}); g["unplaced"] != false {
		t.Fatalf("get-window of the placed window: %v", g)
	}
}
