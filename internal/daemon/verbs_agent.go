package daemon

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

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
		return proto.Errorf(proto.CodeInvalidParams, "activity.event %q is not prompt, tool, tool_done, tool_failed or turn_end", clipText(a.Event, 64)).
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

// agentRow is one pane's agent state: get-agent-state's result and a
// list-agents row, with the snapshot it was read from (for sorting and
// selecting).
type agentRow struct {
	proto.AgentRow
	snap agentstate.Snapshot
}

// agentSeat is what an agent row needs from the server's tables, copied
// under s.mu so the row is built without it.
type agentSeat struct {
	w     *Window
	wr    proto.Window
	ring  *mail.Ring
	group string // the session's fan group (worktrees.go)
}

// seatLocked copies a window's place. Called with s.mu held.
func (s *Server) seatLocked(w *Window) agentSeat {
	return agentSeat{w: w, wr: s.windowRowLocked(w), ring: s.mail.Existing(w.session.Name, w.session.ID), group: groupOf(w.session)}
}

// agentRow builds a pane's row from its seat. Called without s.mu: it
// reads the arbiter, the mail ring and the pane.
func (s *Server) agentRow(st agentSeat) agentRow {
	w, wr := st.w, st.wr
	snap := s.tracker.Arbiter().Get(w.ID)
	r := agentRow{snap: snap, AgentRow: proto.AgentRow{
		AgentState: wireOf(snap), Session: wr.Session, Index: wr.Index, Name: wr.DisplayName, Glyph: snap.Glyph(),
		Cwd: wr.Cwd, Workspace: wr.Workspace, Focused: wr.Focused, Meta: metaOf(snap), Group: st.group,
		Protocol: w.protocol, // set once when the window starts
	}}
	if st.ring != nil {
		r.Unread = st.ring.Unread(w.ID)
	}
	r.Queued = s.queue.count(w.ID) // the reply queue (queue.go)
	if m := w.pane.Foreground(); m.Running {
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

// needOrder sorts rows by what each needs from the person: errored, then
// waiting for input, then working, then unknown, then finished and not yet
// seen, then finished and seen or idle, then the rest.
func needOrder(r agentRow) int {
	switch r.snap.State {
	case agentstate.Errored:
		return 0
	case agentstate.NeedsInput:
		return 1
	case agentstate.Working:
		return 2
	case agentstate.Unknown:
		return 3
	case agentstate.Done:
		if r.snap.FinishedUnread {
			return 4
		}
		return 5
	case agentstate.Idle:
		return 5
	}
	return 6
}

// needLoudness turns needOrder around for picking the loudest state among
// panes (a session's or workspace's row): higher is louder, in the rail's
// order, so an errored pane outshouts one waiting for input and a turn
// not yet seen outshouts an idle pane. 0 is never returned.
func needLoudness(snap agentstate.Snapshot) int { return 7 - needOrder(agentRow{snap: snap}) }

func (s *Server) agentVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.SetAgentStateParams) (any, *proto.Error) {
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
		if p.Harness != "" && s.tracker.Detector().Registry() != nil {
			if _, ok := s.tracker.Detector().Registry().Lookup(p.Harness); !ok && !validHarnessName(p.Harness) {
				return nil, proto.Errorf(proto.CodeInvalidParams, "harness %q is not a harness id", p.Harness).WithHint(proto.Hint{Param: "harness"})
			}
		}
		if p.Activity != nil {
			if err := checkActivity(p.Activity); err != nil {
				return nil, err
			}
		}
		s.mu.Lock()
		_, w, perr := s.target(cn, p.Session, p.Window)
		own := s.callerWindow(cn)
		s.mu.Unlock()
		if perr != nil {
			return nil, perr
		}
		if own != nil && w != own {
			// An agent speaks for itself: another pane's state is that
			// pane's agent's to report (or the person's).
			return nil, proto.Errorf(proto.CodeForbidden, "a pane reports agent state only for itself, not for window %s", w.ID[:8]).
				WithHint(proto.Hint{Detail: "leave out -w (your own pane is the default); to reach the agent in that pane, use ask-agent or send-agent-message"})
		}
		res := w.pane.Report(agentstate.Report{
			State: state, Source: src, Harness: p.Harness, Message: p.Message, Kind: kind,
			IfState: ifState, SessionID: p.AgentSessionID, HarnessPID: p.HarnessPID, Now: p.Now,
		}, p.TranscriptPath)
		snap := s.tracker.Arbiter().Get(w.ID)
		out := proto.AgentStateSet{Type: "agent_state_set", WindowID: w.ID, State: res.State.String(),
			Message: snap.Message, Source: snap.SourceName(), Applied: res.Applied}
		if res.Reason != agentstate.ReasonNone {
			out.Reason = string(res.Reason)
		}
		if a := p.Activity; a != nil {
			logged, _ := s.logActivity(w, activityParams(a, p.Harness, p.AgentSessionID)) // checkActivity took only the events the log keeps
			out.ActivityRecorded = &logged.Recorded
		}
		return out, nil
	})
	add("set-agent-state", reports|agentFeature, "Report a pane's agent state; a report that loses to a higher-ranked source is not applied (not an error)", "agent_state_set",
		`{"verb":"set-agent-state","params":{"window":"build","state":"needs_input","message":"approve the push?"}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.AgentParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, err := s.target(cn, p.Session, p.Window)
		var st agentSeat
		if err == nil {
			st = s.seatLocked(w)
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		r := s.agentRow(st).AgentRow
		r.Type = "agent_state"
		return r, nil
	})
	add("get-agent-state", reads|agentFeature, "Read a pane's agent state with its source, harness, identity, confidence and evidence age", "agent_state",
		`{"verb":"get-agent-state","params":{"window":"build"}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.ListAgentsParams) (any, *proto.Error) {
		sel, perr := parseSelect(p.Select)
		if perr != nil {
			return nil, perr
		}
		if p.AllSessions || sel != nil && p.Session == "" {
			what := "all_sessions"
			if !p.AllSessions {
				what = "select and no session"
			}
			if err := s.wide(cn, what); err != nil { // verbs_grants.go
				return nil, err
			}
		}
		s.mu.Lock()
		var sessions []*Session
		if p.AllSessions || sel != nil && p.Session == "" {
			sessions = s.sessionsSorted()
		} else {
			ss, err := s.session(cn, p.Session)
			if err != nil {
				s.mu.Unlock()
				return nil, err
			}
			sessions = []*Session{ss}
		}
		var seats []agentSeat
		var rings []*mail.Ring
		for _, ss := range sessions {
			for _, w := range ss.windows {
				seats = append(seats, s.seatLocked(w))
			}
			if r := s.mail.Existing(ss.Name, ss.ID); r != nil { // the mail feature's lock is a leaf
				rings = append(rings, r)
			}
		}
		first := ""
		if len(sessions) > 0 {
			first = sessions[0].Name
		}
		s.mu.Unlock()
		var rows []agentRow
		for _, st := range seats {
			r := s.agentRow(st)
			if !p.All && r.State == "none" && r.HarnessID == "" {
				continue
			}
			if sel != nil {
				f := rowFields(r)
				if !sel.Match(&f) {
					continue
				}
			}
			rows = append(rows, r)
		}
		sort.SliceStable(rows, func(i, j int) bool { return needOrder(rows[i]) < needOrder(rows[j]) })
		humanUnread := 0
		for _, r := range rings {
			humanUnread += r.Unread(mail.Human)
		}
		res := proto.AgentList{Type: "agent_list", Agents: make([]proto.AgentRow, 0, len(rows)), Total: len(rows), HumanInbox: "human", HumanUnread: humanUnread}
		for _, r := range rows {
			res.Agents = append(res.Agents, r.AgentRow)
		}
		if sel != nil {
			res.Select = sel.String()
		}
		if p.AllSessions || sel != nil && p.Session == "" {
			res.AllSessions = true
		} else {
			res.Session = &first
		}
		return res, nil
	})
	add("list-agents", reads|agentFeature, "List agent panes, sorted by what each needs from you", "agent_list", `{"verb":"list-agents","params":{"all":true}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.AgentParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, err := s.target(cn, p.Session, p.Window)
		var st agentSeat
		if err == nil {
			st = s.seatLocked(w)
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		r := s.agentRow(st)
		ex, derr := s.tracker.Detector().Explain(w.proc.Pid())
		if derr != nil {
			return nil, proto.Errorf(proto.CodeCommandFailed, "reading the pane's process: %v", derr)
		}
		if r.snap.Claimed && r.snap.Source == agentstate.SourceReport && r.snap.Identity == agentstate.IdentityReport {
			ex.ApplyReport(r.HarnessID)
		}
		if s.opt.Tracker.DetectInterval < 0 { // set once at start (trackerFromConfig)
			ex.DetectionOff()
		}
		return proto.AgentDetect{
			Type: "agent_detect", WindowID: w.ID, State: r.State, Source: r.Source, HarnessID: r.HarnessID,
			AutoDetected: r.snap.Auto, EvidenceAgeMS: r.EvidenceAgeMS, NeedsYou: r.NeedsYou, Activity: r.Activity,
			Text: ex.String() + s.loadErrorText(), ManifestErrors: s.manifestErrors(), Explanation: ex,
		}, nil
	})
	add("explain-agent-detect", reads|agentFeature, "Say what the detector reads in a pane's foreground and why it is or is not an agent", "agent_detect",
		`{"verb":"explain-agent-detect","params":{"window":"build"}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.ExplainScreenParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, err := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		reg := s.tracker.Detector().Registry()
		harness := p.Harness
		if harness == "" {
			harness = s.tracker.Arbiter().Brief(w.ID).Harness
		} else if _, ok := reg.Lookup(harness); !ok {
			var ids []string
			for _, m := range reg.Manifests() {
				ids = append(ids, m.ID)
			}
			return nil, proto.Errorf(proto.CodeInvalidParams, "no harness %q", harness).
				WithHint(proto.Hint{Param: "harness", DidYouMean: nearestWord(harness, ids), Available: ids})
		}
		screen := w.pane.Screen()
		title := screen.Title()
		res := proto.AgentScreen{Type: "agent_screen", WindowID: w.ID, HarnessID: harness, Rule: -1, Title: title}
		m, ok := reg.Lookup(harness)
		if !ok {
			n := p.Lines
			if n == 0 {
				n = detect.DefaultScreenLines
			}
			res.Tail, res.Lines = screen.Tail(n), n
			res.Text = "This pane is not attributed to a harness, so no screen rules run. Name one with --harness.\n"
			return res, nil
		}
		n := p.Lines
		if n == 0 {
			n = m.Screen.ReadLines()
		}
		ex := detect.ExplainScreen(m, screen.Tail(n), title)
		ex.Lines = n // what the rules read here: --lines wins over the manifest's
		snap := s.tracker.Arbiter().Get(w.ID)
		state, source := snap.State.String(), snap.SourceName()
		res.Matched, res.Rule, res.Tail, res.Lines = ex.Matched, ex.Rule, ex.Tail, ex.Lines
		res.State, res.Source, res.Text, res.ScreenExplanation = &state, &source, ex.String(), &ex
		return res, nil
	})
	add("explain-agent-screen", reads|agentFeature, "Show a pane's screen tail exactly as the rules read it, and what each rule made of it", "agent_screen",
		`{"verb":"explain-agent-screen","params":{"window":"build","harness":"codex","lines":20}}`, p, h)
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

func (s *Server) manifestErrors() []proto.ManifestError {
	out := make([]proto.ManifestError, 0, len(s.loadErrs))
	for _, e := range s.loadErrs {
		code, hint, _ := proto.CodeOf(e)
		out = append(out, proto.ManifestError{Source: e.Source, Line: e.Line, Code: code, Reason: e.Reason, Hint: hint})
	}
	return out
}

// loadErrorText is the lines explain-agent-detect's text adds for
// manifests that did not load: a rule someone wrote and that matches
// nothing is most often one of these.
func (s *Server) loadErrorText() string {
	var b strings.Builder
	for _, e := range s.loadErrs {
		fmt.Fprintf(&b, "\nnot loaded: %v\n  hint: %s", e, e.Hint())
	}
	return b.String()
}
