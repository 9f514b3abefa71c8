package daemon

import (
	"sync"

	"github.com/tuios/tuios/internal/proto"
)

// Connection caps that a pane cannot get round. A pane is counted as one,
// whatever number of processes it forks: a cap per process is no cap to a
// pane that forks (a hostile review held 20,000 descriptors with 330
// processes of 64 connections each).
//
// The control socket: at most maxConns open in all; callers inside
// (boundary.go) hold at most maxConns - personShare of them together,
// and each pane at most perPane, so the person's attach and shell always
// find a slot however the panes flood it. A connection is placed before
// it is counted, and at most maxAdmitting wait to be placed, so those
// waiting cannot eat the person's share either.
//
// The herdr socket: at most herdrMaxConns open in all, herdrConnsPerKey
// and herdrStreamsPerKey per pane (herdrKey).

// connLimits are the control socket's caps; the Server's are
// defaultConnLimits (tests make them small, to flood them in a test).
type connLimits struct {
	maxConns     int // open connections in all; one more is told why and closed
	personShare  int // of maxConns, kept for callers outside every pane
	perPane      int // open connections of one pane (its processes together)
	maxAdmitting int // accepted connections not yet placed and counted
}

var defaultConnLimits = connLimits{maxConns: 4096, personShare: 256, perPane: 512, maxAdmitting: 64}

// connCount counts the control socket's placed connections by class.
type connCount struct {
	mu     sync.Mutex
	inside int
	byPane map[string]int
}

// paneKey is what a caller inside is counted against: its pane, or one
// key for every caller whose pane cannot be named (orphans that left
// their pane's session, the daemon's own helpers).
func paneKey(pl placement) string {
	if pl.pane != "" {
		return pl.pane
	}
	return "?"
}

// admitConn counts a placed connection, or says why it is refused. The
// caller outside every pane is only held to the overall cap, which the
// accept loop applies.
func (s *Server) admitConn(cn *conn) (release func(), err *proto.Error) {
	if !cn.inside && cn.placedID == "" {
		return func() {}, nil
	}
	lim, k := s.limits, paneKey(placement{pane: cn.placedID})
	c := &s.counts
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.inside >= lim.maxConns-lim.personShare:
		return nil, proto.Errorf(proto.CodeRateLimited, "the panes hold %d connections, all they may: the rest are kept for the person", c.inside).
			WithHint(proto.Hint{Detail: "close connections you hold (waits, subscriptions) and call again"})
	case c.byPane[k] >= lim.perPane:
		return nil, proto.Errorf(proto.CodeRateLimited, "this pane holds %d connections, its cap", c.byPane[k]).
			WithHint(proto.Hint{Detail: "close connections the pane's processes hold (waits, subscriptions) and call again"})
	}
	c.inside++
	c.byPane[k]++
	return func() {
		c.mu.Lock()
		c.inside--
		if c.byPane[k]--; c.byPane[k] <= 0 {
			delete(c.byPane, k)
		}
		c.mu.Unlock()
	}, nil
}
