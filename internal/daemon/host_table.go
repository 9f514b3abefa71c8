package daemon

import (
	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// The core as features see it (core.Host), where it reads or changes the
// table: these are the only methods of the host adapter that take s.mu,
// and they become internal/daemon/mux's side of core.Host.

// View copies the sessions c's caller reaches, under s.mu.
func (h host) View(c core.Call) *core.View {
	s := h.s
	cn, _ := c.(*conn)
	s.mu.Lock()
	defer s.mu.Unlock()
	v := &core.View{Sessions: make([]core.SessionView, 0, len(s.order))}
	for _, ss := range s.sessionsSorted() {
		if c, known := cn.Admitted(); known && !c.reachesLocked(s.fans, ss) {
			continue
		}
		v.Sessions = append(v.Sessions, ss.viewLocked())
	}
	return v
}

func (h host) Find(id string) (core.WindowView, bool) {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.windows[id]
	if w == nil {
		return core.WindowView{}, false
	}
	return windowViewLocked(w.session, w), true
}

func (h host) FindSession(name string) (core.SessionView, bool) {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessions[name]
	if ss == nil {
		return core.SessionView{}, false
	}
	return ss.viewLocked(), true
}

func (h host) Target(c core.Call, session, window string) *proto.Error {
	s := h.s
	cn, _ := c.(*conn)
	s.mu.Lock()
	defer s.mu.Unlock()
	var w *Window
	if window != "" {
		if w = s.windows[window]; w == nil {
			return proto.Errorf(proto.CodeWindowNotFound, "no window %s", clipText(window, 64))
		}
		if session == "" {
			return s.gateTargetLocked(cn, w.session, w)
		}
	}
	ss := s.sessions[session]
	if ss == nil {
		return proto.Errorf(proto.CodeSessionNotFound, "no session named %q", clipText(session, 64))
	}
	return s.gateTargetLocked(cn, ss, w)
}

func (h host) Window(c core.Call, session, window string) (core.WindowView, *proto.Error) {
	s := h.s
	cn, _ := c.(*conn)
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

func (h host) Neighbor(window, dir string) string {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.windows[window]; w != nil {
		if n := s.neighborOfLocked(w, dir); n != nil {
			return n.ID
		}
	}
	return ""
}

func (h host) Touch(session string) {
	s := h.s
	s.mu.Lock()
	if ss := s.sessions[session]; ss != nil {
		ss.active = nowTime()
	}
	s.mu.Unlock()
}

// SwapWindows trades two windows of one workspace (herdr's pane.swap):
// their places in the window list and their tiles.
func (s *Server) SwapWindows(a, b string) (bool, string) {
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
	s.hub.Publish(event{Type: "window-moved", Session: name, Window: a})
	s.hub.Publish(event{Type: "window-moved", Session: name, Window: b})
	return true, ""
}

func (h host) FanCaller(c core.Call) core.FanCaller {
	s := h.s
	cn, _ := c.(*conn)
	if cn == nil {
		return core.FanCaller{}
	}
	var fc core.FanCaller
	cc, known := cn.Admitted()
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

func (h host) CallerDir(c core.Call) string {
	s := h.s
	cn, _ := c.(*conn)
	s.mu.Lock()
	w := s.callerWindow(cn)
	s.mu.Unlock()
	if w == nil {
		return ""
	}
	return w.cwdNow()
}

func (h host) UnknownSession(name string) *proto.Error {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "" {
		return proto.Errorf(proto.CodeSessionNotFound, "no session named %q", name)
	}
	_, err := s.findSession(nil, name)
	return err
}

func (h host) OutOfReach(c core.Call) *proto.Error {
	s := h.s
	cn, _ := c.(*conn)
	if cn == nil {
		return proto.Errorf(proto.CodeForbidden, "a session reached by a call that was never checked (a bug)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cc, _ := cn.Admitted()
	return s.outOfReach(cn.Verb(), cc, nil)
}

func (h host) NewSession(name string) (core.SessionView, *proto.Error) {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, err := s.newSessionLocked(name)
	if err != nil {
		return core.SessionView{}, err
	}
	return ss.viewLocked(), nil
}

func (h host) StartWindow(sessionID string, spec core.WindowSpec) (core.WindowView, *proto.Error) {
	s := h.s
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
		notice = s.clock.AfterFunc(startAgentNoticeAfter, func() { close(due) })
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
		s.watchStartNotice(w, due, notice) // agent_launch.go: stops the timer when the watch ends
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return windowViewLocked(w.session, w), nil
}

func (h host) Session(c core.Call, session string) (core.SessionView, *proto.Error) {
	s := h.s
	cn, _ := c.(*conn)
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

func (h host) Resolve(c core.Call, session, addr string) (core.WindowView, bool) {
	s := h.s
	cn, _ := c.(*conn)
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

func (h host) CallerPane(c core.Call) string {
	s := h.s
	cn, _ := c.(*conn)
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.callerWindow(cn); w != nil {
		return w.ID
	}
	return ""
}

func (h host) StartedIn(id string) (string, string, bool) {
	s := h.s
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.windows[id]
	if w == nil {
		return "", "", false
	}
	return w.cwd, w.protocol, true
}

func (h host) NoSession(name string) *proto.Error {
	s := h.s
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

func (h host) AgentSession(c core.Call, session, name, base string) (core.SessionView, string, bool, *proto.Error) {
	s := h.s
	cn, _ := c.(*conn)
	if cn == nil {
		return core.SessionView{}, "", false, proto.Errorf(proto.CodeForbidden, "a session reached by a call that was never checked (a bug)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var ss *Session
	var err *proto.Error
	created := false
	if session != "" && s.sessions[session] == nil || session == "" && len(s.sessions) == 0 {
		if c, known := cn.Admitted(); known && c.Inside && !c.Grants.Has(grant.Admin) {
			return core.SessionView{}, "", false, proto.Errorf(proto.CodeForbidden, "start-agent is refused for this pane: starting an agent in a new session needs the admin grant (a pane without admin starts agents in its own session)").
				WithHint(grantHint(grant.Admin, c))
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
func (s *Server) sessionByIDLocked(id string) *Session {
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
func (s *Server) seatLocked(w *Window) core.Seat {
	return core.Seat{Row: s.windowRowLocked(w), Group: s.groupOfLocked(w.Session()), Protocol: w.Protocol(),
		Ring: s.mail.Existing(w.Session().Name, w.Session().ID), Pane: paneHandle{w}}
}

// groupOfLocked is a session's fan group ("" for none).
func (s *Server) groupOfLocked(ss *Session) string {
	if ss == nil || s.fans == nil {
		return ""
	}
	if t := s.fans.Tag(ss.ID); t != nil {
		return t.Group
	}
	return ""
}
