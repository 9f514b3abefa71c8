package attention

import (
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// Queue is the reply queue as review notes go out through it: the
// daemon's, until the queue is this package's too.
type Queue interface {
	// Origin is who c is to the queue: "human" (a live nonce from
	// outside every pane; a nonce that is not live is refused), the
	// caller's own window id, or "shell".
	Origin(c core.Call, nonce string) (string, *proto.Error)
	// Len is how many entries wait for window.
	Len(window string) int
	// Add queues text for window of session as c (as the person when
	// nonce is live), with queue-prompt's checks and refusals.
	Add(c core.Call, session, window, text, nonce string) (Queued, *proto.Error)
}

// Queued is an entry the queue took.
type Queued struct {
	ID string
	// Position is its place in the pane's queue (1: typed next), Queued
	// how many wait now.
	Position, Queued int
	// Delivering says the pane's first entry is being typed.
	Delivering bool
}

// Who wrote a note or queued a message, besides a pane's window id.
const (
	byHuman = "human"
	byShell = "shell"
)
