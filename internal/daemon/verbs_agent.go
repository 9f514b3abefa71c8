package daemon

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/proto"
)

type setAgentStateParams struct {
	Session        string `json:"session" desc:"the session"`
	Window         string `json:"window" desc:"the window (default: the caller's own pane, else the focused one)"`
	State          string `json:"state" req:"true" desc:"the state" accepted:"none,working,needs_input,idle,done,errored,unknown"`
	Message        string `json:"message" desc:"plain words: what it is doing or asking"`
	Source         string `json:"source" desc:"who reports (default report)" accepted:"report,osc,screen,stall"`
	Harness        string `json:"harness" desc:"the harness id the report names, e.g. claude-code"`
	Kind           string `json:"kind" desc:"what a needs_input waits for (default: guessed from the message)" accepted:"approval,question"`
	AgentSessionID string `json:"agent_session_id" desc:"the agent session the report speaks for (at most 256 bytes)"`
	TranscriptPath string `json:"transcript_path" desc:"the harness's transcript file; joins the pane to it"`
	IfState        string `json:"if_state" desc:"apply only when the pane is in one of these states (comma-separated)"`
	HarnessPID     int    `json:"harness_pid" desc:"the agent's pid"`
}

type agentParams struct {
	Session string `json:"session" desc:"the session"`
	Window  string `json:"window" desc:"the window (default: the caller's own pane, else the focused one)"`
}

type listAgentsParams struct {
	Session     string `json:"session" desc:"the session (default: most recently active)"`
	All         bool   `json:"all" desc:"every window, including ones not seen as agents"`
	AllSessions bool   `json:"all_sessions" desc:"every session"`
}

type explainScreenParams struct {
	Session string `json:"session" desc:"the session"`
	Window  string `json:"window" desc:"the window (default: the caller's own pane, else the focused one)"`
	Harness string `json:"harness" desc:"run this harness's rules instead of the pane's"`
	Lines   int    `json:"lines" desc:"read this many non-empty rows instead of the manifest's"`
}

// agentRow is one pane's agent state: get-agent-state's result and a
// list-agents row.
type agentRow struct {
	Type string `json:"type,omitempty"`
	agentstate.Wire
	Session    string            `json:"session"`
	Index      int               `json:"index"`
	Name       string            `json:"name"`
	Glyph      string            `json:"glyph"`
	Foreground string            `json:"foreground"`
	Cwd        string            `json:"cwd"`
	Workspace  int               `json:"workspace"`
	Focused    bool              `json:"focused"`
	Unread     int               `json:"unread"`
	Group      string            `json:"group"`
	Protocol   string            `json:"protocol"`
	Meta       map[string]string `json:"meta"`
	Queued     int               `json:"queued"`
	snap       agentstate.Snapshot
}

// agentRow builds a pane's row. Called with s.mu held.
func (s *Server) agentRow(w *Window) agentRow {
	snap := s.tracker.Arbiter().Get(w.ID)
	wr := s.windowRow(w)
	r := agentRow{
		Wire: snap.Wire(), Session: w.session.Name, Index: wr.Index, Name: wr.DisplayName, Glyph: snap.Glyph(),
		Cwd: wr.Cwd, Workspace: w.workspace, Focused: wr.Focused, Meta: map[string]string{}, snap: snap,
	}
	if w.session.mail != nil {
		r.Unread = w.session.mail.Unread(w.ID)
	}
	if m := w.pane.Foreground(); m.Running {
		r.Foreground = m.Process.Label()
	}
	return r
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

func (s *Server) agentVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *setAgentStateParams) (any, *proto.Error) {
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
		if len(p.AgentSessionID) > 256 {
			return nil, proto.Errorf(proto.CodeInvalidParams, "agent_session_id is over 256 bytes").WithHint(proto.Hint{Param: "agent_session_id"})
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
		s.mu.Lock()
		_, w, perr := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
		if perr != nil {
			return nil, perr
		}
		res := w.pane.Report(agentstate.Report{
			State: state, Source: src, Harness: p.Harness, Message: p.Message, Kind: kind,
			IfState: ifState, SessionID: p.AgentSessionID, HarnessPID: p.HarnessPID,
		}, p.TranscriptPath)
		snap := s.tracker.Arbiter().Get(w.ID)
		out := map[string]any{"type": "agent_state_set", "window_id": w.ID, "state": res.State.String(),
			"message": snap.Message, "source": snap.SourceName(), "applied": res.Applied}
		if res.Reason != agentstate.ReasonNone {
			out["reason"] = string(res.Reason)
		}
		return out, nil
	})
	add("set-agent-state", "Report a pane's agent state; a report that loses to a higher-ranked source is not applied (not an error)", "agent_state_set",
		`{"verb":"set-agent-state","params":{"window":"build","state":"needs_input","message":"approve the push?"}}`, p, h)

	p, h = handler(func(cn *conn, p *agentParams) (any, *proto.Error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		_, w, err := s.target(cn, p.Session, p.Window)
		if err != nil {
			return nil, err
		}
		r := s.agentRow(w)
		r.Type = "agent_state"
		return r, nil
	})
	add("get-agent-state", "Read a pane's agent state with its source, harness, identity, confidence and evidence age", "agent_state",
		`{"verb":"get-agent-state","params":{"window":"build"}}`, p, h)

	p, h = handler(func(cn *conn, p *listAgentsParams) (any, *proto.Error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		var sessions []*Session
		if p.AllSessions {
			sessions = s.sessionsSorted()
		} else {
			ss, err := s.session(cn, p.Session)
			if err != nil {
				return nil, err
			}
			sessions = []*Session{ss}
		}
		rows := []agentRow{}
		for _, ss := range sessions {
			for _, w := range ss.windows {
				r := s.agentRow(w)
				if p.All || r.State != "none" || r.HarnessID != "" {
					rows = append(rows, r)
				}
			}
		}
		sort.SliceStable(rows, func(i, j int) bool { return needOrder(rows[i]) < needOrder(rows[j]) })
		humanUnread := 0
		for _, ss := range sessions {
			if ss.mail != nil {
				humanUnread += ss.mail.Unread("human")
			}
		}
		res := map[string]any{"type": "agent_list", "agents": rows, "total": len(rows), "human_inbox": "human", "human_unread": humanUnread}
		if p.AllSessions {
			res["all_sessions"] = true
		} else {
			res["session"] = sessions[0].Name
		}
		return res, nil
	})
	add("list-agents", "List agent panes, sorted by what each needs from you", "agent_list", `{"verb":"list-agents","params":{"all":true}}`, p, h)

	p, h = handler(func(cn *conn, p *agentParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, err := s.target(cn, p.Session, p.Window)
		var r agentRow
		if err == nil {
			r = s.agentRow(w)
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		ex, derr := s.tracker.Detector().Explain(w.proc.Pid())
		if derr != nil {
			return nil, proto.Errorf(proto.CodeCommandFailed, "reading the pane's process: %v", derr)
		}
		if r.snap.Claimed && r.snap.Source == agentstate.SourceReport && r.snap.Identity == agentstate.IdentityReport {
			ex.ApplyReport(r.HarnessID)
		}
		return mergeJSON(map[string]any{
			"type": "agent_detect", "window_id": w.ID, "state": r.State, "source": r.Source, "harness_id": r.HarnessID,
			"auto_detected": r.snap.Auto, "evidence_age_ms": r.EvidenceAgeMS, "needs_you": r.NeedsYou, "activity": r.Activity,
			"text": ex.String(),
		}, ex), nil
	})
	add("explain-agent-detect", "Say what the detector reads in a pane's foreground and why it is or is not an agent", "agent_detect",
		`{"verb":"explain-agent-detect","params":{"window":"build"}}`, p, h)

	p, h = handler(func(cn *conn, p *explainScreenParams) (any, *proto.Error) {
		if p.Lines < 0 || p.Lines > 200 {
			return nil, proto.Errorf(proto.CodeInvalidParams, "lines must be 1 to 200").WithHint(proto.Hint{Param: "lines"})
		}
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
		res := map[string]any{"type": "agent_screen", "window_id": w.ID, "harness_id": harness, "matched": false, "rule": -1}
		m, ok := reg.Lookup(harness)
		if !ok {
			n := p.Lines
			if n == 0 {
				n = detect.DefaultScreenLines
			}
			res["tail"], res["title"], res["lines"] = screen.Tail(n), title, n
			res["text"] = "This pane is not attributed to a harness, so no screen rules run. Name one with --harness.\n"
			return res, nil
		}
		n := p.Lines
		if n == 0 {
			n = m.Screen.ReadLines()
		}
		ex := detect.ExplainScreen(m, screen.Tail(n), title)
		snap := s.tracker.Arbiter().Get(w.ID)
		out := mergeJSON(res, ex)
		out["state"], out["source"], out["text"] = snap.State.String(), snap.SourceName(), ex.String()
		return out, nil
	})
	add("explain-agent-screen", "Show a pane's screen tail exactly as the rules read it, and what each rule made of it", "agent_screen",
		`{"verb":"explain-agent-screen","params":{"window":"build","harness":"codex","lines":20}}`, p, h)
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

// mergeJSON lays the fields of v over base (base's keys win).
func mergeJSON(base map[string]any, v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return base
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	for k, x := range base {
		m[k] = x
	}
	return m
}
