package rpc

import (
	"sync"

	"github.com/tuios/tuios/internal/daemon/core"
)

// Subscriber is one bounded queue of the hub's events: the subscribe
// verb's stream, a feature's core.Subscription, the daemon's own
// followers (the sessions file, pushes, linked hosts).
type Subscriber struct {
	hub     *Hub
	session string
	window  string
	types   map[string]bool // nil: every type except output and transcript
	q       chan core.Event
	mu      sync.Mutex
	dropped uint64
}

// NewSubscriber makes a subscriber of h that hears what f lets through,
// with room for queue events (at least one). It hears nothing until Add:
// its Wants may pick the events to queue ahead (a replay).
func (h *Hub) NewSubscriber(f core.Filter, queue int) *Subscriber {
	return &Subscriber{hub: h, session: f.Session, window: f.Window, types: f.Types, q: make(chan core.Event, max(queue, 1))}
}

// Wants reports whether the subscriber's filter lets ev through.
func (sub *Subscriber) Wants(ev core.Event) bool {
	if sub.session != "" && ev.Session != "" && sub.session != ev.Session {
		return false
	}
	if sub.window != "" && ev.Window != sub.window {
		return false
	}
	// output and transcript are sent only to a subscriber that names them.
	if sub.types == nil {
		return ev.Type != "output" && ev.Type != core.EvTranscript
	}
	return sub.types[ev.Type]
}

// C delivers the events; it is closed when the subscriber is removed or
// the hub closes.
func (sub *Subscriber) C() <-chan core.Event { return sub.q }

// Lost is how many events were dropped for a full queue since the last
// TakeLost.
func (sub *Subscriber) Lost() uint64 {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	return sub.dropped
}

// TakeLost is Lost, and counts again from zero: a reader that announces
// each gap once takes it before writing the next event.
func (sub *Subscriber) TakeLost() uint64 {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	n := sub.dropped
	sub.dropped = 0
	return n
}

// Close removes the subscriber from its hub (Hub.Remove).
func (sub *Subscriber) Close() { sub.hub.Remove(sub) }

var _ core.Subscription = (*Subscriber)(nil)
