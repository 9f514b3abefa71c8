package agentstate

import (
	"context"
	"time"
)

// ErrPaneRemoved is returned by Wait when the pane is removed while it is
// being waited on. Like the package's other errors it has a Code method
// and a Hint; its code is the control protocol's, "window_not_found".
// Compare with errors.Is.
var ErrPaneRemoved error = paneRemovedError{}

// CodeWindowNotFound is the code of ErrPaneRemoved.
const CodeWindowNotFound Code = "window_not_found"

type paneRemovedError struct{}

func (paneRemovedError) Error() string {
	return "agentstate: pane removed while waiting (window_not_found)"
}

// Code returns CodeWindowNotFound.
func (paneRemovedError) Code() Code { return CodeWindowNotFound }

// Hint says what to do next.
func (paneRemovedError) Hint() string {
	return "the pane is gone: list the panes again and wait on one that exists"
}

// Change says that a pane changed. It is small on purpose: a subscriber
// that wants every field calls Get.
//
// From == To means the pane's state did not change, but something a reader
// sees did: another source took the claim of the state it shows (a
// higher-ranked source reporting the same state, a give-back, a yield), the
// message changed, the evidence was restamped, or turns were marked seen.
// Such a change counts no turn and wakes no waiter (a waiter is only ever
// registered for states the pane is not in). A subscriber that follows
// transitions skips it; one that shows the source or message reads it.
type Change struct {
	Pane     string
	From, To State // equal when the state stayed: see above
	// Source owns the pane after the change; SourceNone, with Claimed
	// false, when no source holds it (the detector cleared it, an
	// explicit none gave it back). SourceName prints it.
	Source  Source
	Claimed bool
	Message string
	At      time.Time // when the change was made, by the arbiter's clock
	Version uint64
	// Dropped counts earlier changes this subscriber missed because it
	// did not keep up. The change it holds is always the newest.
	Dropped uint64
}

// SourceName is the source that owns the pane after the change, as
// printed: "" when the pane is unclaimed.
func (c Change) SourceName() string {
	if !c.Claimed {
		return ""
	}
	return c.Source.String()
}

// SubscribeOptions choose what a subscription hears.
type SubscribeOptions struct {
	Pane   string // "" hears every pane
	Buffer int    // changes queued before the oldest is dropped; 0 is 64
}

// Subscription delivers changes on C. It never blocks the arbiter: when the
// buffer is full the oldest queued change is dropped and the next delivered
// one counts it in Dropped, so the newest change is never lost. Close
// closes C, so a `for c := range sub.C` loop ends once it has read the
// changes queued before Close.
type Subscription struct {
	C       <-chan Change
	ch      chan Change
	pane    string
	a       *Arbiter
	dropped uint64
}

// Subscribe starts delivering changes. Call Close when done: it ends a
// range over C.
func (a *Arbiter) Subscribe(opt SubscribeOptions) *Subscription {
	if opt.Buffer <= 0 {
		opt.Buffer = 64
	}
	ch := make(chan Change, opt.Buffer)
	s := &Subscription{C: ch, ch: ch, pane: opt.Pane, a: a}
	a.mu.Lock()
	a.subs[s] = struct{}{}
	a.mu.Unlock()
	return s
}

// Close stops delivery and closes C: a range over C ends after the
// changes already queued, and a receive from C then reports ok == false
// (a select on C must check it). Close may be called more than once and
// from any goroutine.
func (s *Subscription) Close() {
	s.a.mu.Lock()
	if _, open := s.a.subs[s]; open {
		delete(s.a.subs, s)
		close(s.ch) // under the lock: notify sends only under it
	}
	s.a.mu.Unlock()
}

type waiter struct {
	set  StateSet
	done chan struct{}
	snap Snapshot
	err  error
}

func (w *waiter) finish(s Snapshot, err error) {
	w.snap, w.err = s, err
	close(w.done)
}

// Wait blocks until the pane is in one of the states, and returns its
// snapshot then. A pane already in one matches at once. The check and the
// registration happen under one lock, so a change between them cannot be
// missed. It returns ctx's error on cancel and ErrPaneRemoved when the
// pane is removed.
func (a *Arbiter) Wait(ctx context.Context, paneID string, set StateSet) (Snapshot, error) {
	a.mu.Lock()
	p := a.get(paneID)
	if set.Has(p.state) {
		s := a.snapshot(p, a.clock.Now())
		a.mu.Unlock()
		return s, nil
	}
	w := &waiter{set: set, done: make(chan struct{})}
	p.waiters = append(p.waiters, w)
	a.mu.Unlock()

	select {
	case <-w.done:
		return w.snap, w.err
	case <-ctx.Done():
		a.mu.Lock()
		defer a.mu.Unlock()
		select {
		case <-w.done: // matched while we took the lock
			return w.snap, w.err
		default:
		}
		for i, x := range p.waiters {
			if x == w {
				p.waiters = append(p.waiters[:i], p.waiters[i+1:]...)
				break
			}
		}
		return Snapshot{}, ctx.Err()
	}
}

// notify wakes waiters whose set now matches and queues a change for every
// subscriber. Called with the lock held; it never blocks. When the state
// did not change (old == p.state) no waiter matches: Wait returns at once
// for a state the pane is in, and every change of state notifies under the
// same lock, so a registered waiter never waits for the current state.
func (a *Arbiter) notify(p *pane, old State) {
	if len(p.waiters) > 0 {
		kept := p.waiters[:0]
		var snap Snapshot
		var have bool
		for _, w := range p.waiters {
			if w.set.Has(p.state) {
				if !have {
					snap, have = a.snapshot(p, a.clock.Now()), true
				}
				w.finish(snap, nil)
				continue
			}
			kept = append(kept, w)
		}
		for i := len(kept); i < len(p.waiters); i++ {
			p.waiters[i] = nil
		}
		p.waiters = kept
	}
	if len(a.subs) == 0 {
		return
	}
	ch := Change{Pane: p.id, From: old, To: p.state, Source: p.claim.owner(), Claimed: p.claim.held, Message: p.message, At: a.clock.Now(), Version: p.version}
	for s := range a.subs {
		if s.pane != "" && s.pane != p.id {
			continue
		}
		c := ch
		for {
			c.Dropped = s.dropped
			select {
			case s.ch <- c:
				s.dropped = 0
			default:
				// Full: drop the oldest so the newest is always there.
				// The dropped change may itself have counted
				// earlier drops: they stay counted.
				select {
				case lost := <-s.ch:
					s.dropped += lost.Dropped + 1
				default:
				}
				continue
			}
			break
		}
	}
}
