package daemon

import (
	"context"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// What the worktrees and fan feature (internal/daemon/fan) asks of the
// core, and what the core asks of it (core.Fans: s.fans).

func (h host) Worktree(session string) (core.Worktree, bool) {
	if h.s.fans == nil {
		return core.Worktree{}, false
	}
	return h.s.fans.Worktree(session)
}

func (h host) FanReach(c core.Call, session string) *proto.Error {
	if cn, _ := c.(*conn); cn == nil {
		return proto.Errorf(proto.CodeForbidden, "a fan reached by a call that was never checked (a bug)")
	}
	if h.s.fans == nil {
		return nil
	}
	return h.s.fans.Reach(c, session)
}

func (h host) CheckAgentEnv(env []string) *proto.Error { return checkAgentEnv(env) }

func (h host) ResolveAgent(a core.AgentSpec) (core.AgentLaunch, *proto.Error) {
	l, err := h.s.resolveAgent(agentLaunchSpec{agent: a.Agent, args: a.Args, cwd: a.Cwd, path: a.Path, env: a.Env, anyProgram: a.AnyProgram,
		protocol: a.Protocol, readyMS: a.ReadyMS})
	if err != nil {
		return core.AgentLaunch{}, err
	}
	return core.AgentLaunch{Harness: l.harness, Program: l.program, Argv: l.argv, AgentArgv: l.agentArgv}, nil
}

func (h host) NewGrants(c core.Call, asked string) (grant.Set, bool, *proto.Error) {
	cn, _ := c.(*conn)
	return h.s.newGrants(cn, asked)
}

func (h host) CallHost(ctx context.Context, host, verb string, params, out any) *proto.Error {
	return h.s.links.Call(ctx, host, verb, params, out)
}

func (h host) KillSession(name, id string) bool {
	s := h.s
	ss := s.tab.SessionNamed(name) // table.go
	if ss == nil || ss.ID != id {
		return false
	}
	s.tab.EndSession(ss)
	return true
}

func (h host) WatchStartNotice(pane string) <-chan struct{} {
	s := h.s
	w := s.tab.WindowByID(pane) // table.go
	if w == nil {
		return nil
	}
	due := make(chan struct{})
	t := s.clock.AfterFunc(mux.StartNoticeAfter, func() { close(due) })
	s.watchStartNotice(w, due, t) // agent_launch.go: stops t when the watch ends
	return due
}

func (h host) FirstPrompt(c core.Call, pane, text string) (string, string, string) {
	s := h.s
	cn, _ := c.(*conn)
	if cn == nil {
		return "not_sent", "typing into a pane from a call that was never checked (a bug): nothing was typed", ""
	}
	w := s.tab.WindowByID(pane) // table.go
	if w == nil {
		return "not_sent", "the window closed before the prompt was typed", ""
	}
	// Typed as a write that types, whatever verb made the pane.
	tc := &conn{s: s, ctx: cn.ctx, closed: cn.closed, call: cn.call, callKnown: cn.callKnown, verbName: cn.verbName, acc: types}
	var res proto.AgentStarted
	s.typeFirstPrompt(tc, w, text, &res) // agent_launch.go
	return res.PromptStatus, res.PromptNote, res.State
}
