package mux

import (
	drpc "github.com/tuios/tuios/internal/daemon/rpc"
	"github.com/tuios/tuios/internal/proto"
)

// windowRowLocked describes a window. Called with s.mu held.
func (s *Table) windowRowLocked(w *Window) proto.Window {
	idx := 0
	for i, x := range w.session.windows {
		if x == w {
			idx = i
		}
	}
	b := s.tracker.Arbiter().Brief(w.ID)
	_, exited := w.term.Printed()
	at := w.placementLocked()
	row := proto.Window{
		WindowID: w.ID, Index: idx, Name: w.DisplayName(), AutomaticName: w.name == "", Title: w.Title(), DisplayName: w.DisplayName(),
		Session: w.session.Name, Workspace: w.workspace, Focused: w.session.focused == w, Minimized: w.minimized,
		X: at.X, Y: at.Y, Width: at.W, Height: at.H, Unplaced: !w.placed, PtyID: w.ID, PID: w.proc.Pid(), Cwd: w.cwdNow(),
		AgentState: b.State.String(), AgentHarness: b.Harness, Subagents: b.Subagents, Exited: exited,
		Queued: s.d.Queued(w.ID),
	}
	row.AgentSessionID, row.AgentSessionHarness = w.resumeID, w.resumeHarness
	row.Popup = w.popup != nil
	if w.granted {
		row.Grants = w.grants.List()
	}
	if snap := s.tracker.Arbiter().Get(w.ID); snap.SessionID != "" {
		row.AgentSessionID, row.AgentSessionHarness = snap.SessionID, snap.ConversationHarness()
	}
	return row
}

// target resolves session and window params. Called with s.mu held.
func (s *Table) target(cn Call, session, window string) (*Session, *Window, *proto.Error) {
	if session == "" && window != "" {
		if w := s.windows[window]; w != nil { // a full id names its session
			if err := s.gateTargetLocked(cn, w.session, w); err != nil { // target.go
				return nil, nil, err
			}
			return w.session, w, nil
		}
	}
	ss, err := s.session(cn, session)
	if err != nil {
		return nil, nil, err
	}
	w, err := s.window(cn, ss, window)
	if err != nil {
		return nil, nil, err
	}
	return ss, w, nil
}

// WindowVerbs adds new-window, list-windows and get-window to the verb
// table.
func (s *Table) WindowVerbs(add AddFunc) {
	p, h := handler(func(cn Call, p *proto.NewWindowParams) (any, *proto.Error) {
		s.mu.Lock()
		ss, err := s.session(cn, p.Session)
		if err == nil {
			err = nameTakenLocked(ss, p.Name, nil) // resolve.go
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		g, granted, err := s.d.NewGrants(cn, p.Grants) // daemon's verbs_grants.go
		if err != nil {
			return nil, err
		}
		w, err := s.startWindow(ss, windowSpec{name: p.Name, argv: p.Argv, cwd: p.Cwd, workspace: p.Workspace, noFocus: p.NoFocus, grants: g, granted: granted})
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		idx := s.windowRowLocked(w).Index
		auto := w.name == ""
		return proto.WindowCreated{Type: "window_created", WindowID: w.ID, Name: w.DisplayName(), AutomaticName: &auto, Session: ss.Name,
			Workspace: w.workspace, Index: idx, PID: w.proc.Pid(), PtyID: w.ID, Focused: ss.focused == w,
			Width: w.cols, Height: w.rows, Unplaced: !w.placed}, nil
	})
	add("new-window", drpc.Opens, "Open a window running the shell (or argv) in a session", "window_created",
		`{"verb":"new-window","params":{"session":"work","name":"build","cwd":"/src"}}`, p, h)

	p, h = handler(func(cn Call, p *proto.SessionParams) (any, *proto.Error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		ss, err := s.session(cn, p.Session)
		if err != nil {
			return nil, err
		}
		res := proto.WindowList{Type: "window_list", Session: ss.Name, CurrentWorkspace: ss.workspace, FocusedIndex: -1,
			Windows: []proto.Window{}, WorkspaceWindows: []string{}}
		for _, w := range ss.windows {
			r := s.windowRowLocked(w)
			if r.Focused {
				res.FocusedIndex, res.FocusedWindowID = r.Index, r.WindowID
			}
			if r.Workspace == ss.workspace {
				res.WorkspaceWindows = append(res.WorkspaceWindows, r.WindowID)
			}
			res.Windows = append(res.Windows, r)
		}
		res.Total = len(res.Windows)
		return res, nil
	})
	add("list-windows", drpc.Reads, "List a session's windows with index, id, name, workspace, size and agent state", "window_list", `{"verb":"list-windows","params":{"session":"work"}}`, p, h)

	p, h = handler(func(cn Call, p *proto.WindowParams) (any, *proto.Error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		_, w, err := s.target(cn, p.Session, p.Window)
		if err != nil {
			return nil, err
		}
		return proto.WindowResult{Type: "window", Window: s.windowRowLocked(w)}, nil
	})
	add("get-window", drpc.Reads, "Describe one window", "window", `{"verb":"get-window","params":{"window":"build"}}`, p, h)
	// focus-window, move-window, set-window, close-window and run-command
	// are in verbs_arrange.go, registered right after these.
}
