package daemon

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/daemon/mux"
)

// A session shown by several clients takes the size of the one used
// last: tmux's window-size latest, where a client's latest use is when
// it attached, resized, or the person typed into it. When that client
// leaves, the session goes back to the size of the one used most
// recently among those still attached, so a small terminal that detached
// does not leave everyone drawing its tiles. The layout names the client
// that sets the size (sized_by), so a client of another size can say why
// part of its screen is unused.

// streamSize is what one client last asked its session to be, and when
// it was last used.
type streamSize struct {
	cols, rows int
	at         time.Time
}

// Sized notes the size a client process asked for on any of its
// connections: its streams of that session take it, and the session is
// now sized by it (by no stream when the caller shows nothing).
func (h *attachHub) Sized(peer int, ss *mux.Session, cols, rows int) {
	now := time.Now()
	var by *attachStream
	if peer > 0 {
		h.each(func(st *attachStream) {
			if st.ss == ss && st.cn.peer == peer {
				st.mu.Lock()
				st.size = streamSize{cols, rows, now}
				st.mu.Unlock()
				by = st
			}
		})
	}
	h.setSizer(ss, by)
}

// setSizer records the stream whose client sets ss's size (nil: none).
func (h *attachHub) setSizer(ss *mux.Session, by *attachStream) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if by == nil {
		delete(h.sizer, ss)
		return
	}
	h.sizer[ss] = by
}

// sizedBy names the client that sets st's session's size, for st's
// layout: "" when it is st's own client, or not known.
func (h *attachHub) sizedBy(st *attachStream) string {
	h.mu.Lock()
	by := h.sizer[st.ss]
	h.mu.Unlock()
	if by == nil || by.cn.peer == st.cn.peer {
		return ""
	}
	return by.who
}

// active notes that the person used the client process peer on session
// ss (typed into one of its panes): that client is now the latest, and
// the session takes its size when it differs.
func (s *Server) active(peer int, ss *mux.Session) {
	h := s.attach
	if h == nil || h.n.Load() == 0 || peer <= 0 {
		return
	}
	now := time.Now()
	var by *attachStream
	var size streamSize
	h.each(func(st *attachStream) {
		if st.ss == ss && st.cn.peer == peer {
			st.mu.Lock()
			st.size.at = now
			size = st.size
			st.mu.Unlock()
			by = st
		}
	})
	if by == nil {
		return // typed by a script, not a client showing the session
	}
	h.mu.Lock()
	same := h.sizer[ss] == by
	h.sizer[ss] = by
	h.mu.Unlock()
	if same || size.cols <= 0 || size.rows <= 0 {
		return
	}
	s.resizeTo(ss, size)
}

// left gives a session the size of the latest client still showing it,
// once st has gone.
func (s *Server) left(st *attachStream) {
	var best streamSize
	var by *attachStream
	s.attach.each(func(o *attachStream) {
		if o == st || o.ss != st.ss {
			return
		}
		o.mu.Lock()
		if o.size.at.After(best.at) {
			best, by = o.size, o
		}
		o.mu.Unlock()
	})
	s.attach.mu.Lock()
	if s.attach.sizer[st.ss] == st || by != nil {
		if by == nil {
			delete(s.attach.sizer, st.ss)
		} else {
			s.attach.sizer[st.ss] = by
		}
	}
	s.attach.mu.Unlock()
	if by == nil {
		return
	}
	s.resizeTo(st.ss, best)
}

// resizeTo gives ss the size sz and tiles it again when that changes
// it; every client's layout says who sizes it now either way.
func (s *Server) resizeTo(ss *mux.Session, sz streamSize) {
	if s.tab.SetSessionSize(ss, sz.cols, sz.rows) { // layout.go
		s.tab.Retile(ss)
		return
	}
	s.attach.LayoutChanged()
}

// clientLabel names an attached client for the others: its terminal and
// pid ("/dev/pts/3 (pid 42)"), or the pid alone where the terminal cannot
// be read.
func clientLabel(pid int) string {
	if pid <= 0 {
		return ""
	}
	label := "pid " + strconv.Itoa(pid)
	if runtime.GOOS != "linux" {
		return label
	}
	for _, fd := range []string{"0", "1", "2"} {
		if t, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + fd); err == nil && strings.HasPrefix(t, "/dev/") && t != "/dev/null" {
			return t + " (" + label + ")"
		}
	}
	return label
}
