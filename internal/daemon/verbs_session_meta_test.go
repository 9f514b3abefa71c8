package daemon

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// nextLine reads the next line a connection is sent (an event or an
// answer), failing after the guard.
func (r *rpc) nextLine() map[string]any {
	r.t.Helper()
	r.c.SetReadDeadline(time.Now().Add(guard))
	defer r.c.SetReadDeadline(time.Time{})
	line, err := proto.ReadLine(r.r, proto.MaxLine)
	if err != nil {
		r.t.Fatalf("no line: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		r.t.Fatalf("bad line %q", line)
	}
	return m
}

// nextEventOf skips events until one of type typ for session comes.
func (r *rpc) nextEventOf(typ, session string) map[string]any {
	r.t.Helper()
	for {
		ev := r.nextLine()
		if ev["type"] == typ && ev["session"] == session {
			return ev
		}
	}
}

// wantCode fails unless the call is refused with code.
func wantCode(t *testing.T, r *rpc, code, verb string, params map[string]any) *proto.Error {
	t.Helper()
	res, err := r.call(verb, params)
	if err == nil || err.Code != code {
		t.Fatalf("%s %v: got %v, %v; want the error %s", verb, params, res, err, code)
	}
	return err
}

// A display name and an accent are labels: session-info and list-sessions
// show them, a subscriber hears session-renamed, the session keeps its name
// (still the address), and what is not a label is refused.
func TestSetSessionNameAndAccentAreLabels(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	sub := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "work", "window": false})
	sub.must("subscribe", map[string]any{"session": "work"})

	res := r.must("set-session-name", map[string]any{"session": "work", "name": "  Payments API \n"})
	if res["display_name"] != "Payments API" || res["changed"] != true || res["session"] != "work" {
		t.Fatalf("set-session-name: %v", res)
	}
	sub.nextEventOf(evSessionRenamed, "work")
	if res := r.must("set-session-accent", map[string]any{"session": "work", "accent": "cyan"}); res["accent"] != "cyan" || res["changed"] != true {
		t.Fatalf("set-session-accent: %v", res)
	}
	sub.nextEventOf(evSessionRenamed, "work")

	info := r.must("session-info", map[string]any{"session": "work"})
	if info["session"] != "work" || info["display_name"] != "Payments API" || info["accent"] != "cyan" {
		t.Fatalf("session-info: %v", info)
	}
	var list struct {
		Sessions []struct {
			Name, Accent string
			Display      string `json:"display_name"`
		} `json:"sessions"`
	}
	remarshalT(t, r.must("list-sessions", nil), &list)
	if len(list.Sessions) != 1 || list.Sessions[0].Name != "work" || list.Sessions[0].Display != "Payments API" || list.Sessions[0].Accent != "cyan" {
		t.Fatalf("list-sessions: %+v", list)
	}
	// The display name is no address.
	wantCode(t, r, proto.CodeSessionNotFound, "session-info", map[string]any{"session": "Payments API"})

	// The same value again changes nothing and says so.
	if res := r.must("set-session-name", map[string]any{"session": "work", "name": "Payments API"}); res["changed"] != false {
		t.Fatalf("an unchanged name: %v", res)
	}

	// Refusals, each naming what is wrong; nothing changes.
	wantCode(t, r, proto.CodeInvalidParams, "set-session-name", map[string]any{"session": "work", "name": strings.Repeat("é", 129)})
	if e := wantCode(t, r, proto.CodeInvalidParams, "set-session-name", map[string]any{"session": "work", "name": "red\x1b[31malert"}); !strings.Contains(e.Message, "control character") {
		t.Fatalf("a control character: %s", e.Message)
	}
	wantCode(t, r, proto.CodeInvalidParams, "set-session-name", map[string]any{"session": "work", "name": "tab\there"})
	wantCode(t, r, proto.CodeInvalidParams, "set-session-name", map[string]any{"session": "work", "name": "c1\u0085x"})
	wantCode(t, r, proto.CodeInvalidParams, "set-session-name", map[string]any{"session": "work"})
	wantCode(t, r, proto.CodeSessionNotFound, "set-session-name", map[string]any{"session": "nope", "name": "x"})
	e := wantCode(t, r, proto.CodeInvalidParams, "set-session-accent", map[string]any{"session": "work", "accent": "purple"})
	if strings.Join(e.Hint.Accepted, ",") != "red,green,yellow,blue,magenta,cyan,white" {
		t.Fatalf("the refusal of an accent lists %v", e.Hint.Accepted)
	}
	wantCode(t, r, proto.CodeInvalidParams, "set-session-accent", map[string]any{"session": "work", "accent": "Cyan"})
	wantCode(t, r, proto.CodeInvalidParams, "set-session-accent", map[string]any{"session": "work"})
	// 256 bytes is the cap, not over it.
	max := strings.Repeat("n", 256)
	r.must("set-session-name", map[string]any{"session": "work", "name": max})
	if got := r.must("session-info", map[string]any{"session": "work"})["display_name"]; got != max {
		t.Fatalf("a 256-byte name came back as %v", got)
	}

	// "" clears: the name shows, the accent goes.
	r.must("set-session-name", map[string]any{"session": "work", "name": ""})
	r.must("set-session-accent", map[string]any{"session": "work", "accent": ""})
	info = r.must("session-info", map[string]any{"session": "work"})
	if info["display_name"] != "work" || info["accent"] != "" {
		t.Fatalf("after clearing: %v", info)
	}
}

// Workspace names show in list-workspaces and session-info; an order
// moves windows and names with their workspace, and the session keeps
// showing the same workspace under its new number.
func TestSetWorkspaceNameAndOrder(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	sub := dialRPC(t, sock)
	one := str(r.must("new-session", map[string]any{"name": "work", "window_name": "one"})["window_id"])
	two := str(r.must("new-window", map[string]any{"session": "work", "name": "two", "workspace": 2, "no_focus": true})["window_id"])
	three := str(r.must("new-window", map[string]any{"session": "work", "name": "three", "workspace": 3, "no_focus": true})["window_id"])
	sub.must("subscribe", map[string]any{"session": "work"})

	if res := r.must("set-workspace-name", map[string]any{"session": "work", "workspace": 2, "name": "review"}); res["name"] != "review" || res["changed"] != true {
		t.Fatalf("set-workspace-name: %v", res)
	}
	sub.nextEventOf(evWorkspaceRenamed, "work")
	r.must("set-workspace-name", map[string]any{"session": "work", "workspace": 3, "name": "logs"})
	info := r.must("session-info", map[string]any{"session": "work"})
	if named := info["workspace_names"].(map[string]any); named["2"] != "review" || named["3"] != "logs" || len(named) != 2 {
		t.Fatalf("session-info workspace_names: %v", info)
	}
	wantCode(t, r, proto.CodeInvalidParams, "set-workspace-name", map[string]any{"session": "work", "workspace": 10, "name": "x"})
	wantCode(t, r, proto.CodeInvalidParams, "set-workspace-name", map[string]any{"session": "work", "name": "x"})
	wantCode(t, r, proto.CodeInvalidParams, "set-workspace-name", map[string]any{"session": "work", "workspace": 2, "name": "a\nb"})
	wantCode(t, r, proto.CodeInvalidParams, "set-workspace-name", map[string]any{"session": "work", "workspace": 2, "name": strings.Repeat("x", 257)})
	r.must("set-workspace-name", map[string]any{"session": "work", "workspace": 3, "name": ""})

	// The first workspace is showing; 2,3,1 puts old 2 first.
	res := r.must("set-workspace-order", map[string]any{"session": "work", "order": []int{2, 3, 1}})
	if res["current_workspace"] != 3.0 || res["windows_moved"] != 3.0 {
		t.Fatalf("set-workspace-order: %v", res)
	}
	moved := map[string]bool{}
	for len(moved) < 3 {
		ev := sub.nextLine()
		switch ev["type"] {
		case "window-moved":
			moved[str(ev["window"])] = true
		case "workspace-switched":
			t.Fatalf("workspace-switched came before every window-moved: %v", moved)
		}
	}
	sub.nextEventOf("workspace-switched", "work")
	var ws struct {
		Current    int `json:"current_workspace"`
		Workspaces []struct {
			Workspace int
			Name      string
			Windows   int
			Current   bool
		} `json:"workspaces"`
	}
	remarshalT(t, r.must("list-workspaces", map[string]any{"session": "work"}), &ws)
	if ws.Current != 3 || ws.Workspaces[0].Name != "review" || ws.Workspaces[0].Windows != 1 || ws.Workspaces[1].Windows != 1 ||
		ws.Workspaces[2].Windows != 1 || !ws.Workspaces[2].Current || ws.Workspaces[1].Name != "" || ws.Workspaces[2].Name != "" {
		t.Fatalf("list-workspaces after 2,3,1: %+v", ws)
	}
	for id, want := range map[string]float64{one: 3, two: 1, three: 2} {
		if got := r.must("get-window", map[string]any{"session": "work", "window": id})["workspace"]; got != want {
			t.Fatalf("window %s is on %v, want %v", id[:8], got, want)
		}
	}
	// The screen still shows window one, the focused one.
	if lw := r.must("list-windows", map[string]any{"session": "work"}); lw["focused_window_id"] != one || lw["current_workspace"] != 3.0 {
		t.Fatalf("list-windows after the order: focused %v on %v", lw["focused_window_id"], lw["current_workspace"])
	}

	// A prefix order leaves the rest: 2,1 swaps the first two back.
	r.must("set-workspace-order", map[string]any{"session": "work", "order": []int{2, 1}})
	if got := r.must("get-window", map[string]any{"session": "work", "window": three})["workspace"]; got != 1.0 {
		t.Fatalf("after 2,1 window three is on %v", got)
	}
	if got := r.must("get-window", map[string]any{"session": "work", "window": one})["workspace"]; got != 3.0 {
		t.Fatalf("after 2,1 window one moved to %v", got)
	}

	for _, bad := range [][]int{{}, {1, 1}, {0, 1}, {2, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {-1}} {
		wantCode(t, r, proto.CodeInvalidParams, "set-workspace-order", map[string]any{"session": "work", "order": bad})
	}
	wantCode(t, r, proto.CodeInvalidParams, "set-workspace-order", map[string]any{"session": "work", "order": []string{"a"}})
	wantCode(t, r, proto.CodeSessionNotFound, "set-workspace-order", map[string]any{"session": "nope", "order": []int{1}})
}

// The labels outlive a restart of the daemon; a sessions file edited to
// hold what a verb refuses brings back the session without it.
func TestSessionLabelsSurviveARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sock, state := filepath.Join(dir, "s", "tuios.sock"), filepath.Join(dir, "home", "state")
	srv := daemonAt(t, sock, state, &config.File{})
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "work"})
	r.must("new-session", map[string]any{"name": "ops"})
	r.must("new-window", map[string]any{"session": "work", "workspace": 2, "no_focus": true})
	r.must("set-session-name", map[string]any{"session": "work", "name": "Payments API"})
	r.must("set-session-accent", map[string]any{"session": "work", "accent": "magenta"})
	r.must("set-workspace-name", map[string]any{"session": "work", "workspace": 2, "name": "review"})
	r.must("set-session-name", map[string]any{"session": "ops", "name": "Ops"})
	r.must("set-workspace-order", map[string]any{"session": "work", "order": []int{2, 1}})
	// A floating session stays floating (set-layout needs a client).
	st, _ := attachStreamT(t, sock, map[string]any{"session": "ops", "cols": 100, "rows": 30})
	r.must("set-layout", map[string]any{"session": "ops", "tiling": false})
	st.c.Close()
	file := srv.tab.Restorer().Path()
	// The sessions file as a person reads it: its sessions by name.
	type savedSession struct {
		Name    string         `json:"name"`
		WSNames map[int]string `json:"workspace_names"`
		Display string         `json:"display_name"`
		Accent  string         `json:"accent"`
	}
	saved := func() map[string]savedSession {
		var l struct{ Sessions []savedSession }
		b, _ := os.ReadFile(file)
		json.Unmarshal(b, &l)
		out := map[string]savedSession{}
		for _, sv := range l.Sessions {
			out[sv.Name] = sv
		}
		return out
	}
	// The file follows every change (not only a stop), after a short debounce.
	eventually(t, "the sessions file holds the labels and the order", func() bool {
		l := saved()
		return l["work"].WSNames[1] == "review" && l["work"].Accent == "magenta" && l["ops"].Display == "Ops"
	})
	srv.Close()

	srv2 := daemonAt(t, sock, state, &config.File{})
	r2 := dialRPC(t, sock)
	info := r2.must("session-info", map[string]any{"session": "work"})
	if info["display_name"] != "Payments API" || info["accent"] != "magenta" || info["workspace_names"].(map[string]any)["1"] != "review" {
		t.Fatalf("after a restart: %v", info)
	}
	if info := r2.must("session-info", map[string]any{"session": "ops"}); info["display_name"] != "Ops" || info["tiling"] != "floating" {
		t.Fatalf("ops after a restart: %v", info)
	}
	r2.call("kill-server", nil)
	<-srv2.Stopped()

	// Hand-edited: a control character and an unknown accent are dropped.
	var l map[string]any // edited as a person would: every other field kept
	b, err := os.ReadFile(file)
	if err != nil || json.Unmarshal(b, &l) != nil {
		t.Fatalf("the sessions file: %v %s", err, b)
	}
	for _, sv := range l["sessions"].([]any) {
		if sv := sv.(map[string]any); sv["name"] == "work" {
			sv["display_name"], sv["accent"] = "Pay\x1b[2Jments", "octarine"
		}
	}
	b, _ = json.Marshal(l)
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	daemonAt(t, sock, state, &config.File{})
	info = dialRPC(t, sock).must("session-info", map[string]any{"session": "work"})
	if info["display_name"] != "work" || info["accent"] != "" || info["workspace_names"].(map[string]any)["1"] != "review" {
		t.Fatalf("from an edited file: %v", info)
	}
}

// unsubscribe ends the stream: events queued before it come first, then
// its answer, then no more events; the connection may subscribe again.
func TestUnsubscribeEndsTheStream(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	sub := dialRPC(t, sock)
	if res := sub.must("unsubscribe", nil); res["type"] != "unsubscribed" || res["ended"] != false {
		t.Fatalf("unsubscribe with no stream: %v", res)
	}
	sub.must("subscribe", map[string]any{"types": []string{"session-created"}})
	r.must("new-session", map[string]any{"name": "a", "window": false})
	b, _ := json.Marshal(map[string]any{"id": 7, "verb": "unsubscribe"})
	sub.c.Write(append(b, '\n'))
	var answered bool
	for !answered {
		l := sub.nextLine()
		if res, ok := l["result"].(map[string]any); ok {
			if res["type"] != "unsubscribed" || res["ended"] != true {
				t.Fatalf("unsubscribe: %v", l)
			}
			answered = true
		} else if l["type"] == "session-created" && l["session"] == "a" {
			continue // published before the unsubscribe: it may come first, never after
		} else {
			t.Fatalf("unexpected line: %v", l)
		}
	}
	r.must("new-session", map[string]any{"name": "b", "window": false})
	// The next line this connection reads is the answer to hello: the
	// session-created of b, published before hello was sent, never came.
	if res := sub.must("hello", nil); res["type"] != "hello" {
		t.Fatalf("hello: %v", res)
	}
	sub.must("subscribe", map[string]any{"types": []string{"session-created"}})
	r.must("new-session", map[string]any{"name": "c", "window": false})
	if ev := sub.nextLine(); ev["type"] != "session-created" || ev["session"] != "c" {
		t.Fatalf("after subscribing again: %v", ev)
	}
}

// herdr's workspace.rename and set-session-name write the same display
// name: each shows what the other set, and a tuios subscriber hears
// session-renamed for both. herdr's tab.rename is set-workspace-name's.
func TestHerdrRenamesAreTheDisplayNames(t *testing.T) {
	t.Parallel()
	hw := newHerdrWorld(t, "")
	hw.pane("work", "a")
	ws := "w" + herdrHex(str(hw.r.must("session-info", map[string]any{"session": "work"})["session_id"]))
	sub := dialRPC(t, hw.sock)
	sub.must("subscribe", map[string]any{"session": "work"})

	if _, code := herdrDo(t, hw, "workspace.rename", map[string]any{"workspace_id": ws, "label": "Docs site"}); code != "" {
		t.Fatal(code)
	}
	sub.nextEventOf(evSessionRenamed, "work")
	if got := hw.r.must("session-info", map[string]any{"session": "work"})["display_name"]; got != "Docs site" {
		t.Fatalf("session-info after herdr's rename: %v", got)
	}
	hw.r.must("set-session-name", map[string]any{"session": "work", "name": "Payments API"})
	sub.nextEventOf(evSessionRenamed, "work")
	res, _ := herdrDo(t, hw, "workspace.get", map[string]any{"workspace_id": ws})
	if got := res["workspace"].(map[string]any)["label"]; got != "Payments API" {
		t.Fatalf("herdr's label after set-session-name: %v", got)
	}

	hw.r.must("set-workspace-name", map[string]any{"session": "work", "workspace": 1, "name": "main"})
	res, _ = herdrDo(t, hw, "tab.get", map[string]any{"tab_id": ws + ":t1"})
	if got := res["tab"].(map[string]any)["label"]; got != "main" {
		t.Fatalf("herdr's tab label after set-workspace-name: %v", res)
	}
	if _, code := herdrDo(t, hw, "tab.rename", map[string]any{"tab_id": ws + ":t1", "label": "review"}); code != "" {
		t.Fatal(code)
	}
	sub.nextEventOf(evWorkspaceRenamed, "work")
	if got := hw.r.must("session-info", map[string]any{"session": "work"})["workspace_names"].(map[string]any)["1"]; got != "review" {
		t.Fatalf("session-info after herdr's tab.rename: %v", got)
	}
}
