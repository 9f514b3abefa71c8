package tui_test

import "testing"

// The agents page: the rail lists every agent pane "with what it is doing
// or asking", the Claude Code hooks "feed the rail what the agent is
// doing now", and "the rail shows a row for each subagent". A new message
// of the same state reaches the rail too, not only a new state.
func TestAttachRailShowsWhatTheAgentDoesAndItsSubagents(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s1")
	w.ok("new-window", "-s", "s1", "wk", "--no-focus", "--", "cat")
	w.ok("set-agent-state", "working", "-s", "s1", "-w", "wk", "-m", "first words")
	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", ` wk first words`)
	w.ok("set-agent-state", "working", "-s", "s1", "-w", "wk", "-m", "second words")
	w.waitFor("c", ` wk second words`)

	// Claude Code's hooks: the tool it runs now, then a subagent.
	w.ok("new-window", "-s", "s1", "cc", "--no-focus", "--", "cat")
	w.hook("s1", "cc", `{"hook_event_name":"UserPromptSubmit","session_id":"c1","prompt":"look into tmux"}`)
	w.hook("s1", "cc", `{"hook_event_name":"PreToolUse","session_id":"c1","tool_name":"Bash","tool_input":{"command":"make"}}`)
	w.waitFor("c", ` cc Bash: make`)
	w.hook("s1", "cc", `{"hook_event_name":"PreToolUse","session_id":"c1","tool_name":"Task","tool_input":{"description":"Tmux","subagent_type":"Explore","prompt":"go"}}`)
	w.hook("s1", "cc", `{"hook_event_name":"SubagentStart","session_id":"c1","agent_id":"ab34","agent_type":"Explore"}`)
	w.hook("s1", "cc", `{"hook_event_name":"PreToolUse","session_id":"c1","agent_id":"ab34","agent_type":"Explore","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	w.waitFor("c", ` cc .*\n +● Tmux: Bash: ls`)
	w.hook("s1", "cc", `{"hook_event_name":"SubagentStop","session_id":"c1","agent_id":"ab34","agent_type":"Explore","last_assistant_message":"Found it."}`)
	w.waitFor("c", ` cc .*\n +■ Tmux +│`)
}
