package daemon

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
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
	// Each line is "LABEL PATH:KIND".
	pin := func(label, verb string, params map[string]any) map[string]any {
		t.Helper()
		raw := r.must(verb, params)
		b, _ := json.Marshal(raw)
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

	pin("hello", "hello", map[string]any{"client": "test", "protocol": 1})
	pin("new-session", "new-session", map[string]any{"name": "w", "window_name": "one"})
	pin("new-session/without/window", "new-session", map[string]any{"name": "bare", "window": false})
	two := pin("new-window", "new-window", map[string]any{"session": "w", "name": "two", "argv": []string{"sh", "-c", "echo ready; exec cat"}})
	pin("list-sessions", "list-sessions", nil)
	pin("session-info", "session-info", map[string]any{"session": "w"})
	pin("list-workspaces", "list-workspaces", map[string]any{"session": "w"})
	pin("set-session-name", "set-session-name", map[string]any{"session": "w", "name": "Work"})
	pin("set-session-accent", "set-session-accent", map[string]any{"session": "w", "accent": "blue"})
	pin("set-workspace-name", "set-workspace-name", map[string]any{"session": "w", "workspace": 2, "name": "docs"})
	pin("set-workspace-order", "set-workspace-order", map[string]any{"session": "w", "order": []int{2, 1}})
	pin("set-workspace-order/back", "set-workspace-order", map[string]any{"session": "w", "order": []int{2, 1}})
	pin("select-workspace", "select-workspace", map[string]any{"session": "w", "workspace": 1})
	pin("list-windows", "list-windows", map[string]any{"session": "w"})
	pin("get-window", "get-window", map[string]any{"session": "w", "window": "two"})
	pin("set-window", "set-window", map[string]any{"session": "w", "window": "two", "name": "second"})
	pin("focus-window", "focus-window", map[string]any{"session": "w", "window": "one"})
	pin("move-window", "move-window", map[string]any{"session": "w", "window": "second", "workspace": 3})
	pin("move-window/back", "move-window", map[string]any{"session": "w", "window": "second", "workspace": 1, "follow": true})
	pin("wait-for/window-output", "wait-for", map[string]any{"session": "w", "window": "second", "condition": "window-output", "pattern": "ready", "timeout": 30000})
	pin("send-text", "send-text", map[string]any{"session": "w", "window": "second", "text": "hello\n"})
	pin("send-keys", "send-keys", map[string]any{"session": "w", "window": "second", "keys": "Enter"})
	pin("capture-pane", "capture-pane", map[string]any{"session": "w", "window": "second"})
	pin("run-command/list", "run-command", map[string]any{"session": "w", "list": true})
	pin("set-agent-state", "set-agent-state", map[string]any{"session": "w", "window": "one", "state": "working", "harness": "claude-code", "message": "reading"})
	pin("get-agent-state", "get-agent-state", map[string]any{"session": "w", "window": "one"})
	pin("list-agents", "list-agents", map[string]any{"session": "w", "all": true})
	pin("report-agent-activity", "report-agent-activity", map[string]any{"session": "w", "window": "one", "event": "subagent_start", "id": "a1", "subagent_type": "explore"})
	pin("set-agent-session", "set-agent-session", map[string]any{"session": "w", "window": "one", "agent_session_id": "0f3a", "harness": "claude-code"})
	pin("set-agent-meta", "set-agent-meta", map[string]any{"session": "w", "window": "one", "tokens": map[string]any{"model": "opus"}})
	pin("explain-agent-detect", "explain-agent-detect", map[string]any{"session": "w", "window": "one"})
	pin("explain-agent-screen", "explain-agent-screen", map[string]any{"session": "w", "window": "one", "harness": "claude-code"})
	pin("resolve-pane", "resolve-pane", map[string]any{"pid": int(two["pid"].(float64))})
	pin("list-options", "list-options", nil)
	pin("get-option", "get-option", map[string]any{"key": "notifications.agent.sound"})
	pin("list-themes", "list-themes", nil)
	pin("list-worktrees", "list-worktrees", nil)
	pin("pane-grants", "pane-grants", map[string]any{"session": "w", "window": "one"})
	pin("subscribe", "subscribe", map[string]any{"types": []string{"attention"}})
	pin("unsubscribe", "unsubscribe", nil)
	pin("close-window", "close-window", map[string]any{"session": "w", "window": "second"})
	pin("kill-session", "kill-session", map[string]any{"session": "bare"})

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
