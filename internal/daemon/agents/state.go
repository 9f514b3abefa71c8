package agents

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// set-agent-state, get-agent-state and list-agents: a pane's agent state
// reported and read back.

func (f *Feature) addStateVerbs(h core.Host) {
	params, run := core.Handle(f.setAgentState)
	h.AddVerb(core.Verb{Name: "set-agent-state", Class: core.Reports, Agent: true, Returns: "agent_state_set", Params: params, Run: run,
		Desc:    "Report a pane's agent state; a report that loses to a higher-ranked source is not applied (not an error)",
		Example: `{"verb":"set-agent-state","params":{"window":"build","state":"needs_input","message":"approve the push?"}}`})
	params, run = core.Handle(f.getAgentState)
	h.AddVerb(core.Verb{Name: "get-agent-state", Class: core.Reads, Agent: true, Returns: "agent_state", Params: params, Run: run,
		Desc:    "Read a pane's agent state with its source, harness, identity, confidence and evidence age",
		Example: `{"verb":"get-agent-state","params":{"window":"build"}}`})
	params, run = core.Handle(f.listAgents)
	h.AddVerb(core.Verb{Name: "list-agents", Class: core.Reads, Agent: true, Returns: "agent_list", Params: params, Run: run,
		Desc:    "List agent panes, sorted by what each needs from you",
		Example: `{"verb":"list-agents","params":{"all":true}}`})
}

// setAgentState is set-agent-state: the report checked whole before the
// pane is looked up, then applied to the pane the tracker keeps.
func (f *Feature) setAgentState(c core.Call, p *proto.SetAgentStateParams) (any, *proto.Error) {
	state, err := agentstate.ParseState(p.State)
	if err != nil {
		se := err.(*agentstate.StateError)
		return nil, proto.Errorf(proto.CodeInvalidParams, "unknown state %q", p.State).
			WithHint(proto.Hint{Param: "state", Accepted: se.Accepted(), DidYouMean: se.DidYouMean})
	}
	src, err := agentstate.ParseCallerSource(p.Source)
	if err != nil {
		se := err.(*agentstate.SourceError)
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s", strings.TrimPrefix(se.Error(), "agentstate: ")).
			WithHint(proto.Hint{Param: "source", Accepted: se.Accepted})
	}
	kind, ok := agentstate.ParseKind(p.Kind)
	if !ok || kind == agentstate.KindAuth {
		return nil, proto.Errorf(proto.CodeInvalidParams, "unknown kind %q", p.Kind).WithHint(proto.Hint{Param: "kind", Accepted: []string{"approval", "question"}})
	}
	if kind != agentstate.KindNone && state != agentstate.NeedsInput {
		return nil, proto.Errorf(proto.CodeInvalidParams, "a kind goes only with needs_input").WithHint(proto.Hint{Param: "kind"})
	}
	var ifState agentstate.StateSet
	if p.IfState != "" {
		if ifState, err = agentstate.ParseStateSet(p.IfState); err != nil {
			return nil, proto.Errorf(proto.CodeInvalidParams, "if_state: %v", strings.TrimPrefix(err.Error(), "agentstate: ")).WithHint(proto.Hint{Param: "if_state"})
		}
	}
	tr := f.h.Tracker()
	if reg := tr.Detector().Registry(); p.Harness != "" && reg != nil {
		if _, ok := reg.Lookup(p.Harness); !ok && !validHarnessName(p.Harness) {
			return nil, proto.Errorf(proto.CodeInvalidParams, "harness %q is not a harness id", p.Harness).WithHint(proto.Hint{Param: "harness"})
		}
	}
	if p.Activity != nil {
		if err := checkActivity(p.Activity); err != nil {
			return nil, err
		}
	}
	w, perr := f.h.Window(c, p.Session, p.Window)
	if perr != nil {
		return nil, perr
	}
	if own := f.h.CallerPane(c); own != "" && w.ID != own {
		// An agent speaks for itself: another pane's state is that
		// pane's agent's to report (or the person's).
		return nil, proto.Errorf(proto.CodeForbidden, "a pane reports agent state only for itself, not for window %s", w.ID[:8]).
			WithHint(proto.Hint{Detail: "leave out -w (your own pane is the default); to reach the agent in that pane, use ask-agent or send-agent-message"})
	}
	res := w.Pane.Tracked().Report(agentstate.Report{
		State: state, Source: src, Harness: p.Harness, Message: p.Message, Kind: kind,
		IfState: ifState, SessionID: p.AgentSessionID, HarnessPID: p.HarnessPID, Now: p.Now,
	}, p.TranscriptPath)
	snap := tr.Arbiter().Get(w.ID)
	out := proto.AgentStateSet{Type: "agent_state_set", WindowID: w.ID, State: res.State.String(),
		Message: snap.Message, Source: snap.SourceName(), Applied: res.Applied}
	if res.Reason != agentstate.ReasonNone {
		out.Reason = string(res.Reason)
	}
	if a := p.Activity; a != nil {
		logged, _ := f.h.LogActivity(w.ID, activityParams(a, p.Harness, p.AgentSessionID)) // checkActivity took only the events the log keeps
		out.ActivityRecorded = &logged.Recorded
	}
	return out, nil
}

// getAgentState is get-agent-state: one pane's row.
func (f *Feature) getAgentState(c core.Call, p *proto.AgentParams) (any, *proto.Error) {
	st, err := f.h.Seat(c, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	r := f.row(st).AgentRow
	r.Type = "agent_state"
	return r, nil
}

// listAgents is list-agents: the rows of one session, or of every
// session (all_sessions, or a selector with no session), sorted by what
// each needs from the person.
func (f *Feature) listAgents(c core.Call, p *proto.ListAgentsParams) (any, *proto.Error) {
	sel, perr := core.ParseSelect(p.Select)
	if perr != nil {
		return nil, perr
	}
	wide := p.AllSessions || sel != nil && p.Session == ""
	if wide {
		what := "all_sessions"
		if !p.AllSessions {
			what = "select and no session"
		}
		if err := f.h.Wide(c, what); err != nil {
			return nil, err
		}
	}
	sessions, err := f.h.Seats(c, p.Session, wide)
	if err != nil {
		return nil, err
	}
	var rows []agentRow
	humanUnread := 0
	for _, ss := range sessions {
		for _, st := range ss.Windows {
			r := f.row(st)
			if !p.All && r.State == "none" && r.HarnessID == "" {
				continue
			}
			if sel != nil {
				fields := rowFields(r)
				if !sel.Match(&fields) {
					continue
				}
			}
			rows = append(rows, r)
		}
		if ss.Ring != nil {
			humanUnread += ss.Ring.Unread(mail.Human)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return core.NeedOrder(rows[i].snap) < core.NeedOrder(rows[j].snap) })
	res := proto.AgentList{Type: "agent_list", Agents: make([]proto.AgentRow, 0, len(rows)), Total: len(rows), HumanInbox: "human", HumanUnread: humanUnread}
	for _, r := range rows {
		res.Agents = append(res.Agents, r.AgentRow)
	}
	if sel != nil {
		res.Select = sel.String()
	}
	if wide {
		res.AllSessions = true
	} else {
		first := ""
		if len(sessions) > 0 {
			first = sessions[0].Name
		}
		res.Session = &first
	}
	return res, nil
}

// agentRow is one pane's agent state: get-agent-state's result and a
// list-agents row, with the snapshot it was read from (for sorting and
// selecting).
type agentRow struct {
	proto.AgentRow
	snap agentstate.Snapshot
}

// row builds a pane's row from its seat: the arbiter, the mail ring and
// the pane are read here, with no lock of the core's held.
func (f *Feature) row(st core.Seat) agentRow {
	wr := st.Row
	snap := f.h.Tracker().Arbiter().Get(wr.WindowID)
	r := agentRow{snap: snap, AgentRow: proto.AgentRow{
		AgentState: wireOf(snap), Session: wr.Session, Index: wr.Index, Name: wr.DisplayName, Glyph: snap.Glyph(),
		Cwd: wr.Cwd, Workspace: wr.Workspace, Focused: wr.Focused, Meta: metaOf(snap), Group: st.Group,
		Protocol: st.Protocol, Queued: wr.Queued,
	}}
	if st.Ring != nil {
		r.Unread = st.Ring.Unread(wr.WindowID)
	}
	if m := st.Pane.Tracked().Foreground(); m.Running {
		r.Foreground = m.Process.Label()
	}
	return r
}

// metaOf is a pane's agent metadata: what the agent is doing now and how
// many subagents run, each key absent when there is nothing to say.
func metaOf(snap agentstate.Snapshot) map[string]string {
	m := make(map[string]string, len(snap.Meta)+2)
	for k, v := range snap.Meta {
		m[k] = v
	}
	if snap.Now != "" {
		m["now"] = snap.Now
	}
	switch {
	case snap.Subagents == 1:
		m["subagents"] = "1 subagent"
	case snap.Subagents > 1:
		m["subagents"] = strconv.Itoa(snap.Subagents) + " subagents"
	}
	return m
}

// rowFields is what a selector reads of a list-agents row.
func rowFields(r agentRow) inbox.SelectorFields {
	return inbox.SelectorFields{Session: r.Session, Name: r.Name, Group: r.Group, Harness: r.HarnessID,
		Program: r.Foreground, Cwd: r.Cwd, State: r.snap.State}
}

// validHarnessName accepts an id a user manifest could carry.
func validHarnessName(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return s != "" && len(s) <= 64
}

// activityParams is the entry as report-agent-activity takes it: its
// tags bound what a hook may send either way.
func activityParams(a *proto.StateActivity, harness, session string) *proto.ReportActivityParams {
	return &proto.ReportActivityParams{Event: a.Event, Tool: a.Tool, Text: a.Text, Files: a.Files, Harness: harness, AgentSessionID: session}
}

// checkActivity refuses an entry the agent log does not keep, or one
// over report-agent-activity's bounds.
func checkActivity(a *proto.StateActivity) *proto.Error {
	switch a.Event {
	case "prompt", "tool", "tool_done", "tool_failed", "turn_end":
	default:
		return proto.Errorf(proto.CodeInvalidParams, "activity.event %q is not prompt, tool, tool_done, tool_failed or turn_end", core.Clip(a.Event, 64)).
			WithHint(proto.Hint{Param: "activity", Accepted: []string{"prompt", "tool", "tool_done", "tool_failed", "turn_end"}})
	}
	if err := proto.Validate(activityParams(a, "", "")); err != nil {
		err.Message = "activity: " + err.Message
		err.Hint = &proto.Hint{Param: "activity"}
		return err
	}
	for _, f := range a.Files {
		if len(f) > 4096 {
			return proto.Errorf(proto.CodeInvalidParams, "activity.files has a path over 4096 bytes").WithHint(proto.Hint{Param: "activity"})
		}
	}
	return nil
}
