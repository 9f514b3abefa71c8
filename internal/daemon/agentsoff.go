package daemon

import (
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// codeAgentsDisabled answers an agent verb when [agents] enabled = false.
const codeAgentsDisabled = core.CodeAgentsDisabled

// agentsDisabled is the refusal of an agent verb while agents are off.
func agentsDisabled(what string) *proto.Error { return core.AgentsDisabled(what) }
