package mux

import (
	"sort"
	"strconv"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	drpc "github.com/tuios/tuios/internal/daemon/rpc"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// The table's reads for the rest of the daemon. The session and window
// tables and every window's placement are guarded by s.mu, which only
// this package takes. Everything else — connections, dispatch,
// admission, attach streams, grants, the features' adapter — asks through
// these methods, each of which copies what it needs under the lock and
// lets go before it returns, so no caller holds the table while it reads
// a pane or writes a socket.

// WindowByID is the live window whose id is id, or nil. The pointer is
// the window's handle for its pane (its screen, input and tracked state,
// each guarded by its own lock); its placement fields are the table's,
// read through the methods below.
func (s *Table) WindowByID(id string) *Window {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.windows[id]
}

// SessionNamed is the live session named name, or nil.
func (s *Table) SessionNamed(name string) *Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[name]
}

// WindowList is every live window, in no order.
func (s *Table) WindowList() []*Window {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws := make([]*Window, 0, len(s.windows))
	for _, w := range s.windows {
		ws = append(ws, w)
	}
	return ws
}

// WindowIDs is every live window's id, in no order.
func (s *Table) WindowIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.windows))
	for id := range s.windows {
		ids = append(ids, id)
	}
	return ids
}

// SessionCount is how many sessions the table holds.
func (s *Table) SessionCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// InboxPane is window id as the Inbox names it, and the window; a nil
// window when it is gone.
func (s *Table) InboxPane(id string) (inbox.Pane, *Window) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.windows[id]
	if w == nil {
		return inbox.Pane{}, nil
	}
	return inboxPaneLocked(w), w
}

// inboxPaneLocked is w as the Inbox names it. Called with s.mu held.
func inboxPaneLocked(w *Window) inbox.Pane {
	return inbox.Pane{ID: w.ID, Session: w.session.Name, Workspace: strconv.Itoa(w.workspace), Name: w.DisplayName()}
}

// WindowIn reports whether window id is live and in session.
func (s *Table) WindowIn(id, session string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.windows[id]
	return w != nil && w.session.Name == session
}

// TargetWindow is the window the caller names (session and window as a
// verb's params give them), past the target check; its session is
// w.session.
func (s *Table) TargetWindow(cn Call, session, window string) (*Window, *proto.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, w, err := s.target(cn, session, window)
	return w, err
}

// ProgramExit is w's program exit as the features hear of it.
func (s *Table) ProgramExit(w *Window, code int) core.ProgramExit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return core.ProgramExit{Session: w.session.Name, SessionID: w.session.ID, Window: w.ID, Name: w.name, Auto: w.autoName(), Code: code}
}

// FocusedOnScreen reports whether window id is the focused window, on
// the workspace on screen, of one of sessions (those attached clients
// show) that is still live.
func (s *Table) FocusedOnScreen(sessions []*Session, id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ss := range sessions {
		if f := ss.focused; f != nil && f.ID == id && f.workspace == ss.workspace && s.sessions[ss.Name] == ss {
			return true
		}
	}
	return false
}

// TargetView is the window the caller names, past the target check: a
// copy of it, and its handle.
func (s *Table) TargetView(cn Call, session, window string) (core.WindowView, *Window, *proto.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, w, err := s.target(cn, session, window)
	if err != nil {
		return core.WindowView{}, nil, err
	}
	return windowViewLocked(ss, w), w, nil
}

// GrantsOfPane is window id and what a program in it may do (caller.go's
// grantsOfLocked); a nil window when it is gone.
func (s *Table) GrantsOfPane(id string) (*Window, grant.Set) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.windows[id]
	if w == nil {
		return nil, 0
	}
	return w, s.grantsOfLocked(w)
}

// CloseTable marks the daemon closed: no window starts from here on
// (startWindow checks it under the lock as it adds the window, so the
// last close of every window sees them all).
func (s *Table) CloseTable() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

// TargetFocused is the window the caller names, past the target check,
// and whether it is its session's focused window on the workspace on
// screen.
func (s *Table) TargetFocused(cn Call, session, window string) (*Window, bool, *proto.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, w, err := s.target(cn, session, window)
	if err != nil {
		return nil, false, err
	}
	return w, ss.focused == w && w.workspace == ss.workspace, nil
}

// MayTypeNow is the write path's check: the typist's grants as they are
// now (what the verb needs: write to type, respond to answer), and the
// target's state as the arbiter has it now.
func (s *Table) MayTypeNow(verb string, a drpc.Access, by Caller, w *Window) *proto.Error {
	atPrompt := s.tracker.Arbiter().Get(w.ID).State == agentstate.NeedsInput
	s.mu.Lock()
	defer s.mu.Unlock()
	by, alive := s.refreshLocked(by)
	if !alive {
		return proto.Errorf(proto.CodeForbidden, "%s: the pane that asked for this typing has closed, so nothing was typed", verb)
	}
	if !a.Types() { // a writer declares what it types as (types, respond)
		a = drpc.Types
	}
	if miss := by.Grants.Missing(a.Grants()); by.Inside && miss != 0 {
		return GrantRefusal(verb, a, miss, by)
	}
	return s.typingRuleLocked(verb, a, by, w, atPrompt)
}

// CallerLabel is the window the caller runs in: its id and the name it
// shows; false when the caller runs in none (or it closed).
func (s *Table) CallerLabel(cn Call) (id, label string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.callerWindow(cn); w != nil {
		return w.ID, w.DisplayName(), true
	}
	return "", "", false
}

// ReachedBy is the name of every session c reaches, oldest first.
func (s *Table) ReachedBy(c Caller) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	for _, ss := range s.sessionsSorted() {
		if c.reachesLocked(s.d.Fans(), ss) {
			names = append(names, ss.Name)
		}
	}
	return names
}

// refreshLocked reads a pane caller's grants again, right before a write: a
// pane that closed types nothing. Called with s.mu held.
func (s *Table) refreshLocked(c Caller) (Caller, bool) {
	if c.Pane == nil {
		return c, true
	}
	if s.windows[c.Pane.ID] != c.Pane {
		return c, false
	}
	c.Grants = s.grantsOfLocked(c.Pane)
	return c, true
}

// sessionsSorted lists sessions in creation order. Called with s.mu held.
func (s *Table) sessionsSorted() []*Session {
	out := append([]*Session(nil), s.order...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].created.Before(out[j].created) })
	return out
}

// SetResume sets the agent conversation window id offers to resume, as a
// restore does from the sessions file; false when there is no such
// window.
func (s *Table) SetResume(id, sessionID, harness string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.windows[id]
	if w == nil {
		return false
	}
	w.resumeID, w.resumeHarness = sessionID, harness
	return true
}
