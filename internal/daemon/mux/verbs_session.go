package mux

import (
	"strconv"
	"time"

	"github.com/tuios/tuios/internal/daemon/core"
	drpc "github.com/tuios/tuios/internal/daemon/rpc"
	"github.com/tuios/tuios/internal/proto"
)

// SessionVerbs adds the session verbs to the verb table: new-session,
// list-sessions, kill-session, session-info, list-workspaces and the
// like.
func (s *Table) SessionVerbs(add AddFunc) {
	p, h := handler(func(cn Call, p *proto.NoParams) (any, *proto.Error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		rows := []proto.SessionRow{}
		for _, ss := range s.sessionsSorted() {
			if c, known := admitted(cn); known && !c.reachesLocked(s.d.Fans(), ss) { // a pane without admin lists its own
				continue
			}
			rows = append(rows, s.sessionRowLocked(ss))
		}
		return proto.SessionList{Type: "session_list", Sessions: rows, Total: len(rows)}, nil
	})
	add("list-sessions", drpc.Reads, "List the sessions", "session_list", `{"verb":"list-sessions"}`, p, h)

	p, h = handler(func(cn Call, p *proto.NewSessionParams) (any, *proto.Error) {
		s.mu.Lock()
		ss, err := s.newSessionLocked(p.Name)
		if err == nil && p.Cols > 0 {
			ss.cols = p.Cols
		}
		if err == nil && p.Rows > 0 {
			ss.rows = p.Rows
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		res := proto.SessionCreated{Type: "session_created", Session: ss.Name, SessionID: ss.ID}
		if p.Window == nil || *p.Window {
			g, granted, _ := s.d.NewGrants(cn, "") // daemon's verbs_grants.go: never more than a pane holds
			w, err := s.startWindow(ss, windowSpec{name: p.WindowName, argv: p.Argv, cwd: p.Cwd, grants: g, granted: granted})
			if err != nil {
				s.EndSession(ss)
				return nil, err
			}
			res.Windows, res.WindowID, res.PtyID = 1, w.ID, w.ID
			s.mu.Lock()
			res.WindowName = w.DisplayName()
			res.Width, res.Height = w.cols, w.rows // a concurrent retile writes them
			s.mu.Unlock()
		}
		return res, nil
	})
	add("new-session", drpc.Opens, "Create a session (with a first window unless window is false); it runs detached", "session_created",
		`{"verb":"new-session","params":{"name":"scratch","window_name":"build","cwd":"/src"}}`, p, h)

	p, h = handler(func(cn Call, p *proto.KillSessionParams) (any, *proto.Error) {
		s.mu.Lock()
		ss, err := s.session(cn, p.Session)
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		s.EndSession(ss)
		return proto.SessionKilled{Type: "session_killed", Session: ss.Name}, nil
	})
	add("kill-session", drpc.Opens, "Kill a session and every window in it", "session_killed", `{"verb":"kill-session","params":{"session":"scratch"}}`, p, h)

	p, h = handler(func(cn Call, p *proto.SessionParams) (any, *proto.Error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		ss, err := s.session(cn, p.Session)
		if err != nil {
			return nil, err
		}
		named := map[string]string{}
		for k, v := range ss.wsNames {
			named[itoa(k)] = v
		}
		return proto.SessionInfo{Type: "session_info", Session: ss.Name, SessionID: ss.ID, DisplayName: ss.shownNameLocked(), Accent: ss.accent, Windows: len(ss.windows),
			CurrentWorkspace: ss.workspace, Workspaces: Workspaces, Tiling: tilingMode(ss), Zoomed: ss.zoomed,
			Width: ss.cols, Height: ss.rows, Attached: s.attach.Shows(ss), WorkspaceNames: named}, nil
	})
	add("session-info", drpc.Reads, "Describe a session: windows, current workspace, size", "session_info", `{"verb":"session-info","params":{"session":"work"}}`, p, h)

	p, h = handler(func(cn Call, p *proto.SessionParams) (any, *proto.Error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		ss, err := s.session(cn, p.Session)
		if err != nil {
			return nil, err
		}
		out := []proto.Workspace{}
		for i := 1; i <= Workspaces; i++ {
			n := 0
			for _, w := range ss.windows {
				if w.workspace == i {
					n++
				}
			}
			out = append(out, proto.Workspace{Workspace: i, Name: ss.wsNames[i], Windows: n, Current: i == ss.workspace})
		}
		return proto.WorkspaceList{Type: "workspace_list", Session: ss.Name, CurrentWorkspace: ss.workspace, Workspaces: out}, nil
	})
	add("list-workspaces", drpc.Reads, "List a session's workspaces and how many windows each holds", "workspace_list", `{"verb":"list-workspaces"}`, p, h)

	p, h = handler(func(cn Call, p *proto.SelectWorkspaceParams) (any, *proto.Error) {
		s.mu.Lock()
		ss, err := s.session(cn, p.Session)
		if err != nil {
			s.mu.Unlock()
			return nil, err
		}
		prev := ss.workspace
		ss.workspace = p.Workspace
		if prev != p.Workspace || ss.focused == nil || ss.focused.workspace != p.Workspace {
			for _, w := range ss.windows {
				if w.workspace == p.Workspace {
					ss.focused = w
				}
			}
		}
		ss.active = nowTime()
		res := proto.WorkspaceSelected{Type: "workspace_selected", Session: ss.Name, Workspace: p.Workspace,
			PreviousWorkspace: prev, Changed: prev != p.Workspace, FocusedWindowID: focusedID(ss)}
		s.mu.Unlock()
		s.Retile(ss)
		s.hub.Publish(core.Event{Type: "workspace-switched", Session: ss.Name})
		return res, nil
	})
	add("select-workspace", drpc.Arranges, "Switch a session to a workspace", "workspace_selected", `{"verb":"select-workspace","params":{"workspace":2}}`, p, h)
}

// sessionRowLocked summarises a session. Called with s.mu held.
func (s *Table) sessionRowLocked(ss *Session) proto.SessionRow {
	row := proto.SessionRow{Name: ss.Name, ID: ss.ID, Display: ss.shownNameLocked(), Accent: ss.accent, Windows: len(ss.windows), Workspace: ss.workspace, Created: ss.created.UTC().Format("2006-01-02T15:04:05Z"),
		Attached: s.attach.Shows(ss)}
	loud := 0
	for _, w := range ss.windows {
		st := s.tracker.Arbiter().Brief(w.ID)
		if st.State.String() != "none" || st.Harness != "" {
			row.Agents++
		}
		if st.State.String() == "none" {
			continue
		}
		// The rail's order, finished turns not yet seen included.
		if l := core.Loudness(s.tracker.Arbiter().Get(w.ID)); l > loud {
			loud, row.Loudest = l, st.State.String()
		}
	}
	return row
}

func itoa(n int) string { return strconv.Itoa(n) }

func nowTime() time.Time { return time.Now() }
