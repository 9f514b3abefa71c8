package mux

import (
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// The core as features see it (core.Host), where it reads or changes the
// table: these are the only methods of the host adapter that take s.mu,
// and they become internal/daemon/mux's side of core.Host.

// View copies the sessions c's caller reaches, under s.mu.
func (s *Table) View(c core.Call) *core.View {
	cn, _ := c.(Call)
	s.mu.Lock()
	defer s.mu.Unlock()
	v := &core.View{Sessions: make([]core.SessionView, 0, len(s.order))}
	for _, ss := range s.sessionsSorted() {
		if c, known := admitted(cn); known && !c.reachesLocked(s.d.Fans(), ss) {
			continue
		}
		v.Sessions = append(v.Sessions, ss.viewLocked())
	}
	return v
}

// Find is core.Host's Find.
func (s *Table) Find(id string) (core.WindowView, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.windows[id]
	if w == nil {
		return core.WindowView{}, false
	}
	return windowViewLocked(w.session, w), true
}

// FindSession is core.Host's FindSession.
func (s *Table) FindSession(name string) (core.SessionView, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessions[name]
	if ss == nil {
		return core.SessionView{}, false
	}
	return ss.viewLocked(), true
}

// Target is core.Host's Target.
func (s *Table) Target(c core.Call, session, window string) *proto.Error {
	cn, _ := c.(Call)
	s.mu.Lock()
	defer s.mu.Unlock()
	var w *Window
	if window != "" {
		if w = s.windows[window]; w == nil {
			return proto.Errorf(proto.CodeWindowNotFound, "no window %s", core.Clip(window, 64))
		}
		if session == "" {
			return s.gateTargetLocked(cn, w.session, w)
		}
	}
	ss := s.sessions[session]
	if ss == nil {
		return proto.Errorf(proto.CodeSessionNotFound, "no session named %q", core.Clip(session, 64))
	}
	return s.gateTargetLocked(cn, ss, w)
}

// Window is core.Host's Window.
func (s *Table) Window(c core.Call, session, window string) (core.WindowView, *proto.Error) {
	cn, _ := c.(Call)
	if cn == nil {
		return core.WindowView{}, proto.Errorf(proto.CodeForbidden, "a window named by a call that was never checked (a bug)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, w, err := s.target(cn, session, window)
	if err != nil {
		return core.WindowView{}, err
	}
	return windowViewLocked(ss, w), nil
}

// Neighbor is core.Host's Neighbor.
func (s *Table) Neighbor(window, dir string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.windows[window]; w != nil {
		if n := s.neighborOfLocked(w, dir); n != nil {
			return n.ID
		}
	}
	return ""
}

// Touch is core.Host's Touch.
func (s *Table) Touch(session string) {
	s.mu.Lock()
	if ss := s.sessions[session]; ss != nil {
		ss.active = nowTime()
	}
	s.mu.Unlock()
}

// SwapWindows trades two windows of one workspace (herdr's pane.swap):
// their places in the window list and their tiles.
func (s *Table) SwapWindows(a, b string) (bool, string) {
	s.mu.Lock()
	w, other := s.windows[a], s.windows[b]
	switch {
	case w == nil || other == nil:
		s.mu.Unlock()
		return false, "not_found"
	case other.session != w.session || other.workspace != w.workspace:
		s.mu.Unlock()
		return false, "cross_tab"
	}
	ss := w.session
	i, j := -1, -1
	for k, x := range ss.windows {
		switch x {
		case w:
			i = k
		case other:
			j = k
		}
	}
	if i < 0 || j < 0 { // one closed meanwhile
		s.mu.Unlock()
		return false, "not_found"
	}
	ss.windows[i], ss.windows[j] = ss.windows[j], ss.windows[i]
	syncLayoutsLocked(ss) // layout.go
	ss.layoutLocked(w.workspace).Swap(w.ID, other.ID)
	name := ss.Name
	s.mu.Unlock()
	s.Retile(ss)
	s.hub.Publish(core.Event{Type: "window-moved", Session: name, Window: a})
	s.hub.Publish(core.Event{Type: "window-moved", Session: name, Window: b})
	return true, ""
}

// FanCaller is core.Host's FanCaller.
func (s *Table) FanCaller(c core.Call) core.FanCaller {
	cn, _ := c.(Call)
	if cn == nil {
		return core.FanCaller{}
	}
	var fc core.FanCaller
	cc, known := admitted(cn)
	fc.All = !known || !cc.Inside || cc.Grants.Has(grant.Admin) && cc.Restrict == nil
	s.mu.Lock()
	defer s.mu.Unlock()
	if known && cc.Pane != nil {
		fc.PaneSessionID = cc.Pane.session.ID
	}
	if w := s.callerWindow(cn); w != nil {
		fc.Session = w.session.Name
		if known && cc.Inside {
			fc.SessionID = w.session.ID
		}
	}
	return fc
}

// CallerDir is core.Host's CallerDir.
func (s *Table) CallerDir(c core.Call) string {
	cn, _ := c.(Call)
	s.mu.Lock()
	w := s.callerWindow(cn)
	s.mu.Unlock()
	if w == nil {
		return ""
	}
	return w.cwdNow()
}

// UnknownSession is core.Host's UnknownSession.
func (s *Table) UnknownSession(name string) *proto.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "" {
		return proto.Errorf(proto.CodeSessionNotFound, "no session named %q", name)
	}
	_, err := s.findSession(nil, name)
	return err
}

// OutOfReach is core.Host's OutOfReach.
func (s *Table) OutOfReach(c core.Call) *proto.Error {
	cn, _ := c.(Call)
	if cn == nil {
		return proto.Errorf(proto.CodeForbidden, "a session reached by a call that was never checked (a bug)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cc, _ := admitted(cn)
	return s.d.OutOfReach(cn.Verb(), cc, nil)
}

// NewSession is core.Host's NewSession.
func (s *Table) NewSession(name string) (core.SessionView, *proto.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, err := s.newSessionLocked(name)
	if err != nil {
		return core.SessionView{}, err
	}
	return ss.viewLocked(), nil
}

// StartWindow is core.Host's StartWindow.
func (s *Table) StartWindow(sessionID string, spec core.WindowSpec) (core.WindowView, *proto.Error) {
	s.mu.Lock()
	ss := s.sessionByIDLocked(sessionID)
	name := spec.Name
	if ss != nil && spec.FreeName {
		name = freeNameLocked(ss, spec.Name)
	}
	s.mu.Unlock()
	if ss == nil {
		return core.WindowView{}, proto.Errorf(proto.CodeSessionNotFound, "the session closed before its window started")
	}
	var due chan struct{}
	var notice agentstate.Timer
	if spec.StartNotice {
		due = make(chan struct{})
		notice = s.clock.AfterFunc(StartNoticeAfter, func() { close(due) })
	}
	w, err := s.startWindow(ss, windowSpec{name: name, argv: spec.Argv, cwd: spec.Dir, noFocus: spec.NoFocus,
		grants: spec.Grants, granted: spec.Granted, stays: spec.Stays, workspace: spec.Workspace, protocol: spec.Protocol})
	if err != nil {
		if notice != nil {
			notice.Stop()
		}
		return core.WindowView{}, err
	}
	if notice != nil {
		s.d.WatchStartNotice(w, due, notice) // daemon's agent_launch.go: stops the timer when the watch ends
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return windowViewLocked(w.session, w), nil
}

// Session is core.Host's Session.
func (s *Table) Session(c core.Call, session string) (core.SessionView, *proto.Error) {
	cn, _ := c.(Call)
	if cn == nil {
		return core.SessionView{}, proto.Errorf(proto.CodeForbidden, "a session named by a call that was never checked (a bug)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, err := s.session(cn, session)
	if err != nil {
		return core.SessionView{}, err
	}
	return ss.viewLocked(), nil
}

// Resolve is core.Host's Resolve.
func (s *Table) Resolve(c core.Call, session, addr string) (core.WindowView, bool) {
	cn, _ := c.(Call)
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessions[session]
	if ss == nil || addr == "" {
		return core.WindowView{}, false
	}
	w, err := s.findWindow(cn, ss, addr)
	if err != nil {
		return core.WindowView{}, false
	}
	return windowViewLocked(ss, w), true
}

// CallerPane is core.Host's CallerPane.
func (s *Table) CallerPane(c core.Call) string {
	cn, _ := c.(Call)
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.callerWindow(cn); w != nil {
		return w.ID
	}
	return ""
}

// StartedIn is core.Host's StartedIn.
func (s *Table) StartedIn(id string) (string, string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.windows[id]
	if w == nil {
		return "", "", false
	}
	return w.cwd, w.protocol, true
}

// NoSession is core.Host's NoSession.
func (s *Table) NoSession(name string) *proto.Error {
	s.mu.Lock()
	ok := s.sessions[name] != nil
	names := s.sessionNames()
	s.mu.Unlock()
	if ok {
		return nil
	}
	return proto.Errorf(proto.CodeSessionNotFound, "no session %q", name).
		WithHint(proto.Hint{Param: "session", DidYouMean: core.NearestWord(name, names), Available: names})
}

// Seat is core.Host's Seat.
func (s *Table) Seat(c core.Call, session, window string) (core.Seat, *proto.Error) {
	cn, _ := c.(Call)
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

// Seats is core.Host's Seats.
func (s *Table) Seats(c core.Call, session string, all bool) ([]core.SessionSeats, *proto.Error) {
	cn, _ := c.(Call)
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
		seats := core.SessionSeats{Name: ss.Name, Ring: s.d.MailRing(ss.Name, ss.ID), Windows: make([]core.Seat, 0, len(ss.windows))}
		for _, w := range ss.windows {
			seats.Windows = append(seats.Windows, s.seatLocked(w))
		}
		out = append(out, seats)
	}
	return out, nil
}

// AgentSession is core.Host's AgentSession.
func (s *Table) AgentSession(c core.Call, session, name, base string) (core.SessionView, string, bool, *proto.Error) {
	cn, _ := c.(Call)
	if cn == nil {
		return core.SessionView{}, "", false, proto.Errorf(proto.CodeForbidden, "a session reached by a call that was never checked (a bug)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var ss *Session
	var err *proto.Error
	created := false
	if session != "" && s.sessions[session] == nil || session == "" && len(s.sessions) == 0 {
		if c, known := admitted(cn); known && c.Inside && !c.Grants.Has(grant.Admin) {
			return core.SessionView{}, "", false, proto.Errorf(proto.CodeForbidden, "start-agent is refused for this pane: starting an agent in a new session needs the admin grant (a pane without admin starts agents in its own session)").
				WithHint(GrantHint(grant.Admin, c))
		}
		ss, err = s.newSessionLocked(session)
		created = err == nil
	} else {
		ss, err = s.session(cn, session)
	}
	if err == nil {
		if name == "" {
			name = freeNameLocked(ss, base)
		} else {
			err = nameTakenLocked(ss, name, nil)
		}
	}
	if err != nil {
		return core.SessionView{}, "", false, err
	}
	return ss.viewLocked(), name, created, nil
}

// sessionByIDLocked is the live session whose id is id, or nil.
func (s *Table) sessionByIDLocked(id string) *Session {
	for _, ss := range s.sessions {
		if ss.ID == id {
			return ss
		}
	}
	return nil
}

// windowViewLocked copies window w of ss. Called with s.mu held.
func windowViewLocked(ss *Session, w *Window) core.WindowView {
	at := w.placementLocked()
	return core.WindowView{ID: w.ID, Session: ss.Name, SessionID: ss.ID, Name: w.name, DisplayName: w.DisplayName(),
		Title: w.Title(), Dir: w.DirNow(), Workspace: w.workspace, Minimized: w.minimized, X: at.X, Y: at.Y, Width: at.W, Height: at.H,
		Program: w.program, ResumeID: w.resumeID, ResumeHarness: w.resumeHarness, Pane: paneHandle{w},
		AutoName: w.autoName()} // wait-for's (internal/daemon/waitfor)
}

// viewLocked copies the session. Called with s.mu held.
func (ss *Session) viewLocked() core.SessionView {
	sv := core.SessionView{Name: ss.Name, ID: ss.ID, DisplayName: ss.displayName, Accent: ss.accent, Active: ss.active,
		Workspace: ss.workspace, Zoomed: ss.zoomed, Floating: ss.floating, Windows: make([]core.WindowView, 0, len(ss.windows))}
	for n, name := range ss.wsNames {
		if n >= 1 && n <= Workspaces {
			sv.WorkspaceNames[n] = name
		}
	}
	if ss.focused != nil {
		sv.Focused = ss.focused.ID
	}
	for _, w := range ss.windows {
		sv.Windows = append(sv.Windows, windowViewLocked(ss, w))
	}
	return sv
}

// seatLocked copies window w as an agent row reads it. Called with s.mu
// held: the mail feature's table of rings is a leaf under it, and
// Existing makes no ring.
func (s *Table) seatLocked(w *Window) core.Seat {
	return core.Seat{Row: s.windowRowLocked(w), Group: s.groupOfLocked(w.Session()), Protocol: w.Protocol(),
		Ring: s.d.MailRing(w.Session().Name, w.Session().ID), Pane: paneHandle{w}}
}

// groupOfLocked is a session's fan group ("" for none).
func (s *Table) groupOfLocked(ss *Session) string {
	if ss == nil || s.d.Fans() == nil {
		return ""
	}
	if t := s.d.Fans().Tag(ss.ID); t != nil {
		return t.Group
	}
	return ""
}

// StartNoticeAfter is when a pane start-agent opened that is not at its
// prompt becomes a question for the person.
const StartNoticeAfter = 30 * time.Second
