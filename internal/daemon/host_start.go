package daemon

import (
	"context"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/daemon/fan"
	"github.com/tuios/tuios/internal/proto"
)

// What start-agent (internal/daemon/agents, start.go) asks of the core
// besides what the fans ask (host_fan.go). Each takes the table's lock only to read
// or change the table, never across a wait.

func (h host) AgentRepo(c core.Call, repo string, clone bool, from string) (string, bool, *proto.Error) {
	ctx, cancel := context.WithTimeout(c.Context(), fan.GitWait)
	defer cancel()
	r, cloned, err := fan.CloneAndOpen(ctx, h, c, repo, clone, from) // internal/daemon/fan
	if err != nil {
		return "", false, err
	}
	return r.Dir, cloned, nil
}

func (h host) LinkWrites(c core.Call) bool {
	cn, _ := c.(*conn)
	return cn != nil && cn.link != nil && h.s.linkPol.Allows(cn.link.name, capWrite)
}
