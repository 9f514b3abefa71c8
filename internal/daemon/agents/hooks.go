package agents

import (
	"strings"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// The verbs an agent's hooks use besides set-agent-state: subagent
// activity, the agent's conversation id and metadata, and finding the
// pane a hook runs in.

var activityEvents = map[string]agentstate.ActivityKind{
	"subagent_start":  agentstate.SubagentStart,
	"subagent_tool":   agentstate.SubagentTool,
	"subagent_stop":   agentstate.SubagentStop,
	"subagent_intent": agentstate.SubagentIntent,
	"session_start":   agentstate.SessionStart,
}

func (f *Feature) addHookVerbs(h core.Host) {
	params, run := core.Handle(f.setAgentMeta)
	h.AddVerb(core.Verb{Name: "set-agent-meta", Class: core.Reports, Agent: true, Returns: "agent_meta_set", Params: params, Run: run,
		Desc:    "State short facts about the agent in a pane (model, context, cost); shown beside its state, never changing it",
		Example: `{"verb":"set-agent-meta","params":{"tokens":{"model":"opus","context":"42%"},"ttl_ms":600000}}`})
	params, run = core.Handle(f.setAgentSession)
	h.AddVerb(core.Verb{Name: "set-agent-session", Class: core.Reports, Agent: true, Returns: "agent_session_set", Params: params, Run: run,
		Desc:    "Record the agent's conversation id for a pane without touching its state (harnesses that report only that)",
		Example: `{"verb":"set-agent-session","params":{"agent_session_id":"0b7c…","harness":"droid"}}`})
	params, run = core.Handle(f.reportActivity)
	h.AddVerb(core.Verb{Name: "report-agent-activity", Class: core.Reports, Agent: true, Returns: "agent_activity_reported", Params: params, Run: run,
		Desc:    "Tell the daemon about an agent's subagents (from its hooks); never changes the pane's state",
		Example: `{"verb":"report-agent-activity","params":{"event":"subagent_start","id":"ab34","subagent_type":"general-purpose"}}`})
	params, run = core.Handle(f.resolvePane)
	h.AddVerb(core.Verb{Name: "resolve-pane", Class: core.Lookup, Returns: "pane", Params: params, Run: run,
		Desc:    "Find the pane a process runs in: by its ancestry, else by its terminal session, else (for hooks an agent's shared helper runs) by the agent's session",
		Example: `{"verb":"resolve-pane","params":{}}`})
}

// reportActivity is report-agent-activity: a log-only event goes to the
// agent log, a subagent event to the arbiter first (and to the log when
// it took it).
func (f *Feature) reportActivity(c core.Call, p *proto.ReportActivityParams) (any, *proto.Error) {
	w, perr := f.h.Window(c, p.Session, p.Window)
	if perr != nil {
		return nil, perr
	}
	if out, done := f.h.LogActivity(w.ID, p); done {
		return out, nil
	}
	res := w.Pane.Tracked().Activity(agentstate.Activity{
		Kind: activityEvents[p.Event], ID: p.ID, Type: p.SubagentType, Description: p.Description,
		Tool: p.Tool, Result: p.Result, Failed: p.Failed, Harness: p.Harness, SessionID: p.AgentSessionID,
	})
	if res.Reason == agentstate.ReasonRateLimited {
		return nil, proto.Errorf(proto.CodeRateLimited, "too many activity events for this pane").
			WithHint(proto.Hint{Detail: "a pane takes a burst of 64 events, then 10 a second"})
	}
	if res.Reason == agentstate.ReasonNone {
		f.h.LogSubagent(w.ID, p)
	}
	snap := f.h.Tracker().Arbiter().Get(w.ID)
	out := proto.AgentActivityReported{Type: "agent_activity_reported", WindowID: w.ID, State: snap.State.String(),
		Recorded: res.Recorded, Subagents: snap.Subagents}
	if res.Reason != agentstate.ReasonNone {
		out.Reason = string(res.Reason)
	}
	return out, nil
}

// setAgentSession is set-agent-session.
func (f *Feature) setAgentSession(c core.Call, p *proto.SetAgentSessionParams) (any, *proto.Error) {
	w, perr := f.h.Window(c, p.Session, p.Window)
	if perr != nil {
		return nil, perr
	}
	res := w.Pane.Tracked().SetSession(p.Harness, p.AgentSessionID)
	out := proto.AgentSessionSet{Type: "agent_session_set", WindowID: w.ID, AgentSessionID: p.AgentSessionID, Applied: res.Applied}
	if res.Reason != agentstate.ReasonNone {
		out.Reason = string(res.Reason)
	}
	return out, nil
}

// setAgentMeta is set-agent-meta: a null token clears its key.
func (f *Feature) setAgentMeta(c core.Call, p *proto.SetAgentMetaParams) (any, *proto.Error) {
	if len(p.Tokens) > 16 {
		return nil, proto.Errorf(proto.CodeInvalidParams, "at most 16 keys in one call").WithHint(proto.Hint{Param: "tokens"})
	}
	w, perr := f.h.Window(c, p.Session, p.Window)
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
	res, err := w.Pane.Tracked().SetMeta(u)
	if err != nil {
		me := err.(*agentstate.MetaError)
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s", strings.TrimPrefix(me.Error(), "agentstate: ")).
			WithHint(proto.Hint{Param: "tokens", Detail: me.Hint()})
	}
	snap := f.h.Tracker().Arbiter().Get(w.ID)
	return proto.AgentMetaSet{Type: "agent_meta_set", WindowID: w.ID, Meta: metaOf(snap), Truncated: res.Truncated,
		Changed: res.Changed}, nil
}

// resolvePane is resolve-pane: the pid's pane (or the caller's), else
// the one an agent's session or the hint names.
func (f *Feature) resolvePane(c core.Call, p *proto.ResolvePaneParams) (any, *proto.Error) {
	id, how := f.h.PaneOf(c, p.PID)
	if id == "" && (p.AgentSessionID != "" || p.Hint != "") {
		id, how = f.paneOfSession(p.AgentSessionID, p.Harness, p.Hint)
	}
	// The window's session, then its place in it: a window that moved to
	// another session between the two copies is looked up again.
	for range 3 {
		w, ok := f.h.Find(id)
		if !ok {
			break
		}
		if ss, ok := f.h.FindSession(w.Session); ok {
			for i, x := range ss.Windows {
				if x.ID == w.ID {
					return proto.Pane{Type: "pane", Session: ss.Name, WindowID: w.ID, Index: i, Name: x.DisplayName, FoundBy: how}, nil
				}
			}
		}
	}
	return nil, proto.Errorf(proto.CodeWindowNotFound, "the process runs in no pane of this daemon").
		WithHint(proto.Hint{Detail: "run it inside a tuios pane, or name the pane with --window"})
}

// paneOfSession finds the pane a hook speaks for when the hook runs in no
// pane: a helper process an agent shares between panes (Codex's
// app-server) runs every pane's hooks, with the environment of the pane
// that started it. In order: the pane whose agent has this session; the
// only pane attributed to the harness that has no session yet; the hint,
// when its session is none or this one and no other pane could be meant.
// Anything else is ambiguous and finds nothing: a report on the wrong pane
// is worse than none.
func (f *Feature) paneOfSession(session, harness, hint string) (id, how string) {
	arb := f.h.Tracker().Arbiter()
	var unbound []string
	hintOK := false
	for _, ss := range f.h.View(nil).Sessions {
		for _, w := range ss.Windows {
			b := arb.Get(w.ID)
			if session != "" && b.SessionID == session {
				return w.ID, "agent session"
			}
			if b.SessionID == "" && harness != "" && b.Harness == harness {
				unbound = append(unbound, w.ID)
			}
			if w.ID == hint && (b.SessionID == "" || b.SessionID == session) {
				hintOK = true
			}
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
