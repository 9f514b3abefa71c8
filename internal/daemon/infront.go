package daemon

import (
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/mux"
)

// The pane in front of the person: the focused window of a session that
// an attached client shows, when it is on the workspace on screen. Seeing
// it is what "seen" means for a finished turn (the Inbox's finished item
// closes, the done glyph turns to ○), and it is the one pane the person
// cannot mark unread.

// inFront reports whether an attached client shows window id focused.
func (s *Server) inFront(id string) bool {
	var sessions []*mux.Session
	s.attach.each(func(st *attachStream) { sessions = append(sessions, st.ss) })
	if len(sessions) == 0 {
		return false
	}
	return s.tab.FocusedOnScreen(sessions, id) // table.go
}

// seenByPerson marks what an attached client shows in front of the
// person as seen: its finished turns, and its Inbox item. Called whenever
// a layout is built, so a focus change, an attach and a turn that ends in
// front of the person are all covered.
func (s *Server) seenByPerson(id string) {
	if id == "" || s.agentsOff {
		return
	}
	s.holds.Viewed(id) // a held prompt in front of the person is answered in the pane
	arb := s.tracker.Arbiter()
	_, open := s.att.Find(inbox.PaneKey(inbox.KindFinished, id))
	if !open && !arb.Get(id).FinishedUnread {
		return
	}
	arb.MarkSeen(id)
	s.att.Seen(id)
}

// Shows reports whether an attached client shows session ss. Safe under
// the table's lock (the attach hub's lock is taken after it).
func (h *attachHub) Shows(ss *mux.Session) bool {
	found := false
	h.each(func(st *attachStream) { found = found || st.ss == ss })
	return found
}
