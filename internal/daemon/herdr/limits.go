package herdr

import (
	"strconv"
	"time"

	"github.com/tuios/tuios/internal/daemon/core"
)

// Limits are the herdr socket's caps.
type Limits struct {
	MaxConns     int // open connections in all
	PerKey       int // open connections of one pane (its processes together), or of one process outside every pane
	StreamsPer   int // open event streams of one pane, or of one process
	MaxAdmitting int // accepted connections not yet placed and counted
}

// DefaultLimits are the caps a daemon's herdr socket holds to.
func DefaultLimits() Limits {
	return Limits{MaxConns: 1024, PerKey: 64, StreamsPer: 8, MaxAdmitting: 64}
}

// SetLimits changes the caps; only before Listen (tests make them small
// enough to flood).
func (h *Sock) SetLimits(l Limits) { h.limits = l }

// key is who a herdr connection counts against: its pane, one key for
// callers inside whose pane cannot be named, else the calling process
// (pid-less callers share one key).
func connKey(pl core.Placement, pid int) string {
	if pl.Pane != "" {
		return "pane:" + pl.Pane
	}
	if pl.Inside {
		return "pane:?"
	}
	return "pid:" + strconv.Itoa(pid)
}

// Conns is how many open connections the process pid, placed outside
// every pane, holds (tests).
func (h *Sock) Conns(pid int) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.conns[connKey(core.Placement{}, pid)]
}

// Streams is how many event streams the process pid, placed outside
// every pane, holds (tests).
func (h *Sock) Streams(pid int) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.streams[connKey(core.Placement{}, pid)]
}

// SetDeadline sets how long reading a request and writing an answer may
// take (0: the default, 2 s); tests that hold idle connections on a
// loaded machine make it longer.
func (h *Sock) SetDeadline(d time.Duration) { h.deadline.Store(int64(d)) }

// WatchDue is when the crash watch of window has its age timer armed
// for; zero when it has no watch or none armed (tests on a fake clock
// wait for it before moving time).
func (h *Sock) WatchDue(window string) time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	if x := h.watch[window]; x != nil {
		return x.due
	}
	return time.Time{}
}
