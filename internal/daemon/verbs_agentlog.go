package daemon

import (
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/proto"
)

// agent-activity (and its CLI name agent-log): read a pane's agent log and
// a recap of it (agentlog.go, spec/coordination.md §12).

type agentActivityParams struct {
	Session  string `json:"session" desc:"the session"`
	Window   string `json:"window" desc:"the window (default: the caller's own pane, else the focused one)"`
	Since    int64  `json:"since" desc:"only entries at or after this time (unix ns)" min:"0"`
	SinceSeq int    `json:"since_seq" desc:"only entries after this seq (a previous answer's last_seq)" min:"0" max:"9007199254740991"`
	Limit    int    `json:"limit" desc:"the newest this many entries" min:"1" max:"256" default:"64"`
	Recap    bool   `json:"recap" desc:"also sum up the entries since since: turns, files, commands, tests, what it last said, its state"`
}

type agentActivityResult struct {
	Type      string      `json:"type"`
	Session   string      `json:"session"`
	Window    string      `json:"window"`
	Name      string      `json:"name"`
	LastSeq   uint64      `json:"last_seq"`
	Untrusted bool        `json:"untrusted"` // the text is the agent's: data, never instructions
	Entries   []logEntry  `json:"entries"`
	Recap     *agentRecap `json:"recap,omitempty"`
}

func (s *Server) agentLogVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *agentActivityParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, perr := s.target(cn, p.Session, p.Window)
		var session, name string
		if perr == nil {
			session, name = w.session.Name, w.DisplayName()
		}
		s.mu.Unlock()
		if perr != nil {
			return nil, perr
		}
		limit := p.Limit
		if limit == 0 {
			limit = agentLogDefault
		}
		last, entries := s.alog.read(w.ID, p.Since, uint64(p.SinceSeq), limit)
		res := agentActivityResult{Type: "agent_activity", Session: session, Window: w.ID, Name: name,
			LastSeq: last, Untrusted: true, Entries: entries}
		if p.Recap {
			now := s.clock.Now()
			since := time.Unix(0, p.Since)
			_, all := s.alog.read(w.ID, p.Since, 0, 0)
			if p.Since == 0 && len(all) > 0 {
				since = time.Unix(0, all[0].At)
			}
			state := s.tracker.Arbiter().Get(w.ID).State.String()
			r := makeRecap(all, since, now, name, state, s.opt.Config.Agents.Recap.TestPatterns)
			res.Recap = &r
		}
		return res, nil
	})
	add("agent-activity", reads, "Read what the agent in a pane did: its newest activity entries (prompts, tools, turns, shell commands, states), and a recap", "agent_activity",
		`{"verb":"agent-activity","params":{"window":"api","since":1767225600000000000,"recap":true}}`, p, h)
	add("agent-log", reads, "agent-activity under the CLI's name", "agent_activity",
		`{"verb":"agent-log","params":{"window":"api","limit":20}}`, p, h)
}

// logOnly are report-agent-activity's events that only the log reads.
var logOnly = map[string]bool{"prompt": true, "tool": true, "tool_done": true, "tool_failed": true, "turn_end": true}

// logActivity records a log-only activity event; done is false for the
// subagent events, which the arbiter reads first (logSubagent).
func (s *Server) logActivity(w *Window, p *reportActivityParams) (map[string]any, bool) {
	if !logOnly[p.Event] {
		return nil, false
	}
	snap := s.tracker.Arbiter().Get(w.ID)
	out := map[string]any{"type": "agent_activity_reported", "window_id": w.ID, "state": snap.State.String(),
		"recorded": false, "subagents": snap.Subagents}
	// Only the pane's own agent writes its ring: a report naming another
	// harness or conversation than the pane holds is refused, as the
	// arbiter refuses its state reports.
	switch {
	case p.Harness != "" && snap.Harness != "" && p.Harness != snap.Harness:
		out["reason"] = string(agentstate.ReasonForeignHarness)
		return out, true
	case p.AgentSessionID != "" && snap.SessionID != "" && p.AgentSessionID != snap.SessionID:
		out["reason"] = string(agentstate.ReasonForeignSession)
		return out, true
	}
	text := p.Text
	if text == "" {
		text = p.Result
	}
	out["seq"] = s.alog.activity(w.ID, logActivity{Kind: p.Event, Tool: p.Tool, Text: text, Files: p.Files, Failed: p.Failed})
	out["recorded"] = true
	return out, true
}

// logSubagent records the Claude-only events the arbiter accepted.
func (s *Server) logSubagent(w *Window, p *reportActivityParams) {
	switch p.Event {
	case "session_start":
		s.alog.activity(w.ID, logActivity{Kind: p.Event})
	case "subagent_start", "subagent_stop":
		// Read the row the arbiter keeps (agentlog_subagent.go): it has
		// the description from the Task call, the tools and the end state.
		row, ok := subagentRow(s.tracker.Arbiter().Get(w.ID).SubagentList, p.ID)
		if !ok {
			row = agentstate.Subagent{ID: p.ID, Type: p.SubagentType, Description: p.Description, Result: p.Result}
			if p.Event == "subagent_stop" && p.Failed {
				row.State = "failed"
			}
		}
		if p.Event == "subagent_start" {
			s.alog.activity(w.ID, logActivity{Kind: p.Event, Text: subagentStartText(row)})
			s.alog.subagentBegan(w.ID, p.ID)
			return
		}
		ran, known := s.alog.subagentEnded(w.ID, p.ID)
		s.alog.activity(w.ID, logActivity{Kind: p.Event, Text: subagentStopText(row, ran, known)})
	}
}
