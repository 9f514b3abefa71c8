package proto

// Hello is hello's result: who the daemon is and what it speaks.
type Hello struct {
	Type          string `json:"type"` // hello
	Protocol      int    `json:"protocol"`
	MinProtocol   int    `json:"min_protocol"`
	DaemonVersion string `json:"daemon_version"`
	Revision      string `json:"revision"`
	GoVersion     string `json:"go_version"`
	PID           int    `json:"pid"`
	Sessions      int    `json:"sessions"`
	// LinkPolicy and PaneGrants say the daemon enforces a link's
	// capabilities and a pane's grants (older daemons did not).
	LinkPolicy bool `json:"link_policy"`
	PaneGrants bool `json:"pane_grants"`
}

// Subscribed is subscribe's answer, sent before the first event. Seq is
// the event hub's sequence, AttentionSeq and BootID the Inbox's (what a
// follower passes back as after_seq and boot_id). Replayed and Resync
// are set when the call asked for a replay: how many attention events
// were replayed, and whether the boot id was another one (list again).
type Subscribed struct {
	Type         string `json:"type"` // subscribed
	Seq          uint64 `json:"seq"`
	AttentionSeq uint64 `json:"attention_seq"`
	BootID       string `json:"boot_id"`
	Replayed     *int   `json:"replayed,omitempty"`
	Resync       *bool  `json:"resync,omitempty"`
}

// Unsubscribed is unsubscribe's answer: Ended is false when the
// connection had no stream.
type Unsubscribed struct {
	Type  string `json:"type"` // unsubscribed
	Ended bool   `json:"ended"`
}

// ServerKilled is kill-server's answer, sent before the daemon stops.
type ServerKilled struct {
	Type string `json:"type"` // server_killed
}
