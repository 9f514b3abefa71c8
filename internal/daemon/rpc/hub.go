package rpc

import (
	"sync"
	"time"

	"github.com/tuios/tuios/internal/daemon/core"
)

// Hub fans events out to subscribers through bounded queues: a slow
// subscriber loses events (counted, then announced by its reader with a
// gap event), and never blocks the publisher or other subscribers.
type Hub struct {
	mu      sync.Mutex
	seq     uint64
	subs    map[*Subscriber]struct{}
	outputs int // subscribers that asked for output events
	closed  bool
	// observe sees every published event, under mu and before the
	// subscribers (Observe). It must not block or publish.
	observe func(core.Event)
	// hooks are the features' synchronous hooks by event type
	// (core.Registrar.OnWindowClosed), added only while the daemon is
	// made: Publish runs them after the fan-out, outside mu.
	hooks map[string][]func(core.Event)
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{subs: map[*Subscriber]struct{}{}} }

// Observe sets fn to see every event as it is published, in seq order,
// before any subscriber gets it (the attach streams redraw their layout
// from it). fn runs holding the hub's lock: it must not block or
// publish. Set once, while the daemon is made.
func (h *Hub) Observe(fn func(core.Event)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.observe = fn
}

// Hook adds fn to the hooks of events of type typ: Publish runs them in
// the publisher's goroutine once the event went out to the subscribers,
// in the order they were added.
func (h *Hub) Hook(typ string, fn func(core.Event)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.hooks == nil {
		h.hooks = map[string][]func(core.Event){}
	}
	h.hooks[typ] = append(h.hooks[typ], fn)
}

// Subscribe adds a subscriber that hears what f lets through from now
// on, with room for queue events (at least one).
func (h *Hub) Subscribe(f core.Filter, queue int) *Subscriber {
	sub := h.NewSubscriber(f, queue)
	h.Add(sub, nil)
	return sub
}

// Add starts sub with the events pre queued ahead of anything published
// after it. It returns the seq of the last event published before, and
// how many of pre fit in sub's queue.
func (h *Hub) Add(sub *Subscriber, pre []core.Event) (seq uint64, queued int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.subs[sub] = struct{}{}
	if sub.types["output"] {
		h.outputs++
	}
	for _, ev := range pre {
		select {
		case sub.q <- ev:
			queued++
		default:
		}
	}
	return h.seq, queued
}

// Remove ends sub: its queue is closed once what is in it, so a reader
// drains it and stops. Removing it again does nothing.
func (h *Hub) Remove(sub *Subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[sub]; ok {
		delete(h.subs, sub)
		if sub.types["output"] {
			h.outputs--
		}
		close(sub.q)
	}
}

// Wants reports whether an event of type typ is worth making: always,
// but for output, which costs a publish per pane read and is made only
// while a subscriber asked for it.
func (h *Hub) Wants(typ string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return typ != "output" || h.outputs > 0
}

// Listening reports whether a subscriber asked for type typ by name.
func (h *Hub) Listening(typ string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for sub := range h.subs {
		if sub.types[typ] {
			return true
		}
	}
	return false
}

// Publish sends ev to every subscriber that wants it, then runs the
// hooks of its type in the publisher's goroutine (with no lock of the
// hub's held: a hook may publish), and returns ev as sent (with its seq
// and time). The hooks run even once the hub is closed: a window that
// closes as the daemon stops still reaches them.
func (h *Hub) Publish(ev core.Event) core.Event {
	ev, hooks := h.send(ev)
	for _, fn := range hooks {
		fn(ev)
	}
	return ev
}

// send is Publish's fan-out, under mu; it returns ev's hooks.
func (h *Hub) send(ev core.Event) (core.Event, []func(core.Event)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	hooks := h.hooks[ev.Type]
	if h.closed {
		return ev, hooks
	}
	h.seq++
	ev.Seq = h.seq
	ev.Time = time.Now().UTC().Format(time.RFC3339Nano)
	if h.observe != nil {
		h.observe(ev)
	}
	for sub := range h.subs {
		if !sub.Wants(ev) {
			continue
		}
		select {
		case sub.q <- ev:
		default:
			sub.mu.Lock()
			sub.dropped++
			sub.mu.Unlock()
		}
	}
	return ev, hooks
}

// Close ends every subscriber and publishes nothing more (its hooks
// still run).
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for sub := range h.subs {
		close(sub.q)
		delete(h.subs, sub)
	}
}
