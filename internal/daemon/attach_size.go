package daemon

import "time"

// A session shown by several clients takes the size of the one that last
// attached or resized (tmux's "latest"); when that client leaves, the
// session goes back to the size of the one that sized it most recently
// among those still attached, so a small terminal that detached does not
// leave everyone drawing its tiles.

// streamSize is what one client last asked its session to be.
type streamSize struct {
	cols, rows int
	at         time.Time
}

// sized notes the size a client process asked for on any of its
// connections: its streams of that session take it.
func (h *attachHub) sized(peer int, ss *Session, cols, rows int) {
	if peer <= 0 {
		return
	}
	now := time.Now()
	h.each(func(st *attachStream) {
		if st.ss == ss && st.cn.peer == peer {
			st.mu.Lock()
			st.size = streamSize{cols, rows, now}
			st.mu.Unlock()
		}
	})
}

// left gives a session the size of the latest client still showing it,
// once st has gone.
func (s *Server) left(st *attachStream) {
	var best streamSize
	s.attach.each(func(o *attachStream) {
		if o == st || o.ss != st.ss {
			return
		}
		o.mu.Lock()
		if o.size.at.After(best.at) {
			best = o.size
		}
		o.mu.Unlock()
	})
	if best.at.IsZero() {
		return
	}
	ss := st.ss
	s.mu.Lock()
	changed := s.sessions[ss.Name] == ss && (ss.cols != best.cols || ss.rows != best.rows)
	if changed {
		ss.cols, ss.rows = best.cols, best.rows
	}
	s.mu.Unlock()
	if changed {
		s.retile(ss)
	}
}
