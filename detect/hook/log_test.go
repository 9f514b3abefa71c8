package hook

import "testing"

// The main agent's prompt, tools and turn end go to the agent log; a
// subagent's do not, nor do harnesses whose hooks miss some of them.
func TestLogEvents(t *testing.T) {
	for _, c := range []struct {
		harness, payload string
		want             *LogEvent
	}{
		{"claude-code", `{"hook_event_name":"UserPromptSubmit","session_id":"s","prompt":"add retries"}`, &LogEvent{Event: "prompt", Text: "add retries"}},
		{"claude-code", `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"go test ./..."}}`, &LogEvent{Event: "tool", Tool: "Bash: go test ./..."}},
		{"codex", `{"hook_event_name":"PostToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"make"}}`, &LogEvent{Event: "tool_done", Tool: "Bash: make"}},
		{"claude-code", `{"hook_event_name":"PostToolUseFailure","session_id":"s","tool_name":"Bash","tool_input":{"command":"make"},"error":"exit 2"}`, &LogEvent{Event: "tool_failed", Tool: "Bash: make", Text: "exit 2"}},
		{"claude-code", `{"hook_event_name":"Stop","session_id":"s","last_assistant_message":"All green."}`, &LogEvent{Event: "turn_end", Text: "All green."}},
		{"claude-code", `{"hook_event_name":"PreToolUse","session_id":"s","agent_id":"a1","tool_name":"Bash","tool_input":{"command":"ls"}}`, nil},
		{"claude-code", `{"hook_event_name":"Notification","session_id":"s","notification_type":"idle_prompt"}`, nil},
		{"gemini-cli", `{"hook_event_name":"BeforeTool","session_id":"s","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, nil},
	} {
		tr, err := Decode(Input{Harness: c.harness, Stdin: []byte(c.payload)})
		if err != nil {
			t.Fatalf("%s: %v", c.payload, err)
		}
		switch {
		case c.want == nil && tr.Log != nil:
			t.Errorf("%s %s: logged %+v", c.harness, c.payload, tr.Log)
		case c.want != nil && (tr.Log == nil || *tr.Log != *c.want):
			t.Errorf("%s %s: log %+v, want %+v", c.harness, c.payload, tr.Log, c.want)
		}
	}
}
