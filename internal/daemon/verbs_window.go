package daemon

import (
	"sort"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

type windowRow struct {
	WindowID     string `json:"window_id"`
	Index        int    `json:"index"`
	Name         string `json:"name"`
	Title        string `json:"title"`
	DisplayName  string `json:"display_name"`
	Session      string `json:"session"`
	Workspace    int    `json:"workspace"`
	Focused      bool   `json:"focused"`
	Minimized    bool   `json:"minimized"`
	X            int    `json:"x"`
	Y            int    `json:"y"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
	PtyID        string `json:"pty_id"`
	PID          int    `json:"pid"`
	Cwd          string `json:"cwd,omitempty"`
	AgentState   string `json:"agent_state"`
	AgentHarness string `json:"agent_harness,omitempty"`
	Subagents    int    `json:"agent_subagents"`
	Exited       bool   `json:"exited"`
	Queued       int    `json:"agent_queued"` // entries in the reply queue (queue.go)
	// The agent conversation the pane holds, or held before a restart
	// (resume.go): what resume-agent types.
	AgentSessionID      string `json:"agent_session_id,omitempty"`
	AgentSessionHarness string `json:"agent_session_harness,omitempty"`
}

// windowRow describes a window. Called with s.mu held.
func (s *Server) windowRow(w *Window) windowRow {
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
	at := w.placement()
	row := windowRow{
		WindowID: w.ID, Index: idx, Name: w.name, Title: w.Title(), DisplayName: w.DisplayName(),
		Session: w.session.Name, Workspace: w.workspace, Focused: w.session.focused == w, Minimized: w.minimized,
		X: at.x, Y: at.y, Width: at.w, Height: at.h, PtyID: w.ID, PID: w.proc.Pid(), Cwd: w.dirNow(),
		AgentState: b.State.String(), AgentHarness: b.Harness, Subagents: b.Subagents, Exited: exited,
		Queued: s.queue.count(w.ID),
	}
	row.AgentSessionID, row.AgentSessionHarness = w.resumeID, w.resumeHarness
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
}

type windowParams struct {
	Session string `json:"session" desc:"the session (default: the caller's, else most recently active)"`
	Window  string `json:"window" desc:"the window: id, index, unique id prefix or name (default: the caller's pane, else the focused one)"`
}

type moveWindowParams struct {
	Session   string `json:"session" desc:"the session"`
	Window    string `json:"window" desc:"the window (default: the caller's pane, else the focused one)"`
	Workspace int    `json:"workspace" req:"true" desc:"the workspace to move it to" min:"1" max:"9"`
}

type setWindowParams struct {
	Session  string  `json:"session" desc:"the session"`
	Window   string  `json:"window" desc:"the window (default: the caller's pane, else the focused one)"`
	Name     *string `json:"name" desc:"a new name (empty clears it)" maxlen:"256"`
	Minimize *bool   `json:"minimize" desc:"minimize (true) or restore (false)"`
}

type runCommandParams struct {
	Session string   `json:"session" desc:"the session"`
	Window  string   `json:"window" desc:"the window the command acts on (default: the caller's pane, else the focused one)"`
	Command string   `json:"command" desc:"the command to run" accepted:"CloseWindow,NewWindow,FocusNext,FocusPrev,ToggleMinimize,ToggleZoom,NextWorkspace,PrevWorkspace" check:"handler"`
	Args    []string `json:"args" desc:"the command's arguments" maxlen:"64"`
	List    bool     `json:"list" desc:"list the commands instead of running one"`
}

var runCommands = map[string]string{
	"CloseWindow":    "close the window",
	"NewWindow":      "open a new window with the shell",
	"FocusNext":      "focus the next window on the current workspace",
	"FocusPrev":      "focus the previous window on the current workspace",
	"ToggleMinimize": "minimize or restore the window",
	"ToggleZoom":     "let the focused window fill the session's area, or tile it again",
	"NextWorkspace":  "switch to the next workspace",
	"PrevWorkspace":  "switch to the previous workspace",
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
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		w, err := s.startWindow(ss, windowSpec{name: p.Name, argv: p.Argv, cwd: p.Cwd, workspace: p.Workspace, noFocus: p.NoFocus})
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		idx := s.windowRow(w).Index
		return map[string]any{"type": "window_created", "window_id": w.ID, "name": w.DisplayName(), "session": ss.Name,
			"workspace": w.workspace, "index": idx, "pid": w.proc.Pid(), "pty_id": w.ID, "focused": ss.focused == w,
			"width": w.cols, "height": w.rows, "unplaced": !w.placed}, nil
	})
	add("new-window", "Open a window running the shell (or argv) in a session", "window_created",
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
			r := s.windowRow(w)
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
	add("list-windows", "List a session's windows with index, id, name, workspace, size and agent state", "window_list", `{"verb":"list-windows","params":{"session":"work"}}`, p, h)

	p, h = handler(func(cn *conn, p *windowParams) (any, *proto.Error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		_, w, err := s.target(cn, p.Session, p.Window)
		if err != nil {
			return nil, err
		}
		r := s.windowRow(w)
		return struct {
			Type string `json:"type"`
			windowRow
		}{"window", r}, nil
	})
	add("get-window", "Describe one window", "window", `{"verb":"get-window","params":{"window":"build"}}`, p, h)

	p, h = handler(func(cn *conn, p *windowParams) (any, *proto.Error) {
		s.mu.Lock()
		ss, w, err := s.target(cn, p.Session, p.Window)
		ws := 0
		if err == nil {
			ss.focused, ss.workspace, w.minimized = w, w.workspace, false
			ss.active = nowTime()
			ws = w.workspace
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		s.retile(ss)
		s.hub.publish(event{Type: "window-focused", Session: ss.Name, Window: w.ID})
		return map[string]any{"type": "window_focused", "window_id": w.ID, "workspace": ws}, nil
	})
	add("focus-window", "Focus a window (switching to its workspace)", "window_focused", `{"verb":"focus-window","params":{"window":"build"}}`, p, h)

	p, h = handler(func(cn *conn, p *moveWindowParams) (any, *proto.Error) {
		s.mu.Lock()
		ss, w, err := s.target(cn, p.Session, p.Window)
		if err == nil {
			w.workspace = p.Workspace
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		s.retile(ss)
		s.hub.publish(event{Type: "window-moved", Session: ss.Name, Window: w.ID})
		return map[string]any{"type": "window_moved", "window_id": w.ID, "workspace": p.Workspace}, nil
	})
	add("move-window", "Move a window to another workspace", "window_moved", `{"verb":"move-window","params":{"window":"build","workspace":2}}`, p, h)

	p, h = handler(func(cn *conn, p *setWindowParams) (any, *proto.Error) {
		if p.Name == nil && p.Minimize == nil {
			return nil, proto.Errorf(proto.CodeInvalidParams, "nothing to set: give name or minimize")
		}
		s.mu.Lock()
		ss, w, err := s.target(cn, p.Session, p.Window)
		if err == nil {
			if p.Name != nil {
				w.name = strings.TrimSpace(*p.Name)
			}
			if p.Minimize != nil {
				w.minimized = *p.Minimize
			}
		}
		var row windowRow
		if err == nil {
			row = s.windowRow(w)
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if p.Name != nil {
			s.hub.publish(event{Type: "window-retitled", Session: ss.Name, Window: w.ID})
			s.att.update(w.ID) // its Inbox rows show the new name
		}
		if p.Minimize != nil {
			s.retile(ss)
			typ := "window-restored"
			if *p.Minimize {
				typ = "window-minimized"
			}
			s.hub.publish(event{Type: typ, Session: ss.Name, Window: w.ID})
		}
		return struct {
			Type string `json:"type"`
			windowRow
		}{"window", row}, nil
	})
	add("set-window", "Rename, minimize or restore a window", "window", `{"verb":"set-window","params":{"window":"0","name":"build"}}`, p, h)

	p, h = handler(func(cn *conn, p *windowParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, err := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		s.closeWindow(w)
		return map[string]any{"type": "ok"}, nil
	})
	add("close-window", "Close a window and end its process", "ok", `{"verb":"close-window","params":{"window":"build"}}`, p, h)

	p, h = handler(func(cn *conn, p *runCommandParams) (any, *proto.Error) {
		if p.List || p.Command == "" {
			names := make([]string, 0, len(runCommands))
			for n := range runCommands {
				names = append(names, n)
			}
			sort.Strings(names)
			type cmd struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			}
			out := []cmd{}
			for _, n := range names {
				out = append(out, cmd{n, runCommands[n]})
			}
			return map[string]any{"type": "command_list", "commands": out}, nil
		}
		return s.runCommand(cn, p)
	})
	add("run-command", "Run a window-manager command by name (list: the commands)", "command_result or command_list",
		`{"verb":"run-command","params":{"command":"CloseWindow","window":"build"}}`, p, h)
}

func (s *Server) runCommand(cn *conn, p *runCommandParams) (any, *proto.Error) {
	if _, ok := runCommands[p.Command]; !ok {
		names := make([]string, 0, len(runCommands))
		for n := range runCommands {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, proto.Errorf(proto.CodeInvalidParams, "unknown command %q", p.Command).
			WithHint(proto.Hint{Param: "command", Accepted: names, DidYouMean: nearestWord(p.Command, names)})
	}
	done := func() (any, *proto.Error) {
		return map[string]any{"type": "command_result", "command": p.Command}, nil
	}
	switch p.Command {
	case "NewWindow":
		s.mu.Lock()
		ss, err := s.session(cn, p.Session)
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if _, err := s.startWindow(ss, windowSpec{}); err != nil {
			return nil, err
		}
		return done()
	case "NextWorkspace", "PrevWorkspace":
		s.mu.Lock()
		ss, err := s.session(cn, p.Session)
		if err == nil {
			d := 1
			if p.Command == "PrevWorkspace" {
				d = Workspaces - 1
			}
			ss.workspace = (ss.workspace-1+d)%Workspaces + 1
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		s.retile(ss)
		s.hub.publish(event{Type: "workspace-switched", Session: ss.Name})
		return done()
	}
	s.mu.Lock()
	ss, w, err := s.target(cn, p.Session, p.Window)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	switch p.Command {
	case "CloseWindow":
		s.mu.Unlock()
		s.closeWindow(w)
		return done()
	case "ToggleMinimize":
		w.minimized = !w.minimized
	case "ToggleZoom":
		// Zoom acts on the window named (default: the focused one), so
		// it is focused first: what fills the area is what was asked.
		ss.zoomed = !ss.zoomed
		if ss.zoomed {
			ss.focused, ss.workspace, w.minimized = w, w.workspace, false
		}
	case "FocusNext", "FocusPrev":
		var same []*Window
		at := 0
		for _, x := range ss.windows {
			if x.workspace == ss.workspace {
				if x == w {
					at = len(same)
				}
				same = append(same, x)
			}
		}
		if len(same) > 0 {
			d := 1
			if p.Command == "FocusPrev" {
				d = len(same) - 1
			}
			ss.focused = same[(at+d)%len(same)]
		}
	}
	s.mu.Unlock()
	s.retile(ss)
	return done()
}
