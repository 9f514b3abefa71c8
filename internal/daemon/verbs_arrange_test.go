package daemon

import (
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/proto"
)

// newCat opens a window running cat (quiet, alive) and returns its id.
func newCat(t *testing.T, r *rpc, params map[string]any) string {
	t.Helper()
	params["argv"] = []string{"/bin/cat"}
	return str(r.must("new-window", params)["window_id"])
}

func TestRunCommandNamesBothSpellingsAndRefusesEmpty(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	a := str(r.must("new-session", map[string]any{"name": "rc"})["window_id"])
	newCat(t, r, map[string]any{"session": "rc"})

	for _, bad := range []string{"", "  "} {
		_, err := r.call("run-command", map[string]any{"session": "rc", "command": bad})
		if err == nil || err.Code != proto.CodeInvalidParams || !strings.Contains(err.Message, "name a command") {
			t.Fatalf("run-command %q must be refused, never a silent list: %+v", bad, err)
		}
	}
	if _, err := r.call("run-command", map[string]any{"session": "rc", "command": "toggle_zom"}); err == nil || err.Code != proto.CodeInvalidParams ||
		err.Hint == nil || err.Hint.DidYouMean != "toggle_zoom" {
		t.Fatalf("a misspelt keymap name: %+v", err)
	}

	res := r.must("run-command", map[string]any{"session": "rc", "window": a, "command": "toggle_zoom"})
	if res["type"] != "command_result" || res["command"] != "ToggleZoom" || res["keymap_name"] != "toggle_zoom" || res["ran"] != true {
		t.Fatalf("toggle_zoom answered %v", res)
	}
	if info := r.must("session-info", map[string]any{"session": "rc"}); info["zoomed"] != true {
		t.Fatalf("toggle_zoom did not zoom: %v", info)
	}
	r.must("run-command", map[string]any{"session": "rc", "command": "ToggleZoom"})
	if info := r.must("session-info", map[string]any{"session": "rc"}); info["zoomed"] != false {
		t.Fatalf("ToggleZoom is the same command and unzooms: %v", info)
	}
	r.must("run-command", map[string]any{"session": "rc", "window": a, "command": "focus_next"})
	if got := r.must("session-info", map[string]any{"session": "rc"}); got == nil {
		t.Fatal("no session")
	}
	if w := r.must("get-window", map[string]any{"session": "rc", "window": a}); w["focused"] != false {
		t.Fatalf("focus_next from a moved the focus off it: %v", w)
	}

	list := r.must("run-command", map[string]any{"list": true})
	cmds, _ := list["commands"].([]any)
	found, both := false, len(cmds) > 1
	for _, c := range cmds {
		m := c.(map[string]any)
		if m["name"] == "ToggleZoom" && m["keymap_name"] == "toggle_zoom" {
			found = true
		}
		if str(m["name"]) == "" || str(m["keymap_name"]) == "" {
			both = false
		}
	}
	if !found || !both {
		t.Fatalf("the list names both spellings: %v", list)
	}
}

func TestArrangeVerbsReportWhatChanged(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	a := str(r.must("new-session", map[string]any{"name": "ar", "window_name": "pa"})["window_id"])
	b := newCat(t, r, map[string]any{"session": "ar", "name": "pb", "workspace": 2})

	res := r.must("focus-window", map[string]any{"session": "ar", "window": "pa"})
	if res["window_id"] != a || res["workspace"] != 1.0 || res["previous_workspace"] != 2.0 || res["previous_window_id"] != b || res["changed"] != true || res["name"] != "pa" {
		t.Fatalf("focus-window: %v", res)
	}
	if res := r.must("focus-window", map[string]any{"session": "ar", "window": "pa"}); res["changed"] != false {
		t.Fatalf("focusing the focused window changes nothing: %v", res)
	}

	// Moving the focused window away leaves the focus on the workspace
	// shown; --follow goes with it.
	res = r.must("move-window", map[string]any{"session": "ar", "window": "pa", "workspace": 3})
	if res["previous_workspace"] != 1.0 || res["workspace"] != 3.0 || res["changed"] != true || res["followed"] != false || res["current_workspace"] != 1.0 {
		t.Fatalf("move-window: %v", res)
	}
	res = r.must("move-window", map[string]any{"session": "ar", "window": "pb", "workspace": 3, "follow": true})
	if res["previous_workspace"] != 2.0 || res["current_workspace"] != 3.0 || res["previous_current_workspace"] != 1.0 || res["focused_window_id"] != b || res["followed"] != true {
		t.Fatalf("move-window --follow: %v", res)
	}
	info := r.must("session-info", map[string]any{"session": "ar"})
	if info["current_workspace"] != 3.0 {
		t.Fatalf("--follow shows the target workspace: %v", info)
	}
	if w := r.must("get-window", map[string]any{"session": "ar", "window": b}); w["focused"] != true {
		t.Fatalf("--follow focuses the moved window: %v", w)
	}

	res = r.must("select-workspace", map[string]any{"session": "ar", "workspace": 1})
	if res["previous_workspace"] != 3.0 || res["workspace"] != 1.0 || res["changed"] != true {
		t.Fatalf("select-workspace: %v", res)
	}
	if res := r.must("select-workspace", map[string]any{"session": "ar", "workspace": 1}); res["changed"] != false {
		t.Fatalf("select-workspace of the one shown: %v", res)
	}

	res = r.must("set-window", map[string]any{"session": "ar", "window": b, "name": "pbee", "minimize": true})
	if res["previous_name"] != "pb" || res["name"] != "pbee" || res["previous_minimized"] != false || res["minimized"] != true || str(res["changed"]) != "[name minimized]" {
		t.Fatalf("set-window: %v", res)
	}
	if res := r.must("set-window", map[string]any{"session": "ar", "window": b, "minimize": true}); str(res["changed"]) != "[]" {
		t.Fatalf("minimizing a minimized window changes nothing: %v", res)
	}
	if _, err := r.call("set-window", map[string]any{"session": "ar", "window": b}); err == nil || !strings.Contains(err.Message, "--name, --minimize or --restore") {
		t.Fatalf("nothing to set names the flags: %+v", err)
	}

	res = r.must("close-window", map[string]any{"session": "ar", "window": "pbee"})
	if res["type"] != "window_closed" || res["window_id"] != b || res["name"] != "pbee" || res["workspace"] != 3.0 {
		t.Fatalf("close-window: %v", res)
	}
	if _, err := r.call("get-window", map[string]any{"session": "ar", "window": b}); err == nil || err.Code != proto.CodeWindowNotFound {
		t.Fatalf("the closed window is gone: %+v", err)
	}
}

func TestFocusRelativeCyclesWithinTheWorkspaceDetached(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	a := str(r.must("new-session", map[string]any{"name": "cy"})["window_id"])
	b := newCat(t, r, map[string]any{"session": "cy"})
	other := newCat(t, r, map[string]any{"session": "cy", "workspace": 2, "no_focus": true})
	m := newCat(t, r, map[string]any{"session": "cy", "no_focus": true})
	c := newCat(t, r, map[string]any{"session": "cy", "no_focus": true})
	r.must("set-window", map[string]any{"session": "cy", "window": m, "minimize": true})
	r.must("focus-window", map[string]any{"session": "cy", "window": a})

	// Ring on workspace 1 without the minimized one: a, b, c.
	for _, want := range []string{b, c, a, b} {
		res := r.must("focus-window", map[string]any{"session": "cy", "relative": "next"})
		if res["window_id"] != want || res["relative"] != "next" {
			t.Fatalf("next: want %s, got %v", want[:8], res)
		}
	}
	for _, want := range []string{a, c} {
		if res := r.must("focus-window", map[string]any{"session": "cy", "relative": "prev"}); res["window_id"] != want {
			t.Fatalf("prev: want %s, got %v", want[:8], res)
		}
	}
	// From a window on another workspace (-w): its own workspace's ring.
	if res := r.must("focus-window", map[string]any{"session": "cy", "window": other, "relative": "next"}); res["window_id"] != other || res["workspace"] != 2.0 {
		t.Fatalf("alone on its workspace, next is itself: %v", res)
	}
	if _, err := r.call("focus-window", map[string]any{"session": "cy", "relative": "sideways"}); err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("relative sideways: %+v", err)
	}
	if _, err := r.call("focus-window", map[string]any{"session": "cy", "relative": "next", "direction": "left"}); err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("relative with direction: %+v", err)
	}
}

func TestClientGeometryVerbsSayNeedsClientDetached(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "nc"})
	newCat(t, r, map[string]any{"session": "nc"})
	before := len(windowsOf(t, r, "nc"))
	for verb, params := range map[string]map[string]any{
		"focus-window": {"session": "nc", "direction": "left"},
		"split-window": {"session": "nc", "direction": "vertical", "name": "logs"},
		"set-layout":   {"session": "nc", "tiling": false},
	} {
		_, err := r.call(verb, params)
		if err == nil || err.Code != proto.CodeNeedsClient || err.Hint == nil || !strings.Contains(err.Hint.Command, "tuios attach") {
			t.Fatalf("%s detached: %+v", verb, err)
		}
	}
	if n := len(windowsOf(t, r, "nc")); n != before {
		t.Fatalf("a refused split-window opened a window: %d -> %d", before, n)
	}
	if info := r.must("session-info", map[string]any{"session": "nc"}); info["tiling"] != "tiled" {
		t.Fatalf("a refused set-layout changed the mode: %v", info)
	}
}

func TestClientGeometryVerbsWithAClientAttached(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	a := str(r.must("new-session", map[string]any{"name": "geo", "window_name": "pa"})["window_id"])
	b := newCat(t, r, map[string]any{"session": "geo", "name": "pb"})
	st, _ := attachStreamT(t, sock, map[string]any{"session": "geo", "cols": 100, "rows": 30})
	lay := layoutOf(t, st.next())
	if len(lay.Windows) != 2 || lay.Windows[0].ID != a || lay.Windows[1].X != 51 || lay.Focused != b {
		t.Fatalf("a | b: %+v", lay)
	}

	// Direction: b's left is a; a has nothing to its left.
	res := r.must("focus-window", map[string]any{"session": "geo", "direction": "left"})
	if res["window_id"] != a || res["changed"] != true || res["direction"] != "left" {
		t.Fatalf("left of b: %v", res)
	}
	res = r.must("focus-window", map[string]any{"session": "geo", "direction": "left"})
	if res["changed"] != false || res["reason"] != "no_neighbor" || res["window_id"] != a || res["from_window_id"] != a {
		t.Fatalf("left of a is the edge: %v", res)
	}
	if res := r.must("focus-window", map[string]any{"session": "geo", "direction": "right"}); res["window_id"] != b {
		t.Fatalf("right of a: %v", res)
	}

	// split-window -w a horizontal: a's tile splits stacked, the new
	// window under a in the left column; b does not move.
	sp := r.must("split-window", map[string]any{"session": "geo", "window": a, "direction": "horizontal", "name": "logs"})
	n := str(sp["window_id"])
	if sp["type"] != "window_created" || sp["split_from"] != a || sp["index"] != 1.0 || sp["name"] != "logs" || sp["workspace"] != 1.0 ||
		sp["direction"] != "horizontal" || sp["side"] != "down" {
		t.Fatalf("split-window: %v", sp)
	}
	l := st.until("a over logs, beside b", func(l line) bool {
		if l.typ != "layout" {
			return false
		}
		lay := layoutOf(t, l)
		return len(lay.Windows) == 3 && lay.Windows[0].ID == a && lay.Windows[1].ID == n && lay.Windows[2].ID == b
	})
	lay = layoutOf(t, l)
	if w := lay.Windows; w[0] != withRect(w[0], 0, 0, 50, 15) || w[1] != withRect(w[1], 0, 15, 50, 15) || w[2] != withRect(w[2], 51, 0, 49, 30) {
		t.Fatalf("a over logs on the left, b as it was: %+v", lay.Windows)
	}
	sttySize(t, r, n, 14, 50) // the new pane's PTY is its tile less the title row
	if res := r.must("focus-window", map[string]any{"session": "geo", "window": n, "direction": "up"}); res["window_id"] != a {
		t.Fatalf("above logs is a: %v", res)
	}
	if res := r.must("focus-window", map[string]any{"session": "geo", "window": n, "direction": "right"}); res["window_id"] != b {
		t.Fatalf("right of logs is b: %v", res)
	}

	// left with a quarter: the new window on b's left, b keeps the rest;
	// closing it gives b its cells back.
	sp = r.must("split-window", map[string]any{"session": "geo", "window": b, "direction": "left", "percent": 25, "argv": []string{"/bin/cat"}})
	q := str(sp["window_id"])
	if sp["direction"] != "vertical" || sp["side"] != "left" {
		t.Fatalf("split-window left: %v", sp)
	}
	ws := windowsOf(t, r, "geo")
	if at := rowOf(ws, q); at.X != 51 || at.Width != 12 || at.Height != 30 {
		t.Fatalf("a quarter on b's left: %+v", at)
	}
	if at := rowOf(ws, b); at.X != 64 || at.Width != 36 {
		t.Fatalf("b keeps the rest: %+v", at)
	}
	// Too small: refused, nothing opened.
	if _, err := r.call("split-window", map[string]any{"session": "geo", "window": q, "direction": "vertical"}); err != nil {
		t.Fatalf("12 columns split in two: %+v", err)
	}
	ws = windowsOf(t, r, "geo")
	before := len(ws)
	var tiny windowRow
	for _, w := range ws {
		if w.X >= 51 && w.Width < 9 {
			tiny = w
		}
	}
	if _, err := r.call("split-window", map[string]any{"session": "geo", "window": tiny.WindowID, "direction": "vertical"}); err == nil || err.Code != "no_space" || err.Hint == nil {
		t.Fatalf("split of a %d-column tile: %+v", tiny.Width, err)
	}
	if len(windowsOf(t, r, "geo")) != before {
		t.Fatal("a refused split opened a window")
	}
	for _, w := range windowsOf(t, r, "geo") {
		if w.X >= 51 && w.WindowID != b {
			r.must("close-window", map[string]any{"session": "geo", "window": w.WindowID})
		}
	}
	// Closed, they give their cells to the tile before them (as tmux):
	// a's column widens to b's edge, b stays.
	ws = windowsOf(t, r, "geo")
	if at := rowOf(ws, b); at.X != 64 || at.Width != 36 {
		t.Fatalf("b moved when the windows on its left closed: %+v", at)
	}
	if at := rowOf(ws, a); at.X != 0 || at.Width != 63 || at.Height != 15 {
		t.Fatalf("a's column took the closed windows' cells: %+v", at)
	}
	r.must("set-layout", map[string]any{"session": "geo", "equalize": true})
	if at := rowOf(windowsOf(t, r, "geo"), b); at.X != 51 || at.Width != 49 {
		t.Fatalf("equalized: b half the width again: %+v", at)
	}

	// Floating: the windows keep their places; a new one takes the top
	// left; split-window needs tiling.
	if info := r.must("session-info", map[string]any{"session": "geo"}); info["tiling"] != "tiled" {
		t.Fatalf("tiling: %v", info)
	}
	res = r.must("set-layout", map[string]any{"session": "geo", "tiling": false})
	if res["tiling"] != "floating" || res["previous_tiling"] != "tiled" || res["changed"] != true {
		t.Fatalf("set-layout --tiling false: %v", res)
	}
	if info := r.must("session-info", map[string]any{"session": "geo"}); info["tiling"] != "floating" {
		t.Fatalf("session-info reports the mode set: %v", info)
	}
	ws = windowsOf(t, r, "geo")
	c := newCat(t, r, map[string]any{"session": "geo", "name": "pc"})
	ws2 := windowsOf(t, r, "geo")
	for i := range ws {
		if ws[i].X != ws2[i].X || ws[i].Y != ws2[i].Y || ws[i].Width != ws2[i].Width || ws[i].Height != ws2[i].Height {
			t.Fatalf("floating: a new window moved %s: %+v -> %+v", ws[i].Name, ws[i], ws2[i])
		}
	}
	if cw := ws2[3]; cw.WindowID != c || cw.X != 0 || cw.Y != 0 {
		t.Fatalf("the new floating window: %+v", cw)
	}
	st.until("a floating layout of four", func(l line) bool {
		if l.typ != "layout" {
			return false
		}
		lay := layoutOf(t, l)
		return len(lay.Windows) == 4 && lay.Windows[3].ID == c && lay.Windows[1].X == 0 && lay.Windows[1].Y == 15
	})
	if _, err := r.call("split-window", map[string]any{"session": "geo", "window": a}); err == nil || err.Code != proto.CodeTilingOff ||
		err.Hint == nil || !strings.Contains(err.Hint.Command, "--tiling true") {
		t.Fatalf("split-window while floating: %+v", err)
	}

	// --equalize places them in even tiles once; they stay floating.
	// The window opened while floating went under b, the last tile.
	res = r.must("set-layout", map[string]any{"session": "geo", "equalize": true})
	if res["tiling"] != "floating" || res["equalized"] != true || res["changed"] != true {
		t.Fatalf("equalize while floating: %v", res)
	}
	ws3 := windowsOf(t, r, "geo")
	if ws3[0].Width != 50 || ws3[1].Height != 15 || ws3[2].Height != 15 || ws3[3].X != 51 || ws3[3].Y != 15 {
		t.Fatalf("even tiles: %+v", ws3)
	}
	res = r.must("set-layout", map[string]any{"session": "geo", "tiling": true, "equalize": true})
	if res["tiling"] != "tiled" || res["previous_tiling"] != "floating" {
		t.Fatalf("tiling back on: %v", res)
	}
	if info := r.must("session-info", map[string]any{"session": "geo"}); info["tiling"] != "tiled" {
		t.Fatalf("tiled again: %v", info)
	}
	if _, err := r.call("set-layout", map[string]any{"session": "geo"}); err == nil || !strings.Contains(err.Message, "--tiling") {
		t.Fatalf("set-layout with nothing to set: %+v", err)
	}
	sttySize(t, r, a, 14, 50) // a's PTY: half the width, half the height less its title
}

// withRect is w at x, y, width, height, for comparing places.
func withRect(w proto.AttachWindow, x, y, width, height int) proto.AttachWindow {
	w.X, w.Y, w.Width, w.Height = x, y, width, height
	return w
}

func rowOf(ws []windowRow, id string) windowRow {
	for _, w := range ws {
		if w.WindowID == id {
			return w
		}
	}
	return windowRow{}
}
