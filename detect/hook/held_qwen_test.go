package hook_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// Qwen Code 0.15.10's PermissionRequest payloads as its hook reads them
// (createBaseInput plus tool_name, tool_input, permission_mode; the
// scheduler passes no permission_suggestions).
const (
	qwBash    = `{"session_id":"s1","cwd":"/src/api","hook_event_name":"PermissionRequest","timestamp":"2026-01-01T00:00:00Z","permission_mode":"default","tool_name":"run_shell_command","tool_input":{"command":"make test","description":"Run the tests","is_background":false}}`
	qwBashDir = `{"cwd":"/src/api","hook_event_name":"PermissionRequest","tool_name":"run_shell_command","tool_input":{"command":"make","directory":"/etc"}}`
	qwRead    = `{"cwd":"/src/api","hook_event_name":"PermissionRequest","tool_name":"read_file","tool_input":{"file_path":"/src/api/go.mod"}}`
	qwFetch   = `{"cwd":"/src/api","hook_event_name":"PermissionRequest","tool_name":"web_fetch","tool_input":{"url":"https://go.dev/doc","prompt":"summarise"}}`
	qwEdit    = `{"cwd":"/src/api","hook_event_name":"PermissionRequest","tool_name":"edit","tool_input":{"file_path":"/src/api/x.go","old_string":"a","new_string":"b"}}`
	qwWrite   = `{"cwd":"/src/api","hook_event_name":"PermissionRequest","tool_name":"write_file","tool_input":{"file_path":"/src/api/x.go","content":"package x"}}`
	qwPre     = `{"cwd":"/src/api","hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"make"}}`
)

func TestHeldRequestFromQwenCode(t *testing.T) {
	h, ok := held(t, "qwen", qwBash)
	if !ok || h.Kind != "approval" || h.Tool != "run_shell_command" || h.Target != "make test" || h.Summary != "approve run_shell_command: make test" {
		t.Fatalf("shell: %v %+v", ok, h)
	}
	// No suggestions come with the request: "always" would add rules
	// nobody was shown, so it is never offered.
	if strings.Join(h.Options, ",") != "once,deny" || len(h.AlwaysScope) != 0 {
		t.Fatalf("shell options: %+v", h)
	}
	if h, ok := held(t, "qwen", qwRead); !ok || h.Summary != "approve read_file: go.mod" {
		t.Fatalf("read_file: %v %+v", ok, h)
	}
	if h, ok := held(t, "qwen", qwFetch); !ok || h.Summary != "approve web_fetch: https://go.dev/doc" {
		t.Fatalf("web_fetch: %v %+v", ok, h)
	}
	for name, p := range map[string]string{"shell with directory": qwBashDir, "edit": qwEdit, "write": qwWrite,
		"another event": qwPre, "Claude's Bash": permBash, "not JSON": "{", "empty": ""} {
		if _, ok := held(t, "qwen", p); ok {
			t.Errorf("%s: held", name)
		}
	}
	// Qwen Code's names are not Claude Code's: each harness reads only its own.
	if _, ok := held(t, "claude-code", qwBash); ok {
		t.Error("claude-code held a Qwen Code tool")
	}
}

// Qwen Code reads Claude Code's answer: hookSpecificOutput.decision with
// behavior allow, or deny and the message the model reads.
func TestHeldReplyForQwenCode(t *testing.T) {
	h, _ := held(t, "qwen", qwBash)
	var out struct {
		HookSpecificOutput struct {
			Decision struct {
				Behavior string `json:"behavior"`
				Message  string `json:"message"`
			} `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(h.Reply("once", "")), &out); err != nil || out.HookSpecificOutput.Decision.Behavior != "allow" {
		t.Fatalf("once: %v %+v", err, out)
	}
	if err := json.Unmarshal([]byte(h.Reply("deny", "not now")), &out); err != nil ||
		out.HookSpecificOutput.Decision.Behavior != "deny" || out.HookSpecificOutput.Decision.Message != "not now" {
		t.Fatalf("deny: %v %+v", err, out)
	}
	for _, d := range []string{"always", "", "ask"} {
		if s := h.Reply(d, ""); s != "" {
			t.Errorf("%q: %s", d, s)
		}
	}
}
