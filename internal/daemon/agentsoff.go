package daemon

import "github.com/tuios/tuios/internal/proto"

// codeAgentsDisabled answers an agent verb when [agents] enabled = false.
const codeAgentsDisabled = "agents_disabled"

// agentsDisabled is the refusal of an agent verb, or of wait-for's agent
// conditions, while agents are off.
func agentsDisabled(what string) *proto.Error {
	return proto.Errorf(codeAgentsDisabled, "%s: agent features are off ([agents] enabled = false)", what).
		WithHint(proto.Hint{Detail: "set enabled = true under [agents] in ~/.config/tuios/config.toml and restart the daemon"})
}
