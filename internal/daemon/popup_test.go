package daemon

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// popupRowOf finds a window of list-windows by id.
func popupRowOf(t *testing.T, r *rpc, session, id string) (windowRow, bool) {
	t.Helper()
	for _, w := range windowsOf(t, r, session) {
		if w.WindowID == id {
			return w, true
		}
	}
	return windowRow{}, false
}

// A popup floats centred over the tiles with an attached client: the
// tiles keep their places, the layout draws it last and focused, its
// pane is its frame less a cell each side, it is not minimized nor
// cycled to, and when its command exits it closes and the focus goes
// back to the window that had it.
func TestPopupFloatsCentredAndClosesWithItsCommand(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	a := str(r.must("new-session", map[string]any{"name": "p"})["window_id"])
	b := str(r.must("new-window", map[string]any{"session": "p"})["window_id"])

	argv := []string{"sh", "-c", "echo picked; read x; echo got-$x"}
	if _, err := r.call("popup", map[string]any{"session": "p", "argv": argv}); err == nil || err.Code != proto.CodeNeedsClient {
		t.Fatalf("a popup with no client attached: %+v", err)
	}
	if ws := windowsOf(t, r, "p"); len(ws) != 2 {
		t.Fatalf("a refused popup opened a window: %+v", ws)
	}

	st, _ := attachStreamT(t, sock, map[string]any{"session": "p", "cols": 100, "rows": 30})
	r.must("focus-window", map[string]any{"window": a})
	res := r.must("popup", map[string]any{"session": "p", "argv": argv})
	pop := str(res["window_id"])
	// 80% of 100 and 60% of 30, centred.
	if res["type"] != "popup_opened" || res["width"] != 80.0 || res["height"] != 18.0 || res["x"] != 10.0 || res["y"] != 6.0 ||
		res["focused"] != true || res["previous_window_id"] != a {
		t.Fatalf("popup answered %v", res)
	}

	l := st.until("a layout with the popup", func(l line) bool {
		if l.typ != "layout" {
			return false
		}
		lay := layoutOf(t, l)
		return len(lay.Windows) == 3 && lay.Windows[2].Popup
	})
	lay := layoutOf(t, l)
	if lay.Focused != pop || lay.Windows[2].Name != strings.Join(argv, " ") {
		t.Fatalf("the popup is not focused, or its frame does not name its command: %s", l.raw)
	}
	if wa, wb, wp := lay.Windows[0], lay.Windows[1], lay.Windows[2]; wa.ID != a || wa.Width != 50 || wa.Popup || wb.ID != b || wb.X != 51 || wb.Width != 49 ||
		wp.ID != pop || wp.X != 10 || wp.Y != 6 || wp.Width != 80 || wp.Height != 18 {
		t.Fatalf("the tiles must keep their places under the popup: %s", l.raw)
	}
	sc := st.screenOf(pop, func(sc proto.AttachScreen) bool { return strings.Contains(linesText(sc), "picked") })
	if sc.Cols != 78 || sc.Rows != 16 {
		t.Fatalf("the popup's pane is its frame less one cell each side: %dx%d", sc.Cols, sc.Rows)
	}
	row, ok := popupRowOf(t, r, "p", pop)
	if !ok || !row.Popup || !row.Focused || row.X != 10 || row.Y != 6 || row.Width != 80 || row.Height != 18 {
		t.Fatalf("list-windows: %+v", row)
	}
	if ra, _ := popupRowOf(t, r, "p", a); ra.Popup || ra.Width != 50 {
		t.Fatalf("list-windows of a tile: %+v", ra)
	}

	// It cannot be minimized, whichever way it is asked.
	for _, c := range []struct {
		verb string
		p    map[string]any
	}{
		{"set-window", map[string]any{"window": pop, "minimize": true}},
		{"run-command", map[string]any{"window": pop, "command": "ToggleMinimize"}},
		{"run-command", map[string]any{"window": pop, "command": "ToggleZoom"}},
	} {
		if _, err := r.call(c.verb, c.p); err == nil || err.Code != proto.CodeInvalidParams || !strings.Contains(err.Message, "popup") {
			t.Fatalf("%s of a popup: %+v", c.verb, err)
		}
	}
	if row, _ := popupRowOf(t, r, "p", pop); row.Minimized {
		t.Fatalf("the popup was minimized: %+v", row)
	}
	if info := r.must("session-info", map[string]any{"session": "p"}); info["zoomed"] != false {
		t.Fatalf("a refused zoom zoomed: %v", info)
	}

	// Its command ends: it closes, and the focus is a's again (not b's,
	// the last window, which a plain close would pick).
	r.must("send-text", map[string]any{"window": pop, "text": "yes\n"})
	st.until("a layout without the popup", func(l line) bool {
		if l.typ != "layout" {
			return false
		}
		lay := layoutOf(t, l)
		return len(lay.Windows) == 2 && lay.Focused == a
	})
	if _, ok := popupRowOf(t, r, "p", pop); ok {
		t.Fatal("the popup is still listed after its command exited")
	}
	if ra, _ := popupRowOf(t, r, "p", a); !ra.Focused {
		t.Fatalf("the focus did not go back to a: %+v", windowsOf(t, r, "p"))
	}
}

// A popup is not in the window cycle: next and prev go round the tiles
// only, from a tile or from the popup itself.
func TestPopupIsNotInTheCycle(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	a := str(r.must("new-session", map[string]any{"name": "c"})["window_id"])
	b := str(r.must("new-window", map[string]any{"session": "c"})["window_id"])
	attachStreamT(t, sock, map[string]any{"session": "c", "cols": 80, "rows": 24})
	pop := str(r.must("popup", map[string]any{"session": "c", "argv": []string{"cat"}})["window_id"])

	res := r.must("focus-window", map[string]any{"session": "c", "relative": "next"})
	if res["window_id"] == pop || (res["window_id"] != a && res["window_id"] != b) {
		t.Fatalf("next from the popup: %v", res)
	}
	seen := map[string]bool{}
	from := a
	for range 4 {
		r.must("run-command", map[string]any{"session": "c", "window": from, "command": "FocusNext"})
		for _, w := range windowsOf(t, r, "c") {
			if w.Focused {
				from = w.WindowID
			}
		}
		seen[from] = true
	}
	for range 4 {
		r.must("focus-window", map[string]any{"session": "c", "relative": "prev"})
		for _, w := range windowsOf(t, r, "c") {
			if w.Focused {
				seen[w.WindowID] = true
			}
		}
	}
	if seen[pop] || !seen[a] || !seen[b] {
		t.Fatalf("the cycle went through %v (popup %s)", seen, pop)
	}
}

// A popup outlives a detach and is there on the next attach; a popup
// asked for while nobody is attached says needs_client; a restart does
// not bring it back, and the focus it held goes to the window it took it
// from.
func TestPopupSurvivesDetachButNotARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sock, state := filepath.Join(dir, "s", "tuios.sock"), filepath.Join(dir, "home", "state")
	srv := daemonAt(t, sock, state, &config.File{})
	r := dialRPC(t, sock)
	a := str(r.must("new-session", map[string]any{"name": "d"})["window_id"])
	st, _ := attachStreamT(t, sock, map[string]any{"session": "d", "cols": 120, "rows": 40})
	res := r.must("popup", map[string]any{"session": "d", "width": "60", "height": "20", "argv": []string{"cat"}})
	pop := str(res["window_id"])
	if res["width"] != 60.0 || res["height"] != 20.0 || res["x"] != 30.0 || res["y"] != 10.0 {
		t.Fatalf("a 60x20 popup in 120x40: %v", res)
	}
	// Larger than the area: cut to it.
	big := r.must("popup", map[string]any{"session": "d", "width": "500", "height": "100%", "argv": []string{"cat"}})
	if big["width"] != 120.0 || big["height"] != 40.0 || big["x"] != 0.0 || big["y"] != 0.0 {
		t.Fatalf("a popup larger than the area: %v", big)
	}
	r.must("close-window", map[string]any{"window": str(big["window_id"])})
	for _, bad := range []map[string]any{
		{"session": "d", "argv": []string{}},
		{"session": "d", "width": "0", "argv": []string{"cat"}},
		{"session": "d", "height": "101%", "argv": []string{"cat"}},
		{"session": "d", "width": "wide", "argv": []string{"cat"}},
	} {
		if _, err := r.call("popup", bad); err == nil || err.Code != proto.CodeInvalidParams {
			t.Fatalf("popup %v: %+v", bad, err)
		}
	}

	st.c.Close() // the client goes away
	eventually(t, "the session detached", func() bool {
		return r.must("session-info", map[string]any{"session": "d"})["attached"] == false
	})
	if _, err := r.call("popup", map[string]any{"session": "d", "argv": []string{"cat"}}); err == nil || err.Code != proto.CodeNeedsClient {
		t.Fatalf("a popup on a detached session: %+v", err)
	}
	if row, ok := popupRowOf(t, r, "d", pop); !ok || !row.Popup {
		t.Fatalf("the popup did not outlive the detach: %+v", windowsOf(t, r, "d"))
	}
	st2, _ := attachStreamT(t, sock, map[string]any{"session": "d", "cols": 120, "rows": 40})
	lay := layoutOf(t, st2.until("the first layout", func(l line) bool { return l.typ == "layout" }))
	if len(lay.Windows) != 2 || !lay.Windows[1].Popup || lay.Windows[1].ID != pop || lay.Focused != pop {
		t.Fatalf("the next attach does not show the popup: %+v", lay)
	}

	srv.Close()
	daemonAt(t, sock, state, &config.File{})
	r2 := dialRPC(t, sock)
	ws := windowsOf(t, r2, "d")
	if len(ws) != 1 || ws[0].WindowID != a || !ws[0].Focused || ws[0].Popup {
		t.Fatalf("after a restart: %+v (the popup must not come back)", ws)
	}
}
