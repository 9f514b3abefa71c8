package daemon

import (
	"io"
	"testing"
)

// pane.swap, tab.move and workspace.focus over the real herdr socket,
// with and without a client attached.
func TestHerdrLayoutMethods(t *testing.T) {
	t.Parallel()
	hw := newHerdrWorld(t, "")
	a := hw.pane("work", "a")
	b := hw.pane("work", "b")
	c := hw.pane("other", "c")
	ws := "w" + herdrHex(str(hw.r.must("session-info", map[string]any{"session": "work"})["session_id"]))
	otherWS := "w" + herdrHex(str(hw.r.must("session-info", map[string]any{"session": "other"})["session_id"]))

	// No client: places exist only on a client's screen.
	if _, code := herdrDo(t, hw, "pane.swap", map[string]any{"pane_id": a, "direction": "right"}); code != "no_client" {
		t.Fatalf("pane.swap without a client: %s", code)
	}
	if _, code := herdrDo(t, hw, "workspace.focus", map[string]any{"workspace_id": ws}); code != "no_client" {
		t.Fatalf("workspace.focus without a client: %s", code)
	}

	// A client shows "work" (its stream drained, as a terminal would).
	st, _ := attachStreamT(t, hw.sock, map[string]any{"session": "work", "cols": 80, "rows": 24})
	go io.Copy(io.Discard, st.r)
	defer st.c.Close()

	order := func() []string {
		var ids []string
		for _, w := range windowsOf(t, hw.r, "work") {
			ids = append(ids, w.WindowID)
		}
		return ids
	}
	res, _ := herdrDo(t, hw, "pane.edges", map[string]any{"pane_id": a})
	edges, _ := res["edges"].(map[string]any)
	dir := ""
	for _, d := range herdrDirs {
		if edges[d] != nil {
			dir = d
		}
	}
	if dir == "" {
		t.Fatalf("a has no neighbour on screen: %v", res)
	}
	res, code := herdrDo(t, hw, "pane.swap", map[string]any{"pane_id": a, "direction": dir})
	if code != "" || res["changed"] != true {
		t.Fatalf("pane.swap %s: %v %s", dir, res, code)
	}
	if got := order(); len(got) != 2 || got[0] != b || got[1] != a {
		t.Fatalf("after the swap the tile order is %v, want b then a", got)
	}
	// a moved across: the way it looked now leads nowhere.
	if res, _ := herdrDo(t, hw, "pane.swap", map[string]any{"pane_id": a, "direction": dir}); res["reason"] != "no_neighbor" {
		t.Fatalf("swap toward an edge: %v", res)
	}
	for _, c := range []struct{ target, reason string }{{a, "same_pane"}, {c, "cross_tab"}, {"w000000000000:pffffffffffff", "not_found"}} {
		if res, _ := herdrDo(t, hw, "pane.swap", map[string]any{"pane_id": a, "target_pane_id": c.target}); res["changed"] != false || res["reason"] != c.reason {
			t.Fatalf("swap with %s: %v (want %s)", c.target, res, c.reason)
		}
	}
	if res, code := herdrDo(t, hw, "pane.swap", map[string]any{"pane_id": a, "target_pane_id": b}); code != "" || res["changed"] != true {
		t.Fatalf("swap by id: %v %s", res, code)
	}
	if got := order(); got[0] != a {
		t.Fatalf("swapped back by id: %v", got)
	}

	// workspace.focus: the session a client shows becomes the focused
	// one; a session no client shows cannot be switched to.
	if _, code := herdrDo(t, hw, "workspace.focus", map[string]any{"workspace_id": otherWS}); code != "unsupported" {
		t.Fatalf("focus of a session no client shows: %s", code)
	}
	if _, code := herdrDo(t, hw, "workspace.focus", map[string]any{"workspace_id": ws}); code != "" {
		t.Fatalf("workspace.focus: %s", code)
	}
	if res, _ := herdrDo(t, hw, "workspace.get", map[string]any{"workspace_id": ws}); res["workspace"].(map[string]any)["focused"] != true {
		t.Fatalf("focused workspace: %v", res)
	}

	// tab.move: tab 1 to slot 3, windows, name and the showing slot with it.
	herdrDo(t, hw, "tab.rename", map[string]any{"tab_id": ws + ":t1", "label": "main"})
	res, code = herdrDo(t, hw, "tab.move", map[string]any{"tab_id": ws + ":t1", "index": 3})
	if code != "" || res["tab_id"] != ws+":t3" || res["changed"] != true {
		t.Fatalf("tab.move: %v %s", res, code)
	}
	info := hw.r.must("session-info", map[string]any{"session": "work"})
	if info["current_workspace"] != float64(3) {
		t.Fatalf("the showing tab did not follow: %v", info)
	}
	if res, _ := herdrDo(t, hw, "tab.get", map[string]any{"tab_id": ws + ":t3"}); res["tab"].(map[string]any)["label"] != "main" || res["tab"].(map[string]any)["pane_count"] != float64(2) {
		t.Fatalf("the moved tab: %v", res)
	}
	if _, code := herdrDo(t, hw, "tab.get", map[string]any{"tab_id": ws + ":t1"}); code != "tab_not_found" {
		t.Fatalf("slot 1 after the move: %s", code)
	}
	if _, code := herdrDo(t, hw, "tab.move", map[string]any{"tab_id": ws + ":t3", "index": 10}); code != "invalid_params" {
		t.Fatalf("index 10: %s", code)
	}
	if _, code := herdrDo(t, hw, "tab.move", map[string]any{"tab_id": ws + ":t3"}); code != "invalid_request" {
		t.Fatalf("no index: %s", code)
	}
	if _, code := herdrDo(t, hw, "tab.move", map[string]any{"tab_id": ws + ":t3", "index": 1, "workspace_id": otherWS}); code != "unsupported" {
		t.Fatalf("a tab to another workspace: %s", code)
	}
}

// pane.split with a client showing the session splits the pane's tile:
// down stacks the new pane under it, ratio is the share the pane keeps
// (herdr's meaning); pane.layout shows the tiles that result.
func TestHerdrPaneSplitSplitsTheTile(t *testing.T) {
	hw := newHerdrWorld(t, "")
	a := hw.pane("work", "a")
	st, _ := attachStreamT(t, hw.sock, map[string]any{"session": "work", "cols": 80, "rows": 40})
	go io.Copy(io.Discard, st.r)
	defer st.c.Close()

	res, code := herdrDo(t, hw, "pane.split", map[string]any{"pane_id": a, "direction": "down", "ratio": 0.75})
	if code != "" || res["type"] != "pane_split" {
		t.Fatalf("pane.split down: %v %s", res, code)
	}
	below := str(res["pane_id"])
	lay, _ := herdrDo(t, hw, "pane.layout", map[string]any{})
	panes, _ := lay["panes"].([]any)
	got := map[string][4]float64{}
	for _, p := range panes {
		m := p.(map[string]any)
		got[str(m["pane_id"])] = [4]float64{m["x"].(float64), m["y"].(float64), m["width"].(float64), m["height"].(float64)}
	}
	if len(got) != 2 || got[below] != [4]float64{0, 30, 80, 10} {
		t.Fatalf("the new pane under a with a quarter of the rows: %v", got)
	}
	res, code = herdrDo(t, hw, "pane.split", map[string]any{"pane_id": below, "direction": "right"})
	if code != "" {
		t.Fatalf("pane.split right: %s", code)
	}
	right := str(res["pane_id"])
	if n, _ := herdrDo(t, hw, "pane.neighbor", map[string]any{"pane_id": right, "direction": "left"}); n["neighbor"] != below {
		t.Fatalf("left of the right split: %v (want %s)", n, below)
	}
	if _, code := herdrDo(t, hw, "pane.split", map[string]any{"pane_id": a, "direction": "diagonal"}); code != "invalid_request" {
		t.Fatalf("a bad direction: %s", code)
	}
	if _, code := herdrDo(t, hw, "pane.split", map[string]any{"pane_id": a, "ratio": "half"}); code != "invalid_request" {
		t.Fatalf("a ratio that is no number: %s", code)
	}
	// Too small a tile: herdr's pane_split_failed, with tuios's words.
	for i := 0; i < 3; i++ {
		herdrDo(t, hw, "pane.split", map[string]any{"pane_id": right, "direction": "down"})
	}
	if _, code := herdrDo(t, hw, "pane.split", map[string]any{"pane_id": right, "direction": "down", "ratio": 0.5}); code != "pane_split_failed" {
		t.Fatalf("a split of a 2-row tile: %s", code)
	}
}
