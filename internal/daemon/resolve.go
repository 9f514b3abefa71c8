package daemon

import (
	"strconv"
	"strings"

	"github.com/tuios/tuios/internal/procstat"
	"github.com/tuios/tuios/internal/proto"
)

// session resolves a session name; empty is the caller's own session when
// it runs inside a pane, else the most recently active one. Called with
// s.mu held.
func (s *Server) session(cn *conn, name string) (*Session, *proto.Error) {
	if name != "" {
		if ss := s.sessions[name]; ss != nil {
			return ss, nil
		}
		return nil, proto.Errorf(proto.CodeSessionNotFound, "no session named %q", name).
			WithHint(proto.Hint{Available: s.sessionNames(), Command: "tuios ls"})
	}
	if w := s.callerWindow(cn); w != nil {
		return w.session, nil
	}
	var best *Session
	for _, ss := range s.sessions {
		if best == nil || ss.active.After(best.active) {
			best = ss
		}
	}
	if best == nil {
		return nil, proto.Errorf(proto.CodeSessionNotFound, "there are no sessions").
			WithHint(proto.Hint{Command: "tuios new --detach NAME"})
	}
	return best, nil
}

// window resolves a window address in a session: the full id, the index
// list-windows prints, a unique id prefix, a name a person gave, then the
// shell's title. Ambiguity is an error listing the candidates. An empty
// address is the caller's own pane when it runs in one, else the focused
// window. Called with s.mu held.
func (s *Server) window(cn *conn, ss *Session, addr string) (*Window, *proto.Error) {
	if addr == "" {
		if w := s.callerWindow(cn); w != nil && w.session == ss {
			return w, nil
		}
		if ss.focused != nil {
			return ss.focused, nil
		}
		return nil, proto.Errorf(proto.CodeNoWindows, "session %q has no windows", ss.Name).
			WithHint(proto.Hint{Command: "tuios new-window -s " + ss.Name})
	}
	for _, w := range ss.windows {
		if w.ID == addr {
			return w, nil
		}
	}
	if isDigits(addr) {
		if i, err := strconv.Atoi(addr); err == nil && i >= 0 && i < len(ss.windows) {
			return ss.windows[i], nil
		}
	}
	match := func(pred func(w *Window) bool) []*Window {
		var out []*Window
		for _, w := range ss.windows {
			if pred(w) {
				out = append(out, w)
			}
		}
		return out
	}
	for _, cands := range [][]*Window{
		match(func(w *Window) bool { return w.name == addr }),
		match(func(w *Window) bool { return w.name == "" && w.Title() == addr }),
		match(func(w *Window) bool { return strings.HasPrefix(w.ID, addr) }),
	} {
		switch len(cands) {
		case 0:
			continue
		case 1:
			return cands[0], nil
		default:
			var ids []string
			for _, w := range cands {
				ids = append(ids, w.ID[:8]+" "+w.DisplayName())
			}
			return nil, proto.Errorf(proto.CodeWindowNotFound, "%q matches %d windows in session %q", addr, len(cands), ss.Name).
				WithHint(proto.Hint{Available: ids, Detail: "address the window by its full id or a longer prefix"})
		}
	}
	var avail []string
	for i, w := range ss.windows {
		avail = append(avail, strconv.Itoa(i)+" "+w.ID[:8]+" "+w.DisplayName())
	}
	return nil, proto.Errorf(proto.CodeWindowNotFound, "no window %q in session %q", addr, ss.Name).
		WithHint(proto.Hint{Available: avail, Command: "tuios list-windows -s " + ss.Name})
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// callerWindow is the window the caller runs in (placed before the verb
// ran), or nil. Called with s.mu held.
func (s *Server) callerWindow(cn *conn) *Window {
	if cn == nil || cn.placedID == "" {
		return nil
	}
	return s.windows[cn.placedID]
}

// place finds the caller's window once per connection (see paneOf), from
// its pid as the kernel gives it, never from anything the caller says.
func (s *Server) place(cn *conn) {
	if cn == nil || cn.placed {
		return
	}
	cn.placed = true
	if cn.peer <= 1 {
		return
	}
	cn.placedID, cn.placedBy = s.paneOf(cn.peer)
}

// paneOf finds the window a process runs in: the window whose process is
// an ancestor of pid, else the window whose shell leads pid's terminal
// session (a process that was reparented, such as a hook run by an agent's
// detached helper, keeps its session). It says which of the two found it.
// /proc is read without the server lock.
func (s *Server) paneOf(pid int) (id, how string) {
	s.mu.Lock()
	shells := make(map[int]string, len(s.windows))
	for _, w := range s.windows {
		shells[w.proc.Pid()] = w.ID
	}
	s.mu.Unlock()
	first := pid
	for i := 0; i < 64 && pid > 1; i++ {
		if id, ok := shells[pid]; ok {
			return id, "ancestry"
		}
		pid = procstat.Parent(pid)
	}
	if id, ok := shells[procstat.Session(first)]; ok {
		return id, "session"
	}
	return "", ""
}
