package daemon

import (
	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/agentlog"
	"github.com/tuios/tuios/internal/proto"
)

// The core's side of the agent log (internal/daemon/agentlog): a hook's
// activity report reaches the pane's ring here, after the checks the
// report verbs make (internal/daemon/agents, through core.Host's
// LogActivity and LogSubagent).

// logOnly are report-agent-activity's events that only the log reads.
var logOnly = map[string]bool{"prompt": true, "tool": true, "tool_done": true, "tool_failed": true, "turn_end": true}

// logActivity records a log-only activity event; done is false for the
// subagent events, which the arbiter reads first (logSubagent).
func (s *Server) logActivity(id string, p *proto.ReportActivityParams) (proto.AgentActivityReported, bool) {
	if !logOnly[p.Event] {
		return proto.AgentActivityReported{}, false
	}
	snap := s.tracker.Arbiter().Get(id)
	out := proto.AgentActivityReported{Type: "agent_activity_reported", WindowID: id, State: snap.State.String(),
		Subagents: snap.Subagents}
	// Only the pane's own agent writes its ring: a report naming another
	// harness or conversation than the pane holds is refused, as the
	// arbiter refuses its state reports.
	switch {
	case p.Harness != "" && snap.Harness != "" && p.Harness != snap.Harness:
		out.Reason = string(agentstate.ReasonForeignHarness)
		return out, true
	case p.AgentSessionID != "" && snap.SessionID != "" && p.AgentSessionID != snap.SessionID:
		out.Reason = string(agentstate.ReasonForeignSession)
		return out, true
	}
	text := p.Text
	if text == "" {
		text = p.Result
	}
	out.Seq = s.alog.Activity(id, agentlog.Activity{Kind: p.Event, Tool: p.Tool, Text: text, Files: p.Files, Failed: p.Failed})
	out.Recorded = true
	return out, true
}

// logSubagent records the Claude-only events the arbiter accepted.
func (s *Server) logSubagent(id string, p *proto.ReportActivityParams) {
	switch p.Event {
	case "session_start":
		s.alog.Activity(id, agentlog.Activity{Kind: p.Event})
	case "subagent_start", "subagent_stop":
		// Read the row the arbiter keeps (internal/daemon/agentlog): it has
		// the description from the Task call, the tools and the end state.
		row, ok := agentlog.SubagentRow(s.tracker.Arbiter().Get(id).SubagentList, p.ID)
		if !ok {
			row = agentstate.Subagent{ID: p.ID, Type: p.SubagentType, Description: p.Description, Result: p.Result}
			if p.Event == "subagent_stop" && p.Failed {
				row.State = "failed"
			}
		}
		if p.Event == "subagent_start" {
			s.alog.Activity(id, agentlog.Activity{Kind: p.Event, Text: agentlog.SubagentStartText(row)})
			s.alog.SubagentBegan(id, p.ID)
			return
		}
		ran, known := s.alog.SubagentEnded(id, p.ID)
		s.alog.Activity(id, agentlog.Activity{Kind: p.Event, Text: agentlog.SubagentStopText(row, ran, known)})
	}
}
