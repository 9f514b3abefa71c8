package daemon

import (
	"strings"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/proto"
)

// The verbs an agent's hooks use besides set-agent-state: subagent
// activity, and finding the pane a hook runs in.

var activityEvents = map[string]agentstate.ActivityKind{
	"subagent_start":  agentstate.SubagentStart,
	"subagent_tool":   agentstate.SubagentTool,
	"subagent_stop":   agentstate.SubagentStop,
	"subagent_intent": agentstate.SubagentIntent,
	"session_start":   agentstate.SessionStart,
}

func (s *Server) hookVerbs(add addFunc) {
	s.metaVerb(add)
	s.sessionVerb(add)
	p, h := handler(func(cn *conn, p *proto.ReportActivityParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, perr := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
		if perr != nil {
			return nil, perr
		}
		if out, done := s.logActivity(w, p); done { // verbs_agentlog.go
			return out, nil
		}
		res := w.pane.Activity(agentstate.Activity{
			Kind: activityEvents[p.Event], ID: p.ID, Type: p.SubagentType, Description: p.Description,
			Tool: p.Tool, Result: p.Result, Failed: p.Failed, Harness: p.Harness, SessionID: p.AgentSessionID,
		})
		if res.Reason == agentstate.ReasonRateLimited {
			return nil, proto.Errorf(proto.CodeRateLimited, "too many activity events for this pane").
				WithHint(proto.Hint{Detail: "a pane takes a burst of 64 events, then 10 a second"})
		}
		if res.Reason == agentstate.ReasonNone {
			s.logSubagent(w, p) // verbs_agentlog.go
		}
		snap := s.tracker.Arbiter().Get(w.ID)
		out := proto.AgentActivityReported{Type: "agent_activity_reported", WindowID: w.ID, State: snap.State.String(),
			Recorded: res.Recorded, Subagents: snap.Subagents}
		if res.Reason != agentstate.ReasonNone {
			out.Reason = string(res.Reason)
		}
		return out, nil
	})
	add("report-agent-activity", reports|agentFeature, "Tell the daemon about an agent's subagents (from its hooks); never changes the pane's state", "agent_activity_reported",
		`{"verb":"report-agent-activity","params":{"event":"subagent_start","id":"ab34","subagent_type":"general-purpose"}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.ResolvePaneParams) (any, *proto.Error) {
		how := "ancestry"
		id := ""
		if p.PID > 0 {
			id, how = s.paneOf(p.PID)
		} else {
			s.place(cn)
			id, how = cn.placedID, cn.placedBy
		}
		if id == "" && (p.AgentSessionID != "" || p.Hint != "") {
			id, how = s.paneOfSession(p.AgentSessionID, p.Harness, p.Hint)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		w := s.windows[id]
		if w == nil {
			return nil, proto.Errorf(proto.CodeWindowNotFound, "the process runs in no pane of this daemon").
				WithHint(proto.Hint{Detail: "run it inside a tuios pane, or name the pane with --window"})
		}
		return proto.Pane{Type: "pane", Session: w.session.Name, WindowID: w.ID,
			Index: s.windowRowLocked(w).Index, Name: w.DisplayName(), FoundBy: how}, nil
	})
	add("resolve-pane", anyone.withLink(capList), "Find the pane a process runs in: by its ancestry, else by its terminal session, else (for hooks an agent's shared helper runs) by the agent's session", "pane",
		`{"verb":"resolve-pane","params":{}}`, p, h)
}

func (s *Server) sessionVerb(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.SetAgentSessionParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, perr := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
		if perr != nil {
			return nil, perr
		}
		res := w.pane.SetSession(p.Harness, p.AgentSessionID)
		out := proto.AgentSessionSet{Type: "agent_session_set", WindowID: w.ID, AgentSessionID: p.AgentSessionID, Applied: res.Applied}
		if res.Reason != agentstate.ReasonNone {
			out.Reason = string(res.Reason)
		}
		return out, nil
	})
	add("set-agent-session", reports|agentFeature, "Record the agent's conversation id for a pane without touching its state (harnesses that report only that)", "agent_session_set",
		`{"verb":"set-agent-session","params":{"agent_session_id":"0b7c…","harness":"droid"}}`, p, h)
}

func (s *Server) metaVerb(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.SetAgentMetaParams) (any, *proto.Error) {
		if len(p.Tokens) > 16 {
			return nil, proto.Errorf(proto.CodeInvalidParams, "at most 16 keys in one call").WithHint(proto.Hint{Param: "tokens"})
		}
		s.mu.Lock()
		_, w, perr := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
		if perr != nil {
			return nil, perr
		}
		u := agentstate.MetaUpdate{Set: map[string]string{}, ClearAll: p.Clear, TTL: time.Duration(p.TTLMS) * time.Millisecond}
		for k, v := range p.Tokens {
			if v == nil {
				u.Clear = append(u.Clear, k)
			} else {
				u.Set[k] = *v
			}
		}
		res, err := w.pane.SetMeta(u)
		if err != nil {
			me := err.(*agentstate.MetaError)
			return nil, proto.Errorf(proto.CodeInvalidParams, "%s", strings.TrimPrefix(me.Error(), "agentstate: ")).
				WithHint(proto.Hint{Param: "tokens", Detail: me.Hint()})
		}
		snap := s.tracker.Arbiter().Get(w.ID)
		return proto.AgentMetaSet{Type: "agent_meta_set", WindowID: w.ID, Meta: metaOf(snap), Truncated: res.Truncated,
			Changed: res.Changed}, nil
	})
	add("set-agent-meta", reports|agentFeature, "State short facts about the agent in a pane (model, context, cost); shown beside its state, never changing it", "agent_meta_set",
		`{"verb":"set-agent-meta","params":{"tokens":{"model":"opus","context":"42%"},"ttl_ms":600000}}`, p, h)
}

// paneOfSession finds the pane a hook speaks for when the hook runs in no
// pane: a helper process an agent shares between panes (Codex's
// app-server) runs every pane's hooks, with the environment of the pane
// that started it. In order: the pane whose agent has this session; the
// only pane attributed to the harness that has no session yet; the hint,
// when its session is none or this one and no other pane could be meant.
// Anything else is ambiguous and finds nothing: a report on the wrong pane
// is worse than none.
func (s *Server) paneOfSession(session, harness, hint string) (id, how string) {
	s.mu.Lock()
	ids := make([]string, 0, len(s.windows))
	for wid := range s.windows {
		ids = append(ids, wid)
	}
	s.mu.Unlock()
	arb := s.tracker.Arbiter()
	var unbound []string
	hintOK := false
	for _, wid := range ids {
		b := arb.Get(wid)
		if session != "" && b.SessionID == session {
			return wid, "agent session"
		}
		if b.SessionID == "" && harness != "" && b.Harness == harness {
			unbound = append(unbound, wid)
		}
		if wid == hint && (b.SessionID == "" || b.SessionID == session) {
			hintOK = true
		}
	}
	if session != "" && len(unbound) == 1 {
		return unbound[0], "the only " + harness + " pane with no session"
	}
	if hintOK && (len(unbound) == 0 || len(unbound) == 1 && unbound[0] == hint) {
		return hint, "hint"
	}
	return "", ""
}
