package daemon

import (
	"context"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/daemon/fan"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// What start-agent (internal/daemon/agents, start.go) asks of the core
// besides what the fans ask (host_fan.go). Each takes s.mu only to read
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

func (h host) AgentSession(c core.Call, session, name, base string) (core.SessionView, string, bool, *proto.Error) {
	s := h.s
	cn, _ := c.(*conn)
	if cn == nil {
		return core.SessionView{}, "", false, proto.Errorf(proto.CodeForbidden, "a session reached by a call that was never checked (a bug)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var ss *Session
	var err *proto.Error
	created := false
	if session != "" && s.sessions[session] == nil || session == "" && len(s.sessions) == 0 {
		if cn.callKnown && cn.call.inside && !cn.call.grants.Has(grant.Admin) {
			return core.SessionView{}, "", false, proto.Errorf(proto.CodeForbidden, "start-agent is refused for this pane: starting an agent in a new session needs the admin grant (a pane without admin starts agents in its own session)").
				WithHint(grantHint(grant.Admin, cn.call))
		}
		ss, err = s.newSessionLocked(session)
		created = err == nil
	} else {
		ss, err = s.session(cn, session)
	}
	if err == nil {
		if name == "" {
			name = freeNameLocked(ss, base)
		} else {
			err = nameTakenLocked(ss, name, nil)
		}
	}
	if err != nil {
		return core.SessionView{}, "", false, err
	}
	return ss.viewLocked(), name, created, nil
}

func (h host) LinkWrites(c core.Call) bool {
	cn, _ := c.(*conn)
	return cn != nil && cn.link != nil && h.s.linkPol.Allows(cn.link.name, capWrite)
}
