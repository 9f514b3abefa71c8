package clienttest

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func connect(t *testing.T, w *world, opts *mcp.ClientOptions, version string, args ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "tuios-clienttest", Version: "1"}, opts)
	var so *mcp.ClientSessionOptions
	if version != "" {
		so = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: w.mcpCommand(args...)}, so)
	if err != nil {
		t.Fatalf("connect (%q): %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// schemas lists the tools and resolves each one's outputSchema.
func schemas(t *testing.T, cs *mcp.ClientSession) map[string]*jsonschema.Resolved {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsonschema.Resolved{}
	for _, tool := range res.Tools {
		if tool.OutputSchema == nil {
			continue
		}
		b, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: outputSchema is not a JSON Schema: %v\n%s", tool.Name, err, b)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: outputSchema does not resolve: %v\n%s", tool.Name, err, b)
		}
		out[tool.Name] = r
	}
	return out
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, meta mcp.Meta) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args, Meta: meta})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// The Go SDK's client connects the stateless way (server/discover, each
// request's _meta), lists the tools and calls them; every result's
// structuredContent, a failure's too, is valid against its tool's
// outputSchema.
func TestGoSDKClientStateless(t *testing.T) {
	w := newWorld(t)
	cs := connect(t, w, nil, "", "--write")
	ir := cs.InitializeResult()
	if ir.ProtocolVersion != "2026-07-28" || ir.ServerInfo == nil || ir.ServerInfo.Name != "tuios" {
		t.Fatalf("connected with %+v", ir)
	}
	sch := schemas(t, cs)
	if len(sch) < 15 {
		t.Fatalf("%d tools with an outputSchema, want all 15 with --write", len(sch))
	}
	calls := []struct {
		tool string
		args map[string]any
		ok   bool
		want string // in the text
	}{
		{"tuios_list_agents", nil, true, `"needs_input"`},
		{"tuios_list_windows", map[string]any{"session": "work"}, true, `"agent"`},
		{"tuios_get_agent_state", map[string]any{"session": "work", "window": "agent"}, true, `"approval: Do you want to proceed?"`},
		{"tuios_get_agent_state", map[string]any{"session": "work", "window": "nosuch"}, false, "window_not_found"},
		{"tuios_capture_pane", map[string]any{"session": "work", "window": "agent"}, true, "Do you want to proceed?"},
		{"tuios_peek_prompt", map[string]any{"session": "work", "window": "agent"}, true, "prompt_id"},
		{"tuios_peek_prompt", map[string]any{"session": "work", "window": "sh"}, true, "sh"},
		{"tuios_wait_for", map[string]any{"session": "work", "window": "sh", "condition": "window-idle", "idle": 100}, true, "wait_result"},
		{"tuios_send_agent_message", map[string]any{"session": "work", "to": "sh", "text": "hello"}, true, "agent_message_sent"},
		{"tuios_read_agent_messages", map[string]any{"session": "work", "to": "sh"}, true, "hello"},
		{"tuios_set_agent_state", map[string]any{"session": "work", "window": "sh", "state": "working", "message": "via the Go SDK"}, true, "agent_state_set"},
		{"tuios_set_agent_meta", map[string]any{"session": "work", "window": "sh", "tokens": map[string]any{"model": "opus"}}, true, "agent_meta_set"},
		{"tuios_events", map[string]any{"wait_ms": 100}, true, "last_seq"},
		{"tuios_send_text", map[string]any{"session": "work", "window": "sh", "text": "echo hi\n"}, true, "text_sent"},
		{"tuios_send_keys", map[string]any{"session": "work", "window": "sh", "keys": "Enter"}, true, "keys_sent"},
		{"tuios_respond", map[string]any{"session": "work", "window": "agent", "action": "approve"}, false, "error "},
	}
	for _, c := range calls {
		res := call(t, cs, c.tool, c.args, nil)
		if res.IsError == c.ok || !strings.Contains(text(res), c.want) {
			t.Errorf("%s %v: isError %v:\n%s", c.tool, c.args, res.IsError, text(res))
			continue
		}
		if res.StructuredContent == nil {
			t.Errorf("%s: no structuredContent", c.tool)
			continue
		}
		if err := sch[c.tool].Validate(res.StructuredContent); err != nil {
			b, _ := json.Marshal(res.StructuredContent)
			t.Errorf("%s: structuredContent does not match its outputSchema: %v\n%s", c.tool, err, b)
		}
	}
}

// Through the handshake versions the same client gets what each version
// has: structuredContent and outputSchema from 2025-06-18 on only.
func TestGoSDKClientHandshakeVersions(t *testing.T) {
	w := newWorld(t)
	for _, v := range []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"} {
		cs := connect(t, w, nil, v)
		if got := cs.InitializeResult().ProtocolVersion; got != v {
			t.Errorf("asked %s, negotiated %s", v, got)
			continue
		}
		structured := v >= "2025-06-18"
		if sch := schemas(t, cs); (len(sch) > 0) != structured {
			t.Errorf("%s: %d tools with an outputSchema", v, len(sch))
		}
		res := call(t, cs, "tuios_list_agents", nil, nil)
		if res.IsError || (res.StructuredContent != nil) != structured || !strings.Contains(text(res), "agent_list") {
			t.Errorf("%s: list_agents: %+v %s", v, res, text(res))
		}
	}
}

// A wait with a progress token gets notifications/progress while it
// waits (at once, then every 5 s), with its token, growing, the wait's
// bound as total; the call then answers.
func TestGoSDKClientProgress(t *testing.T) {
	w := newWorld(t)
	var mu sync.Mutex
	var seen []*mcp.ProgressNotificationParams
	opts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		seen = append(seen, r.Params)
		mu.Unlock()
	}}
	cs := connect(t, w, opts, "")
	res := call(t, cs, "tuios_wait_for", map[string]any{"session": "work", "window": "sh", "condition": "window-output", "pattern": "never_printed_gs", "timeout": 6000},
		mcp.Meta{"progressToken": "wait-1"})
	if !res.IsError || !strings.Contains(text(res), "timeout") {
		t.Fatalf("the wait: %s", text(res))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) < 2 {
		t.Fatalf("%d progress notifications in a 6 s wait, want at 0 s and 5 s", len(seen))
	}
	for i, p := range seen {
		if p.ProgressToken != "wait-1" || p.Total != 6000 || !strings.Contains(p.Message, "waiting for window-output") || (i > 0 && p.Progress <= seen[i-1].Progress) {
			t.Errorf("progress %d: %+v", i, p)
		}
	}
}
