package daemon

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/proto"
)

// herdrDo sends one method over the real herdr socket and returns its
// result, or the error code with "" for a success.
func herdrDo(t *testing.T, hw *herdrWorld, method string, params map[string]any) (map[string]any, string) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"id": "m", "method": method, "params": params})
	ans := herdrSend(hw.herdr, string(b))
	var m struct {
		Result map[string]any `json:"result"`
		Error  *herdrErr      `json:"error"`
	}
	if err := json.Unmarshal([]byte(ans), &m); err != nil {
		t.Fatalf("%s: undecodable answer %q", method, ans)
	}
	if m.Error != nil {
		return nil, m.Error.Code
	}
	return m.Result, ""
}

func TestHerdrMutatingMethods(t *testing.T) {
	t.Parallel()
	hw := newHerdrWorld(t, "")
	a := hw.pane("work", "a")
	b := hw.pane("work", "b")
	ws := "w" + herdrHex(str(hw.r.must("session-info", map[string]any{"session": "work"})["session_id"]))

	// pane.split: a new pane on a's tab.
	res, code := herdrDo(t, hw, "pane.split", map[string]any{"pane_id": a})
	if code != "" || res["type"] != "pane_split" || res["tab_id"] != ws+":t1" {
		t.Fatalf("pane.split: %v %s", res, code)
	}
	if _, code := herdrDo(t, hw, "pane.get", map[string]any{"pane_id": res["pane_id"]}); code != "" {
		t.Fatalf("the split's pane is not found: %s", code)
	}

	// pane.zoom on/off with its reasons.
	for i, c := range []struct{ mode, reason string }{{"on", ""}, {"on", "already_zoomed"}, {"off", ""}, {"off", "already_unzoomed"}, {"toggle", ""}, {"toggle", ""}} {
		res, code := herdrDo(t, hw, "pane.zoom", map[string]any{"pane_id": b, "mode": c.mode})
		if code != "" || (res["reason"] != nil) != (c.reason != "") || c.reason != "" && res["reason"] != c.reason {
			t.Fatalf("zoom %d %s: %v %s", i, c.mode, res, code)
		}
	}
	if info := hw.r.must("session-info", map[string]any{"session": "work"}); info["zoomed"] != false {
		t.Fatalf("toggled twice, still zoomed: %v", info)
	}
	solo := hw.pane("solo", "only")
	if res, _ := herdrDo(t, hw, "pane.zoom", map[string]any{"pane_id": solo}); res["reason"] != "single_pane" {
		t.Fatalf("zoom of a lone pane: %v", res)
	}

	// Detached: no neighbours, every edge null, focus_direction refuses.
	if res, code := herdrDo(t, hw, "pane.neighbor", map[string]any{"pane_id": a, "direction": "right"}); code != "" || res["neighbor"] != nil {
		t.Fatalf("pane.neighbor detached: %v %s", res, code)
	}
	if _, code := herdrDo(t, hw, "pane.neighbor", map[string]any{"pane_id": a, "direction": "sideways"}); code != "invalid_request" {
		t.Fatalf("a bad direction: %s", code)
	}
	res, _ = herdrDo(t, hw, "pane.edges", map[string]any{"pane_id": a})
	if edges, _ := res["edges"].(map[string]any); len(edges) != 4 || edges["left"] != nil || edges["right"] != nil {
		t.Fatalf("pane.edges detached: %v", res)
	}
	if res, _ := herdrDo(t, hw, "pane.focus_direction", map[string]any{"pane_id": a, "direction": "left"}); res["reason"] != "no_neighbor" {
		t.Fatalf("focus_direction detached: %v", res)
	}

	// Tabs: create (with a label), rename, focus, close, and the full case.
	res, code = herdrDo(t, hw, "tab.create", map[string]any{"workspace_id": ws, "label": "docs"})
	if code != "" || res["tab_id"] != ws+":t2" {
		t.Fatalf("tab.create: %v %s", res, code)
	}
	tab2 := ws + ":t2"
	if res, _ := herdrDo(t, hw, "tab.get", map[string]any{"tab_id": tab2}); res["tab"].(map[string]any)["label"] != "docs" {
		t.Fatalf("tab label: %v", res)
	}
	if _, code := herdrDo(t, hw, "tab.rename", map[string]any{"tab_id": tab2, "label": "notes"}); code != "" {
		t.Fatal(code)
	}
	if _, code := herdrDo(t, hw, "tab.focus", map[string]any{"tab_id": tab2}); code != "" {
		t.Fatal(code)
	}
	if res, _ := herdrDo(t, hw, "tab.get", map[string]any{"tab_id": tab2}); res["tab"].(map[string]any)["label"] != "notes" || res["tab"].(map[string]any)["focused"] != true {
		t.Fatalf("after rename and focus: %v", res)
	}
	herdrDo(t, hw, "tab.focus", map[string]any{"tab_id": ws + ":t1"})
	if _, code := herdrDo(t, hw, "tab.close", map[string]any{"tab_id": tab2}); code != "" {
		t.Fatal(code)
	}
	if _, code := herdrDo(t, hw, "tab.get", map[string]any{"tab_id": tab2}); code != "tab_not_found" {
		t.Fatalf("closed tab still there: %s", code)
	}
	if _, code := herdrDo(t, hw, "tab.rename", map[string]any{"tab_id": ws + ":t7", "label": "x"}); code != "tab_not_found" {
		t.Fatalf("rename of a slot that is no tab: %s", code)
	}
	for i := 2; i <= mux.Workspaces; i++ {
		if _, code := herdrDo(t, hw, "tab.create", map[string]any{"workspace_id": ws}); code != "" {
			t.Fatalf("tab.create %d: %s", i, code)
		}
	}
	if _, code := herdrDo(t, hw, "tab.create", map[string]any{"workspace_id": ws}); code != "tab_create_failed" {
		t.Fatalf("tab.create with every slot in use: %s", code)
	}

	// pane.process_info: names to anyone, argv only to the pane itself.
	res, code = herdrDo(t, hw, "pane.process_info", map[string]any{"pane_id": a})
	shell, _ := res["shell"].(map[string]any)
	if code != "" || shell["name"] != "sh" || shell["argv"] != nil || shell["cwd"] != nil {
		t.Fatalf("process_info from outside: %v %s", res, code)
	}
	own := hw.report("work", a, `{"id":"p","method":"pane.process_info","params":{"pane_id":"@PANE@"}}`)
	if !strings.Contains(own[0], `"argv"`) || !strings.Contains(own[0], "TestHerdrHelperReporter") {
		t.Fatalf("process_info from the pane itself: %s", own[0])
	}

	// agent.prompt: typed into a pane at rest; refused while working.
	if _, code := herdrDo(t, hw, "agent.prompt", map[string]any{"pane_id": b, "prompt": "echo prompted_$((6*7))"}); code != "" {
		t.Fatalf("agent.prompt: %s", code)
	}
	hw.r.must("wait-for", map[string]any{"window": b, "session": "work", "condition": "window-output", "pattern": "prompted_42", "timeout": 10000})
	busy := hw.report("work", a, reportLine("@PANE@", "crush", "working", 1, ""),
		`{"id":"q","method":"agent.prompt","params":{"pane_id":"@PANE@","prompt":"hi"}}`)
	if errCodeOf(busy[1]) != "agent_not_idle" {
		t.Fatalf("agent.prompt while working: %q", busy)
	}

	// workspace.close ends the session.
	soloWS := "w" + herdrHex(str(hw.r.must("session-info", map[string]any{"session": "solo"})["session_id"]))
	if _, code := herdrDo(t, hw, "workspace.close", map[string]any{"workspace_id": soloWS}); code != "" {
		t.Fatal(code)
	}
	if _, code := herdrDo(t, hw, "workspace.get", map[string]any{"workspace_id": soloWS}); code != "workspace_not_found" {
		t.Fatalf("closed workspace: %s", code)
	}
}

// workspace.rename sets the session's display name: herdr's label and a
// workspace_renamed event change, tuios subscribers hear session-renamed,
// and its tuios name, id and herdr id stay.
func TestHerdrWorkspaceRenameRelabels(t *testing.T) {
	t.Parallel()
	hw := newHerdrWorld(t, "")
	hw.pane("work", "a")
	ws := "w" + herdrHex(str(hw.r.must("session-info", map[string]any{"session": "work"})["session_id"]))
	tuiosSub := dialRPC(t, hw.sock)
	tuiosSub.must("subscribe", nil)
	c, err := net.Dial("unix", hw.herdr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, `{"id":"e","method":"events.subscribe","params":{"subscriptions":[{"type":"workspace_renamed"}]}}`+"\n")
	rd := bufio.NewReader(c)
	c.SetReadDeadline(time.Now().Add(guard))
	if l, _ := rd.ReadString('\n'); !strings.Contains(l, "subscription_started") {
		t.Fatalf("subscribe: %s", l)
	}

	if _, code := herdrDo(t, hw, "workspace.rename", map[string]any{"workspace_id": ws, "label": " Docs\x1b[31m site "}); code != "" {
		t.Fatal(code)
	}
	l, err := rd.ReadString('\n')
	if err != nil || !strings.Contains(l, `"event":"workspace_renamed"`) || !strings.Contains(l, `"label":"Docs[31m site"`) || !strings.Contains(l, ws) {
		t.Fatalf("the herdr stream after the rename: %q %v", l, err)
	}
	res, _ := herdrDo(t, hw, "workspace.get", map[string]any{"workspace_id": ws})
	if got := res["workspace"].(map[string]any)["label"]; got != "Docs[31m site" {
		t.Fatalf("workspace.get label %v", got)
	}
	if info := hw.r.must("session-info", map[string]any{"session": "work"}); info["session_id"] == nil {
		t.Fatalf("the tuios session is gone after a herdr rename: %v", info)
	}
	// The herdr label is the session's display name: tuios subscribers
	// hear session-renamed and session-info shows it; the name stays.
	for {
		var ev event
		tuiosSub.c.SetReadDeadline(time.Now().Add(guard))
		line, err := proto.ReadLine(tuiosSub.r, proto.MaxLine)
		if err != nil {
			t.Fatalf("tuios subscriber: %v", err)
		}
		json.Unmarshal(line, &ev)
		if ev.Type == evSessionRenamed && ev.Session == "work" {
			break
		}
	}
	if info := hw.r.must("session-info", map[string]any{"session": "work"}); info["display_name"] != "Docs[31m site" || info["session"] != "work" {
		t.Fatalf("session-info after a herdr rename: %v", info)
	}

	if _, code := herdrDo(t, hw, "workspace.rename", map[string]any{"workspace_id": ws, "label": strings.Repeat("x", maxLabel+1)}); code != "invalid_request" {
		t.Fatalf("an over-long label: %q", code)
	}
	if _, code := herdrDo(t, hw, "workspace.rename", map[string]any{"workspace_id": "w000000000000", "label": "x"}); code != "workspace_not_found" {
		t.Fatalf("an unknown workspace: %q", code)
	}
	if _, code := herdrDo(t, hw, "workspace.rename", map[string]any{"workspace_id": ws, "label": nil}); code != "" {
		t.Fatal(code)
	}
	res, _ = herdrDo(t, hw, "workspace.get", map[string]any{"workspace_id": ws})
	if got := res["workspace"].(map[string]any)["label"]; got != "work" {
		t.Fatalf("a cleared label shows %v, want the session name", got)
	}
}
