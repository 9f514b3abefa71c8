package daemon

import (
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// What the agent verbs (internal/daemon/agents) read of the core: each
// method copies what it needs under s.mu and lets go.

// seatLocked copies window w as an agent row reads it. Called with s.mu
// held: the mail feature's table of rings is a leaf under it, and
// Existing makes no ring.
func (s *Server) seatLocked(w *Window) core.Seat {
	return core.Seat{Row: s.windowRowLocked(w), Group: s.groupOfLocked(w.session), Protocol: w.protocol,
		Ring: s.mail.Existing(w.session.Name, w.session.ID), Pane: paneHandle{w}}
}

func (h host) Seat(c core.Call, session, window string) (core.Seat, *proto.Error) {
	s := h.s
	cn, _ := c.(*conn)
	if cn == nil {
		return core.Seat{}, proto.Errorf(proto.CodeForbidden, "a window named by a call that was never checked (a bug)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, w, err := s.target(cn, session, window)
	if err != nil {
		return core.Seat{}, err
	}
	return s.seatLocked(w), nil
}

func (h host) Seats(c core.Call, session string, all bool) ([]core.SessionSeats, *proto.Error) {
	s := h.s
	cn, _ := c.(*conn)
	if cn == nil {
		return nil, proto.Errorf(proto.CodeForbidden, "a session named by a call that was never checked (a bug)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var sessions []*Session
	if all {
		sessions = s.sessionsSorted()
	} else {
		ss, err := s.session(cn, session)
		if err != nil {
			return nil, err
		}
		sessions = []*Session{ss}
	}
	out := make([]core.SessionSeats, 0, len(sessions))
	for _, ss := range sessions {
		seats := core.SessionSeats{Name: ss.Name, Ring: s.mail.Existing(ss.Name, ss.ID), Windows: make([]core.Seat, 0, len(ss.windows))}
		for _, w := range ss.windows {
			seats.Windows = append(seats.Windows, s.seatLocked(w))
		}
		out = append(out, seats)
	}
	return out, nil
}

func (h host) PaneOf(c core.Call, pid int) (string, string) {
	s := h.s
	if pid > 0 {
		return s.paneOf(pid) // boundary.go
	}
	cn, _ := c.(*conn)
	if cn == nil {
		return "", ""
	}
	s.place(cn)
	return cn.placedID, cn.placedBy
}

func (h host) LogActivity(window string, p *proto.ReportActivityParams) (proto.AgentActivityReported, bool) {
	return h.s.logActivity(window, p) // verbs_agentlog.go
}

func (h host) LogSubagent(window string, p *proto.ReportActivityParams) {
	h.s.logSubagent(window, p)
}
