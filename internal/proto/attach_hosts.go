package proto

// AttachHost is one linked host the daemon follows (it mirrors the host's
// Inbox and agents by listing and subscribing there), as the
// layout carries it for the rail's header per host: stale while its link
// is down (seen_at: when it was last heard, unix ms; 0 never), how many
// of its mirrored items wait, and its unread mail. Rev changes with every
// change of the host's mirrored items, so a client with the Inbox open
// lists it again.
type AttachHost struct {
	Host   string `json:"host"`
	Stale  bool   `json:"stale,omitempty"`
	SeenAt int64  `json:"seen_at,omitempty"`
	Items  int    `json:"items"`
	Mail   int    `json:"mail,omitempty"`
	// Queued is how many messages the outbox keeps for the host while
	// its link is down (the rail's "2 queued").
	Queued int    `json:"queued,omitempty"`
	Rev    uint64 `json:"rev"`
	// Sessions are the host's session names as its follow caches them
	// (another machine's text: clean before drawing), sorted, capped;
	// the rail lists them under the host.
	Sessions []string `json:"sessions,omitempty"`
}
