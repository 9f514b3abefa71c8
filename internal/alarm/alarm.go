// Package alarm keeps one timer for the earliest of a changing set of
// deadlines: the Inbox's timed snoozes (the local queue's, and the
// mirror of linked hosts' items). It owns the timer and its lock, not
// the deadlines: the caller says when the next one is and what to do
// when it comes.
package alarm

import (
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
)

// Alarm keeps one timer for the earliest timed snooze of an inbox (the
// local queue, or the mirror of the hosts' items), none when nothing
// timed sleeps. The zero value is ready. Its lock is a leaf.
type Alarm struct {
	mu    sync.Mutex
	at    time.Time
	timer agentstate.Timer
}

// Rearm sets the timer for next() (read under the alarm's lock, so two
// rearms cannot cross). When it fires, fire runs on a goroutine of its
// own with the alarm already disarmed; fire wakes what is due and rearms.
func (w *Alarm) Rearm(clock agentstate.Clock, next func() time.Time, fire func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	at := next()
	if at.Equal(w.at) && (at.IsZero() || w.timer != nil) {
		return
	}
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	w.at = at
	if at.IsZero() {
		return
	}
	d := max(at.Sub(clock.Now()), time.Millisecond)
	// The clock may call this on the rearming goroutine, which holds
	// locks: it only starts one.
	w.timer = clock.AfterFunc(d, func() {
		go func() {
			w.mu.Lock()
			w.at, w.timer = time.Time{}, nil
			w.mu.Unlock()
			fire()
		}()
	})
}

// Armed reports whether the timer is set, and for when (tests).
func (w *Alarm) Armed() (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.at, w.timer != nil
}
