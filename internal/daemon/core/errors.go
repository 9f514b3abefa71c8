package core

import "github.com/tuios/tuios/internal/proto"

// CodeAgentsDisabled answers an agent verb when [agents] enabled = false.
const CodeAgentsDisabled = "agents_disabled"

// AgentsDisabled is the refusal of an agent verb (what) while agents are
// off: the multiplexer and mail go on.
func AgentsDisabled(what string) *proto.Error {
	return proto.Errorf(CodeAgentsDisabled, "%s: agent features are off ([agents] enabled = false)", what).
		WithHint(proto.Hint{Detail: "set enabled = true under [agents] in ~/.config/tuios/config.toml and restart the daemon"})
}
