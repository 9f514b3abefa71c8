package daemon

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/proto"
)

var updateWireShapes = flag.Bool("update-wire-shapes", false, "rewrite testdata/wire_shapes.golden from this run")

// The results of the core verbs keep their JSON while their Go types move
// (into internal/proto): every key each result has, at every depth, with
// the kind of its value, and the value of every "type", is pinned in
// testdata/wire_shapes.golden. A key that goes missing, appears, or
// changes kind fails here. Regenerate only for a change of the wire that
// is meant: go test -run TestWireShapes -update-wire-shapes.
func TestWireShapes(t *testing.T) {
	_, sock := server(t)
	r := personRPC(t, sock)
	var out []string
	// Each line is "LABEL PATH:KIND". typed is a pointer to the result's
	// type in internal/proto: the result decodes into it with no field
	// left over, and encodes back to the same JSON.
	pin := func(label, verb string, params map[string]any, typed any) map[string]any {
		t.Helper()
		raw := r.must(verb, params)
		b, _ := json.Marshal(raw)
		if err := roundTrips(b, typed); err != nil {
			t.Errorf("%s: as %T: %v", label, typed, err)
		}
		var v any
		json.Unmarshal(b, &v)
		paths := map[string]bool{}
		shapeOf("", v, paths)
		keys := make([]string, 0, len(paths))
		for k := range paths {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, label+" "+k)
		}
		return raw
	}

	pin("hello", "hello", map[string]any{"client": "test", "protocol": 1}, &proto.Hello{})
	pin("new-session", "new-session", map[string]any{"name": "w", "window_name": "one"}, &proto.SessionCreated{})
	pin("new-session/without/window", "new-session", map[string]any{"name": "bare", "window": false}, &proto.SessionCreated{})
	two := pin("new-window", "new-window", map[string]any{"session": "w", "name": "two", "argv": []string{"sh", "-c", "echo ready; exec cat"}}, &proto.WindowCreated{})
	pin("list-sessions", "list-sessions", nil, &proto.SessionList{})
	pin("session-info", "session-info", map[string]any{"session": "w"}, &proto.SessionInfo{})
	pin("list-workspaces", "list-workspaces", map[string]any{"session": "w"}, &proto.WorkspaceList{})
	pin("set-session-name", "set-session-name", map[string]any{"session": "w", "name": "Work"}, &proto.SessionNameSet{})
	pin("set-session-accent", "set-session-accent", map[string]any{"session": "w", "accent": "blue"}, &proto.SessionAccentSet{})
	pin("set-workspace-name", "set-workspace-name", map[string]any{"session": "w", "workspace": 2, "name": "docs"}, &proto.WorkspaceNameSet{})
	pin("set-workspace-order", "set-workspace-order", map[string]any{"session": "w", "order": []int{2, 1}}, &proto.WorkspaceOrderSet{})
	pin("set-workspace-order/back", "set-workspace-order", map[string]any{"session": "w", "order": []int{2, 1}}, &proto.WorkspaceOrderSet{})
	pin("select-workspace", "select-workspace", map[string]any{"session": "w", "workspace": 1}, &proto.WorkspaceSelected{})
	pin("list-windows", "list-windows", map[string]any{"session": "w"}, &proto.WindowList{})
	pin("get-window", "get-window", map[string]any{"session": "w", "window": "two"}, &proto.WindowResult{})
	pin("set-window", "set-window", map[string]any{"session": "w", "window": "two", "name": "second"}, &proto.WindowSet{})
	pin("focus-window", "focus-window", map[string]any{"session": "w", "window": "one"}, &proto.WindowFocused{})
	pin("move-window", "move-window", map[string]any{"session": "w", "window": "second", "workspace": 3}, &proto.WindowMoved{})
	pin("move-window/back", "move-window", map[string]any{"session": "w", "window": "second", "workspace": 1, "follow": true}, &proto.WindowMoved{})
	pin("wait-for/window-output", "wait-for", map[string]any{"session": "w", "window": "second", "condition": "window-output", "pattern": "ready", "timeout": 30000}, &proto.WaitResult{})
	pin("send-text", "send-text", map[string]any{"session": "w", "window": "second", "text": "hello\n"}, &proto.TextSent{})
	pin("send-keys", "send-keys", map[string]any{"session": "w", "window": "second", "keys": "Enter"}, &proto.KeysSent{})
	pin("capture-pane", "capture-pane", map[string]any{"session": "w", "window": "second"}, &proto.PaneContent{})
	pin("run-command/list", "run-command", map[string]any{"session": "w", "list": true}, &proto.CommandList{})
	pin("set-agent-state", "set-agent-state", map[string]any{"session": "w", "window": "one", "state": "working", "harness": "claude-code", "message": "reading"}, &proto.AgentStateSet{})
	pin("get-agent-state", "get-agent-state", map[string]any{"session": "w", "window": "one"}, &proto.AgentRow{})
	pin("list-agents", "list-agents", map[string]any{"session": "w", "all": true}, &proto.AgentList{})
	pin("report-agent-activity", "report-agent-activity", map[string]any{"session": "w", "window": "one", "event": "subagent_start", "id": "a1", "subagent_type": "explore"}, &proto.AgentActivityReported{})
	pin("set-agent-session", "set-agent-session", map[string]any{"session": "w", "window": "one", "agent_session_id": "0f3a", "harness": "claude-code"}, &proto.AgentSessionSet{})
	pin("set-agent-meta", "set-agent-meta", map[string]any{"session": "w", "window": "one", "tokens": map[string]any{"model": "opus"}}, &proto.AgentMetaSet{})
	pin("explain-agent-detect", "explain-agent-detect", map[string]any{"session": "w", "window": "one"}, &proto.AgentDetect{})
	pin("explain-agent-screen", "explain-agent-screen", map[string]any{"session": "w", "window": "one", "harness": "claude-code"}, &proto.AgentScreen{})
	pin("resolve-pane", "resolve-pane", map[string]any{"pid": int(two["pid"].(float64))}, &proto.Pane{})
	pin("list-options", "list-options", nil, &proto.OptionList{})
	pin("get-option", "get-option", map[string]any{"key": "notifications.agent.sound"}, &proto.OptionResult{})
	pin("list-themes", "list-themes", nil, &proto.ThemeList{})
	pin("list-worktrees", "list-worktrees", nil, &json.RawMessage{})
	pin("pane-grants", "pane-grants", map[string]any{"session": "w", "window": "one"}, &proto.PaneGrants{})
	pin("subscribe", "subscribe", map[string]any{"types": []string{"attention"}}, &proto.Subscribed{})
	pin("unsubscribe", "unsubscribe", nil, &proto.Unsubscribed{})
	pin("close-window", "close-window", map[string]any{"session": "w", "window": "second"}, &proto.WindowClosed{})
	pin("kill-session", "kill-session", map[string]any{"session": "bare"}, &proto.SessionKilled{})

	got := strings.Join(out, "\n") + "\n"
	golden := filepath.Join("testdata", "wire_shapes.golden")
	if *updateWireShapes {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (make it with -update-wire-shapes)", err)
	}
	if got != string(want) {
		t.Errorf("the results' JSON changed shape:\n%s", lineDiff(string(want), got))
	}
}

// roundTrips decodes a result strictly into typed and encodes it back:
// an error when a field has no place in the type or the JSON differs.
func roundTrips(b []byte, typed any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(typed); err != nil {
		return err
	}
	again, err := json.Marshal(typed)
	if err != nil {
		return err
	}
	var x, y any
	json.Unmarshal(b, &x)
	json.Unmarshal(again, &y)
	if !reflect.DeepEqual(x, y) {
		return fmt.Errorf("encodes back differently:\n sent %s\n  got %s", b, again)
	}
	return nil
}

// shapeOf adds every key path under v with the kind of its value; the
// entries of a list share the path name[].
func shapeOf(path string, v any, into map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		into[path+":object"] = true
		for k, e := range x {
			shapeOf(path+"."+k, e, into)
		}
	case []any:
		into[path+":list"] = true
		for _, e := range x {
			shapeOf(path+"[]", e, into)
		}
	case string:
		if strings.HasSuffix(path, ".type") {
			into[path+":string="+x] = true
		} else {
			into[path+":string"] = true
		}
	case float64:
		into[path+":number"] = true
	case bool:
		into[path+":bool"] = true
	case nil:
		into[path+":null"] = true
	default:
		into[path+fmt.Sprintf(":%T", v)] = true
	}
}

// lineDiff lists the lines only one side has.
func lineDiff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	return b.String()
}

// windowRow is the name the package's tests know a window's row by.
type windowRow = proto.Window

// explain-agent-screen's matched and rule are the rules' verdict on the
// screen: a pane showing Claude Code's permission prompt reads matched,
// with the rule the fixture names (they once stayed false and -1 whatever
// the rules said).
func TestExplainScreenSaysWhichRuleMatched(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	fixture, err := filepath.Abs(filepath.Join("..", "..", "detect", "fixtures", "screens", "claude-code-edit-captured.txt"))
	if err != nil {
		t.Fatal(err)
	}
	r.must("new-session", map[string]any{"name": "x", "cols": 120, "rows": 40,
		"argv": []string{"sh", "-c", `sed '1,/^---$/d' "$0"; exec cat`, fixture}})
	var res proto.AgentScreen
	eventually(t, "the prompt on the pane's screen", func() bool {
		b, _ := json.Marshal(r.must("explain-agent-screen", map[string]any{"session": "x", "harness": "claude-code"}))
		res = proto.AgentScreen{}
		json.Unmarshal(b, &res)
		return res.Matched
	})
	if res.Rule != 0 || res.ScreenExplanation == nil || res.RuleState != "needs_input" {
		t.Fatalf("matched rule %d (%+v), want rule 0 deciding needs_input", res.Rule, res.ScreenExplanation)
	}
}
