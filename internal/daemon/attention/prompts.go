package attention

import (
	"context"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/review"
)

// Prompts reads the prompt a pane waits on and answers it as the person:
// peek-prompt (prompt_peek.go), respond (respond.go), the risk of what a
// prompt asks (prompt_risk.go), which the Inbox's risk column and the
// rail read too. A prompt the Inbox holds (Holds) is read and answered
// there instead.
//
// Locking: mu guards the maps and is a leaf: never held across I/O or
// while calling the core. A window's lock (a one-slot channel, so a wait
// for it ends with the caller's context) is held only while its answer
// is pressed: only another respond to the same window waits on it.
type Prompts struct {
	h     core.Host
	inbox Inbox
	holds *Holds
	risk  *review.Checker
	home  string

	stop, stopped chan struct{} // the follower of the arbiter

	mu       sync.Mutex
	locks    map[string]chan struct{}
	answered map[string]answeredMark // window id → the prompt answered last
	entered  map[string]time.Time    // window id → when it entered needs_input
}

// PromptsOptions is what Prompts needs of the rest of the attention set.
type PromptsOptions struct {
	// Inbox is told when a peek read a blocked pane's prompt, so its item
	// says the risk the peek read.
	Inbox Inbox
	// Holds are the held approvals: a prompt held for the Inbox is read
	// and answered there.
	Holds *Holds
	// Risk are the risk rules ([agents.approvals.risk]); nil checks
	// nothing.
	Risk *review.Checker
	// Home is the person's home directory, for the risk rules.
	Home string
}

// NewPrompts makes peek-prompt and respond; Init adds them to a daemon.
func NewPrompts(opt PromptsOptions) *Prompts {
	return &Prompts{inbox: opt.Inbox, holds: opt.Holds, risk: opt.Risk, home: opt.Home,
		locks: map[string]chan struct{}{}, answered: map[string]answeredMark{}, entered: map[string]time.Time{}}
}

// Name is "respond".
func (r *Prompts) Name() string { return "respond" }

// Init adds peek-prompt and respond to h's verbs, forgets what was kept
// for a window as it closes, and starts following the arbiter (when each
// pane entered needs_input).
func (r *Prompts) Init(h core.Host) error {
	r.h = h
	r.addVerbs(h)
	h.OnWindowClosed(func(ev core.Event) { r.forget(ev.Window) })
	r.stop, r.stopped = make(chan struct{}), make(chan struct{})
	// Subscribed here, not in the goroutine: a change made before it
	// first ran would otherwise be missed.
	sub := h.Tracker().Arbiter().Subscribe(agentstate.SubscribeOptions{Buffer: 256})
	go r.follow(sub)
	return nil
}

// Shutdown stops the follower.
func (r *Prompts) Shutdown(ctx context.Context) error {
	if r.stop == nil {
		return nil
	}
	close(r.stop)
	select {
	case <-r.stopped:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// answeredMark is the prompt an answer was pressed to. It refuses a second
// answer to that prompt while the first is settling and for
// answeredGrace after it returned: a program slow to redraw still shows
// the prompt, and a second person's answer must not be pressed into
// whatever comes next. After that a retry goes through (the first keys
// may have been lost).
type answeredMark struct {
	prompt   string
	inFlight bool
	until    time.Time
}

// answeredGrace is how long a returned answer still marks its prompt.
const answeredGrace = 3 * time.Second

// holds reports whether m still marks prompt at now.
func (m answeredMark) holds(prompt string, now time.Time) bool {
	return m.prompt == prompt && (m.inFlight || now.Before(m.until))
}

// follow notes when each pane enters needs_input: a prompt's id covers it,
// so the same words asked again are another prompt.
func (r *Prompts) follow(sub *agentstate.Subscription) {
	defer close(r.stopped)
	defer sub.Close()
	for {
		select {
		case ch := <-sub.C:
			r.mu.Lock()
			t, seen := r.entered[ch.Pane]
			switch {
			case seen && ch.At.Before(t):
				// Older than what a peek already found the pane on: the
				// follower is behind, and the prompt's id must not move.
			case ch.To != agentstate.NeedsInput:
				delete(r.entered, ch.Pane)
			default:
				// A peek may have seen the pane there first: keep its time.
				if _, ok := r.entered[ch.Pane]; !ok {
					r.entered[ch.Pane] = ch.At
				}
			}
			r.mu.Unlock()
		case <-r.stop:
			return
		case <-r.h.Done():
			return
		}
	}
}

// enteredAt is when the pane entered needs_input, as followed; a pane
// found there before the follower heard of it keeps the first time seen.
func (r *Prompts) enteredAt(id string, snap agentstate.Snapshot) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.entered[id]
	if !ok {
		t = snap.StateAt
		r.entered[id] = t
	}
	return t
}

// forget drops what was kept for a window that closed. A lock held by an
// answer in flight stays until that answer lets go of it.
func (r *Prompts) forget(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.entered, id)
	delete(r.answered, id)
	if ch := r.locks[id]; ch != nil && len(ch) == 0 {
		delete(r.locks, id)
	}
}

// Kept is how many windows something is kept for (an answer lock, when
// the pane entered needs_input, the prompt answered last): for tests,
// which see a closed window leave nothing behind.
func (r *Prompts) Kept() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.locks) + len(r.entered) + len(r.answered)
}

// lock takes the window's answer lock, or gives up with ctx.
func (r *Prompts) lock(ctx context.Context, id string) (func(), bool) {
	r.mu.Lock()
	ch := r.locks[id]
	if ch == nil {
		ch = make(chan struct{}, 1)
		r.locks[id] = ch
	}
	r.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, true
	case <-ctx.Done():
		return nil, false
	}
}
