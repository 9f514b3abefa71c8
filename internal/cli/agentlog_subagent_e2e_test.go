package cli_test

import (
	"regexp"
	"strings"
	"testing"
)

// Claude Code's hooks for a Task subagent land in agent-log as the agents
// page words them: "Research tmux (general-purpose) started", then "…
// done after 0s, 1 tool" (text and --json alike).
func TestAgentLogSubagentEntriesFromClaudeHooks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "hk", "--no-focus", "--", "cat")
	hook := func(payload string) {
		t.Helper()
		if r := e.runIn(payload, "agent-hook", "claude-code", "--integration", "4", "-s", "work", "-w", "hk", "--timeout", "5s"); r.code != 0 {
			t.Fatalf("agent-hook %s: exit %d %s", payload, r.code, r.err)
		}
	}
	hook(`{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"look into tmux"}`)
	hook(`{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Task","tool_input":{"description":"Research tmux","subagent_type":"general-purpose","prompt":"go"}}`)
	hook(`{"hook_event_name":"SubagentStart","session_id":"s1","agent_id":"ab34","agent_type":"general-purpose"}`)
	hook(`{"hook_event_name":"PreToolUse","session_id":"s1","agent_id":"ab34","agent_type":"general-purpose","tool_name":"Bash","tool_input":{"command":"go test ./..."}}`)
	hook(`{"hook_event_name":"SubagentStop","session_id":"s1","agent_id":"ab34","agent_type":"general-purpose","last_assistant_message":"The rail is fine.\nMore."}`)

	out := e.ok("agent-log", "-s", "work", "-w", "hk")
	if !strings.Contains(out, "subagent_start Research tmux (general-purpose) started") ||
		!regexp.MustCompile(`subagent_stop Research tmux \(general-purpose\) done after \d+s, 1 tool\n`).MatchString(out) {
		t.Fatalf("agent-log:\n%s", out)
	}
	var l struct {
		Entries []struct{ Kind, Text string } `json:"entries"`
	}
	e.json(&l, "agent-log", "-s", "work", "-w", "hk")
	var stops []string
	for _, en := range l.Entries {
		if en.Kind == "subagent_stop" {
			stops = append(stops, en.Text)
		}
	}
	if len(stops) != 1 || !regexp.MustCompile(`^Research tmux \(general-purpose\) done after \d+s, 1 tool$`).MatchString(stops[0]) {
		t.Fatalf("--json subagent_stop entries: %q", stops)
	}
}
