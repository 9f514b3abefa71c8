package daemon

import "github.com/tuios/tuios/internal/proto"

// codeAgentsDisabled answers an agent verb when [agents] enabled = false.
const codeAgentsDisabled = "agents_disabled"

// isAgentVerb says whether verb exists for agents: with agents off those
// answer agents_disabled, and the rest of the multiplexer (mail included)
// goes on.
func isAgentVerb(verb string) bool {
	switch verb {
	case "set-agent-state", "get-agent-state", "list-agents",
		"explain-agent-detect", "explain-agent-screen",
		"list-attention", "dismiss-attention", "mark-attention",
		"report-agent-activity", "set-agent-session", "set-agent-meta",
		"peek-prompt", "respond":
		return true
	}
	return false
}

// agentsDisabled is the refusal of an agent verb, or of wait-for's agent
// conditions, while agents are off.
func agentsDisabled(what string) *proto.Error {
	return proto.Errorf(codeAgentsDisabled, "%s: agent features are off ([agents] enabled = false)", what).
		WithHint(proto.Hint{Detail: "set enabled = true under [agents] in ~/.config/tuios/config.toml and restart the daemon"})
}
