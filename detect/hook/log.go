package hook

// LogEvent is one entry a hook event adds to the pane's agent log (the
// daemon's agent-log verb): what the person asked, each tool the agent ran
// and how it ended, and the end of the turn. Text is the agent's or the
// person's words: untrusted, one line, secrets masked by the daemon.
type LogEvent struct {
	// Event is prompt, tool, tool_done, tool_failed or turn_end.
	Event string
	// Tool is "Name: target" for the tool events.
	Tool string
	// Text is the prompt, the error of a failed tool, or the turn's
	// last message.
	Text string
}

// logged are the harnesses whose main-agent hooks feed the agent log.
func logged(harness string) bool { return harness == "claude-code" || harness == "codex" }

// logOf is what a main-agent event adds to the log; nil for the rest. A
// subagent's events stay out: the log is the conversation the person
// has with the agent in the pane.
func logOf(harness string, p *payload) *LogEvent {
	if !logged(harness) || p.AgentID != "" {
		return nil
	}
	switch p.Event {
	case "UserPromptSubmit":
		return &LogEvent{Event: "prompt", Text: p.Prompt}
	case "PreToolUse":
		return &LogEvent{Event: "tool", Tool: p.doing()}
	case "PostToolUse":
		return &LogEvent{Event: "tool_done", Tool: p.doing()}
	case "PostToolUseFailure":
		return &LogEvent{Event: "tool_failed", Tool: p.doing(), Text: p.errorText()}
	case "Stop":
		msg := p.LastMessage
		if msg == "" {
			msg = p.LastMessageDash
		}
		return &LogEvent{Event: "turn_end", Text: msg}
	}
	return nil
}
