package daemon

import (
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
)

// railWake redraws every attached client's rail when a finished
// subagent's row is due to leave it. The arbiter drops such a row by its
// clock alone (agentstate.Snapshot.SubagentsChangeAt), and no event says
// so, so without it the row would stay until something else changed the
// layout. One timer for the daemon, armed for the soonest time a layout
// saw.
type railWake struct {
	mu  sync.Mutex // a leaf: only these fields under it
	at  time.Time
	t   agentstate.Timer
	gen uint64 // which arming the running timer is
}

// wakeRailAt has every client's layout built again at at (the daemon's
// clock), unless a wake as soon or sooner is already armed. Zero is no
// wake.
func (h *attachHub) wakeRailAt(at time.Time) {
	if at.IsZero() {
		return
	}
	rw := &h.railWake
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if rw.t != nil && !at.Before(rw.at) {
		return
	}
	if rw.t != nil {
		rw.t.Stop()
	}
	rw.gen++
	gen := rw.gen
	rw.at = at
	rw.t = h.s.clock.AfterFunc(max(at.Sub(h.s.clock.Now()), 0), func() {
		rw.mu.Lock()
		if rw.gen == gen {
			rw.t = nil
		}
		rw.mu.Unlock()
		h.LayoutChanged()
	})
}

// stopRailWake drops the armed wake (the daemon is stopping).
func (h *attachHub) stopRailWake() {
	rw := &h.railWake
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if rw.t != nil {
		rw.t.Stop()
		rw.t = nil
	}
}
