package proto

import (
	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
)

// AgentState is a pane's agent state on the wire: the body of
// get-agent-state and of each list-agents row. Message is what the agent
// (or a screen rule) said: untrusted.
type AgentState struct {
	WindowID     string `json:"window_id"`
	State        string `json:"state"`
	Message      string `json:"message"`
	AgentStateAt int64  `json:"agent_state_at"` // unix ns of the last change, 0 unknown
	Source       string `json:"source"`
	HarnessID    string `json:"harness_id"`
	Identity     string `json:"identity"`
	Confidence   string `json:"confidence"`
	// EvidenceAgeMS is how old the evidence behind the state is; null
	// when there is none.
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

// AgentRow is one pane's agent state with where it is: a list-agents row
// (Type empty) and get-agent-state's result (Type agent_state).
type AgentRow struct {
	Type string `json:"type,omitempty"`
	AgentState
	Session    string            `json:"session"`
	Index      int               `json:"index"`
	Name       string            `json:"name"`
	Glyph      string            `json:"glyph"`
	Foreground string            `json:"foreground"` // the foreground program's label
	Cwd        string            `json:"cwd"`
	Workspace  int               `json:"workspace"`
	Focused    bool              `json:"focused"`
	Unread     int               `json:"unread"` // agent messages not yet read
	Group      string            `json:"group"`  // the fan the session is an attempt of
	Protocol   string            `json:"protocol"`
	Meta       map[string]string `json:"meta"` // set-agent-meta's keys, now and subagents
	Queued     int               `json:"queued"`
}

// AgentList is list-agents' result, sorted by what each pane needs from
// the person. Session is set for one session's list, AllSessions for a
// list of every session; Select echoes the selector.
type AgentList struct {
	Type        string     `json:"type"` // agent_list
	Agents      []AgentRow `json:"agents"`
	Total       int        `json:"total"`
	HumanInbox  string     `json:"human_inbox"` // "human": the person's inbox name
	HumanUnread int        `json:"human_unread"`
	Select      string     `json:"select,omitempty"`
	AllSessions bool       `json:"all_sessions,omitempty"`
	Session     *string    `json:"session,omitempty"`
}

// AgentStateSet is set-agent-state's result. Applied is false when a
// higher-ranked source holds the pane (Reason says why); State is the
// pane's state after the report either way. ActivityRecorded is set when
// the report carried an activity entry.
type AgentStateSet struct {
	Type             string `json:"type"` // agent_state_set
	WindowID         string `json:"window_id"`
	State            string `json:"state"`
	Message          string `json:"message"`
	Source           string `json:"source"`
	Applied          bool   `json:"applied"`
	Reason           string `json:"reason,omitempty"`
	ActivityRecorded *bool  `json:"activity_recorded,omitempty"`
}

// AgentActivityReported is report-agent-activity's result. Seq is the
// agent log's entry, for the events only the log reads.
type AgentActivityReported struct {
	Type      string `json:"type"` // agent_activity_reported
	WindowID  string `json:"window_id"`
	State     string `json:"state"`
	Recorded  bool   `json:"recorded"`
	Subagents int    `json:"subagents"`
	Reason    string `json:"reason,omitempty"`
	Seq       uint64 `json:"seq,omitempty"`
}

// AgentSessionSet is set-agent-session's result.
type AgentSessionSet struct {
	Type           string `json:"type"` // agent_session_set
	WindowID       string `json:"window_id"`
	AgentSessionID string `json:"agent_session_id"`
	Applied        bool   `json:"applied"`
	Reason         string `json:"reason,omitempty"`
}

// AgentMetaSet is set-agent-meta's result: the pane's keys after the
// call.
type AgentMetaSet struct {
	Type      string            `json:"type"` // agent_meta_set
	WindowID  string            `json:"window_id"`
	Meta      map[string]string `json:"meta"`
	Truncated bool              `json:"truncated"`
	Changed   bool              `json:"changed"`
}

// Pane is resolve-pane's result: the pane a process runs in, and how it
// was found (ancestry, terminal session, agent session, hint).
type Pane struct {
	Type     string `json:"type"` // pane
	Session  string `json:"session"`
	WindowID string `json:"window_id"`
	Index    int    `json:"index"`
	Name     string `json:"name"`
	FoundBy  string `json:"found_by"`
}

// AgentDetect is explain-agent-detect's result: the pane's state, and
// the detector's reading of its foreground (whose fields it shares, the
// pane's winning where both have one). Text is the reading in words.
type AgentDetect struct {
	Type           string          `json:"type"` // agent_detect
	WindowID       string          `json:"window_id"`
	State          string          `json:"state"`
	Source         string          `json:"source"`
	HarnessID      string          `json:"harness_id"`
	AutoDetected   bool            `json:"auto_detected"`
	EvidenceAgeMS  *int64          `json:"evidence_age_ms"`
	NeedsYou       bool            `json:"needs_you"`
	Activity       string          `json:"activity"`
	Text           string          `json:"text"`
	ManifestErrors []ManifestError `json:"manifest_errors"`
	detect.Explanation
}

// ManifestError is a harness manifest that did not load, as
// explain-agent-detect reports it.
type ManifestError struct {
	Source string `json:"source"`
	Line   int    `json:"line,omitempty"`
	Code   string `json:"code"`
	Reason string `json:"reason"`
	Hint   string `json:"hint"`
}

// AgentScreen is explain-agent-screen's result: the pane's screen tail as
// a harness's rules read it, and what each rule made of it (the embedded
// ScreenExplanation, whose fields it shares; the ones here win). For a
// pane with no harness no rules run: ScreenExplanation, State and Source
// are absent. Tail and Title are pane text: untrusted.
type AgentScreen struct {
	Type      string   `json:"type"` // agent_screen
	WindowID  string   `json:"window_id"`
	HarnessID string   `json:"harness_id"`
	Matched   bool     `json:"matched"`
	Rule      int      `json:"rule"` // the deciding rule, -1 none
	Tail      []string `json:"tail"`
	Title     string   `json:"title"`
	Lines     int      `json:"lines"` // the rows read
	// State and Source are the pane's state now, beside what the rules
	// make of its screen.
	State  *string `json:"state,omitempty"`
	Source *string `json:"source,omitempty"`
	Text   string  `json:"text"`
	*detect.ScreenExplanation
}
