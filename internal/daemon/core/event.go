package core

import "github.com/tuios/tuios/inbox"

// Event is one line of the subscribe stream, and what the event hub
// carries between the core and its features.
type Event struct {
	Seq      uint64 `json:"seq"`
	Type     string `json:"type"`
	Session  string `json:"session,omitempty"`
	Window   string `json:"window,omitempty"`
	State    string `json:"state,omitempty"`
	Source   string `json:"source,omitempty"`
	Message  string `json:"message,omitempty"`
	Bytes    int    `json:"bytes,omitempty"`
	ExitCode int    `json:"exit_code,omitempty"`
	Dropped  uint64 `json:"dropped,omitempty"`
	// attention events: the change, the item after it and the queue's
	// boot id; item.seq is the queue's seq (after_seq).
	Op        string      `json:"op,omitempty"`
	Item      *inbox.Item `json:"item,omitempty"`
	BootID    string      `json:"boot_id,omitempty"`
	HoldEnded string      `json:"hold_ended,omitempty"`
	Host      string      `json:"host,omitempty"`   // host-changed: the host and its link state
	Status    string      `json:"status,omitempty"` // host-changed
	Time      string      `json:"time"`
}

// Event types a feature reads or publishes besides the table's own
// (session-created, window-closed, …).
const (
	// EvSessionRenamed: a session's display name or accent changed; its
	// name, its address, did not.
	EvSessionRenamed = "session-renamed"
	// EvWorkspaceRenamed: workspace names changed (set-workspace-name,
	// set-workspace-order).
	EvWorkspaceRenamed = "workspace-renamed"
	// EvTranscript: a pane's agent transcript grew. Only a subscriber
	// that names the type hears it.
	EvTranscript = "transcript"
)

// Filter says which events a subscription hears.
type Filter struct {
	// Session and Window, when set, keep only events about them.
	Session string
	Window  string
	// Types, when set, keep only these types; nil is every type but
	// output and transcript, which are sent only when named.
	Types map[string]bool
}

// Subscription is a bounded queue of events. A subscriber that falls
// behind loses events, never holds the hub.
type Subscription interface {
	// C delivers the events; it is closed when the subscription ends.
	C() <-chan Event
	// Lost is how many events were dropped for a full queue.
	Lost() uint64
	// Close ends the subscription.
	Close()
}
