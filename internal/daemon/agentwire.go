package daemon

import "github.com/tuios/tuios/agentstate"

// agentWire is a snapshot with the wire names and values of
// get-agent-state (states and sources as names, times in unix nanoseconds
// and milliseconds, evidence_age_ms null for a pane never set). agentRow
// embeds it and adds the window's own fields.
type agentWire struct {
	WindowID       string                `json:"window_id"`
	State          string                `json:"state"`
	Message        string                `json:"message"`
	AgentStateAt   int64                 `json:"agent_state_at"`
	Source         string                `json:"source"`
	HarnessID      string                `json:"harness_id"`
	Identity       string                `json:"identity"`
	Confidence     string                `json:"confidence"`
	EvidenceAgeMS  *int64                `json:"evidence_age_ms"`
	NeedsYou       bool                  `json:"needs_you"`
	Activity       string                `json:"activity"`
	Ready          bool                  `json:"ready"`
	BlockedBy      string                `json:"blocked_by"`
	AgentSessionID string                `json:"agent_session_id"`
	CompletionSeq  uint64                `json:"completion_seq"`
	FinishedUnread bool                  `json:"finished_unread"`
	Subagents      int                   `json:"subagents"`
	SubagentList   []agentstate.Subagent `json:"subagent_list"`
}

// wireOf returns a snapshot's wire form.
func wireOf(s agentstate.Snapshot) agentWire {
	j := agentWire{
		WindowID:       s.Pane,
		State:          s.State.String(),
		Message:        s.Message,
		Source:         s.SourceName(),
		HarnessID:      s.Harness,
		Identity:       s.Identity.String(),
		Confidence:     s.Confidence.String(),
		NeedsYou:       s.NeedsYou(),
		Activity:       s.State.Activity(),
		Ready:          s.State.Ready(),
		BlockedBy:      s.BlockedBy().String(),
		AgentSessionID: s.SessionID,
		CompletionSeq:  s.CompletionSeq,
		FinishedUnread: s.FinishedUnread,
		Subagents:      s.Subagents,
		SubagentList:   s.SubagentList,
	}
	if !s.StateAt.IsZero() {
		j.AgentStateAt = s.StateAt.UnixNano()
	}
	if s.HasEvidence {
		ms := s.EvidenceAge.Milliseconds()
		j.EvidenceAgeMS = &ms
	}
	if j.SubagentList == nil {
		j.SubagentList = []agentstate.Subagent{}
	}
	return j
}
