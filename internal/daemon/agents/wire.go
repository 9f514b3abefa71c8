package agents

import (
	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/proto"
)

// wireOf returns a snapshot's wire form: states and sources as names,
// times in unix nanoseconds and milliseconds, evidence_age_ms null for a
// pane never set.
func wireOf(s agentstate.Snapshot) proto.AgentState {
	j := proto.AgentState{
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
