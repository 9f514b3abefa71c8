package daemon

import (
	"github.com/tuios/tuios/internal/proto"
)

type windowRow struct {
	WindowID string `json:"window_id"`
	Index    int    `json:"index"`
	// Name is the window's name: the one given to it, else its
	// automatic name (AutomaticName true): what runs in its foreground.
	// Never the title, which programs rewrite as they work.
	Name          string `json:"name"`
	AutomaticName bool   `json:"automatic_name"`
	Title         string `json:"title"`
	DisplayName   string `json:"display_name"` // = name, for scripts written before name carried the automatic one
	Session       string `json:"session"`
	Workspace     int    `json:"workspace"`
	Focused       bool   `json:"focused"`
	Minimized     bool   `json:"minimized"`
	X             int    `json:"x"`
	Y             int    `json:"y"`
	Width         int    `json:"width"`
	Height        int    `json:"height"`
	Unplaced      bool   `json:"unplaced"` // x, y, width, height are a placeholder: no client has tiled it yet
	PtyID         string `json:"pty_id"`
	PID           int    `json:"pid"`
	Cwd           string `json:"cwd,omitempty"`
	AgentState    string `json:"agent_state"`
	AgentHarness  string `json:"agent_harness,omitempty"`
	Subagents     int    `json:"agent_subagents"`
	Exited        bool   `json:"exited"`
	Queued        int    `json:"agent_queued"` // entries in the reply queue (queue.go)
	// The agent conversation the pane holds, or held before a restart
	// (internal/daemon/resume): what resume-agent types.
	AgentSessionID      string `json:"agent_session_id,omitempty"`
	AgentSessionHarness string `json:"agent_session_harness,omitempty"`
	// Popup is true for a window opened with tuios popup (popup.go): x,
	// y, width and height are its frame, centred over the tiles.
	Popup bool `json:"popup"`
	// Grants are the pane's own grants, when it was given some (--grants,
	// set-pane-grants); absent when it holds the default.
	Grants []string `json:"grants,omitempty"`
}

// windowRowLocked describes a window. Called with s.mu held.
func (s *Server) windowRowLocked(w *Window) windowRow {
	idx := 0
	for i, x := range w.session.windows {
		if x == w {
			idx = i
		}
	}
	b := s.tracker.Arbiter().Brief(w.ID)
	w.mu.Lock()
	exited := w.exited
	w.mu.Unlock()
	at := w.placementLocked()
	row := windowRow{
		WindowID: w.ID, Index: idx, Name: w.DisplayName(), AutomaticName: w.name == "", Title: w.Title(), DisplayName: w.DisplayName(),
		Session: w.session.Name, Workspace: w.workspace, Focused: w.session.focused == w, Minimized: w.minimized,
		X: at.x, Y: at.y, Width: at.w, Height: at.h, Unplaced: !w.placed, PtyID: w.ID, PID: w.proc.Pid(), Cwd: w.cwdNow(),
		AgentState: b.State.String(), AgentHarness: b.Harness, Subagents: b.Subagents, Exited: exited,
		Queued: s.queue.count(w.ID),
	}
	row.AgentSessionID, row.AgentSessionHarness = w.resumeID, w.resumeHarness
	row.Popup = w.popup != nil
	if w.granted {
		row.Grants = w.grants.List()
	}
	if snap := s.tracker.Arbiter().Get(w.ID); snap.SessionID != "" {
		row.AgentSessionID, row.AgentSessionHarness = snap.SessionID, snap.Harness
	}
	return row
}

type newWindowParams struct {
	Session   string   `json:"session" desc:"the session (default: most recently active)" maxlen:"4096"`
	Name      string   `json:"name" desc:"the window's name" maxlen:"256"`
	Workspace int      `json:"workspace" desc:"the workspace to open it on (default: the current one)" min:"1" max:"9"`
	Cwd       string   `json:"cwd" desc:"the working directory" maxlen:"4096"`
	NoFocus   bool     `json:"no_focus" desc:"do not focus the new window"`
	Argv      []string `json:"argv" desc:"the command to run (default: the shell)" maxlen:"4096"`
	Grants    string   `json:"grants" desc:"what the pane may do through TUIOS: read, write, fan, respond, files, admin, comma-separated, or none (default: [agents.permissions]; from a pane, never more than it holds)" maxlen:"256"`
}

type windowParams struct {
	Session string `json:"session" desc:"the session (default: the caller's, else most recently active)"`
	Window  string `json:"window" desc:"the window: id, index, unique id prefix or name (default: the caller's pane, else the focused one)"`
}

// targetNamed is target for a caller without s.mu: it also returns the
// window's display name, read under the lock.
func (s *Server) targetNamed(cn *conn, session, window string) (*Session, *Window, string, *proto.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, w, err := s.target(cn, session, window)
	if err != nil {
		return nil, nil, "", err
	}
	return ss, w, w.DisplayName(), nil
}

// target resolves session and window params. Called with s.mu held.
func (s *Server) target(cn *conn, session, window string) (*Session, *Window, *proto.Error) {
	if session == "" && window != "" {
		if w := s.windows[window]; w != nil { // a full id names its session
			if err := s.gateTargetLocked(cn, w.session, w); err != nil { // gate.go
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

func (s *Server) windowVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *newWindowParams) (any, *proto.Error) {
		s.mu.Lock()
		ss, err := s.session(cn, p.Session)
		if err == nil {
			err = nameTakenLocked(ss, p.Name, nil) // resolve.go
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		g, granted, err := s.newGrants(cn, p.Grants) // verbs_grants.go
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
		return map[string]any{"type": "window_created", "window_id": w.ID, "name": w.DisplayName(), "automatic_name": w.name == "", "session": ss.Name,
			"workspace": w.workspace, "index": idx, "pid": w.proc.Pid(), "pty_id": w.ID, "focused": ss.focused == w,
			"width": w.cols, "height": w.rows, "unplaced": !w.placed}, nil
	})
	add("new-window", opens, "Open a window running the shell (or argv) in a session", "window_created",
		`{"verb":"new-window","params":{"session":"work","name":"build","cwd":"/src"}}`, p, h)

	p, h = handler(func(cn *conn, p *sessionParams) (any, *proto.Error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		ss, err := s.session(cn, p.Session)
		if err != nil {
			return nil, err
		}
		rows := []windowRow{}
		onWorkspace := []string{}
		res := map[string]any{"type": "window_list", "session": ss.Name, "current_workspace": ss.workspace, "focused_index": -1, "focused_window_id": ""}
		for _, w := range ss.windows {
			r := s.windowRowLocked(w)
			if r.Focused {
				res["focused_index"], res["focused_window_id"] = r.Index, r.WindowID
			}
			if r.Workspace == ss.workspace {
				onWorkspace = append(onWorkspace, r.WindowID)
			}
			rows = append(rows, r)
		}
		res["windows"], res["total"], res["workspace_windows"] = rows, len(rows), onWorkspace
		return res, nil
	})
	add("list-windows", reads, "List a session's windows with index, id, name, workspace, size and agent state", "window_list", `{"verb":"list-windows","params":{"session":"work"}}`, p, h)

	p, h = handler(func(cn *conn, p *windowParams) (any, *proto.Error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		_, w, err := s.target(cn, p.Session, p.Window)
		if err != nil {
			return nil, err
		}
		r := s.windowRowLocked(w)
		return struct {
			Type string `json:"type"`
			windowRow
		}{"window", r}, nil
	})
	add("get-window", reads, "Describe one window", "window", `{"verb":"get-window","params":{"window":"build"}}`, p, h)
	// focus-window, move-window, set-window, close-window and run-command
	// are in verbs_arrange.go, registered right after these.
}
