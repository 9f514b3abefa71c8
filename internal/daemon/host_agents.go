package daemon

import (
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// What the agent verbs (internal/daemon/agents) read of the core: each
// method copies what it needs under the table's lock and lets go.

func (h host) PaneOf(c core.Call, pid int) (string, string) {
	s := h.s
	if pid > 0 {
		return s.paneOf(pid) // boundary.go
	}
	cn, _ := c.(*conn)
	if cn == nil {
		return "", ""
	}
	s.place(cn)
	return cn.placedID, cn.placedBy
}

func (h host) LogActivity(window string, p *proto.ReportActivityParams) (proto.AgentActivityReported, bool) {
	return h.s.logActivity(window, p) // verbs_agentlog.go
}

func (h host) LogSubagent(window string, p *proto.ReportActivityParams) {
	h.s.logSubagent(window, p)
}
