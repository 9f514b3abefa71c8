package proto

// The results of the session and workspace verbs. Each carries its Type
// ("session_list", …) so a reader of a stream of answers can tell them
// apart; the daemon sets it.

// SessionRow is one session of list-sessions.
type SessionRow struct {
	Name string `json:"name"`
	ID   string `json:"session_id"`
	// Display is the display name, the name when none was set.
	Display   string `json:"display_name"`
	Accent    string `json:"accent,omitempty"`
	Windows   int    `json:"windows"`
	Workspace int    `json:"current_workspace"`
	Created   string `json:"created"` // RFC 3339, UTC
	Attached  bool   `json:"attached"`
	// Agents counts the windows with an agent; Loudest is the state of
	// the one that most needs the person ("" none).
	Agents  int    `json:"agents"`
	Loudest string `json:"loudest_state"`
}

// SessionList is list-sessions' result.
type SessionList struct {
	Type     string       `json:"type"` // session_list
	Sessions []SessionRow `json:"sessions"`
	Total    int          `json:"total"`
}

// SessionCreated is new-session's result. The window fields are set
// when a first window was opened (Windows is 1).
type SessionCreated struct {
	Type       string `json:"type"` // session_created
	Session    string `json:"session"`
	SessionID  string `json:"session_id"`
	Windows    int    `json:"windows"`
	WindowID   string `json:"window_id,omitempty"`
	WindowName string `json:"window_name,omitempty"`
	Width      int    `json:"width,omitempty"`
	Height     int    `json:"height,omitempty"`
	PtyID      string `json:"pty_id,omitempty"`
}

// SessionKilled is kill-session's result.
type SessionKilled struct {
	Type    string `json:"type"` // session_killed
	Session string `json:"session"`
}

// SessionInfo is session-info's result.
type SessionInfo struct {
	Type             string `json:"type"` // session_info
	Session          string `json:"session"`
	SessionID        string `json:"session_id"`
	DisplayName      string `json:"display_name"`
	Accent           string `json:"accent"`
	Windows          int    `json:"windows"`
	CurrentWorkspace int    `json:"current_workspace"`
	Workspaces       int    `json:"workspaces"` // how many a session has
	Tiling           string `json:"tiling"`
	Zoomed           bool   `json:"zoomed"`
	Width            int    `json:"width"`
	Height           int    `json:"height"`
	Attached         bool   `json:"attached"`
	// WorkspaceNames maps a workspace's number ("2") to its name.
	WorkspaceNames map[string]string `json:"workspace_names"`
}

// Workspace is one workspace of list-workspaces.
type Workspace struct {
	Workspace int    `json:"workspace"`
	Name      string `json:"name,omitempty"`
	Windows   int    `json:"windows"`
	Current   bool   `json:"current"`
}

// WorkspaceList is list-workspaces' result.
type WorkspaceList struct {
	Type             string      `json:"type"` // workspace_list
	Session          string      `json:"session"`
	CurrentWorkspace int         `json:"current_workspace"`
	Workspaces       []Workspace `json:"workspaces"`
}

// WorkspaceSelected is select-workspace's result.
type WorkspaceSelected struct {
	Type              string `json:"type"` // workspace_selected
	Session           string `json:"session"`
	Workspace         int    `json:"workspace"`
	PreviousWorkspace int    `json:"previous_workspace"`
	Changed           bool   `json:"changed"`
	FocusedWindowID   string `json:"focused_window_id"`
}

// SessionNameSet is set-session-name's result.
type SessionNameSet struct {
	Type        string `json:"type"` // session_name_set
	Session     string `json:"session"`
	DisplayName string `json:"display_name"`
	Changed     bool   `json:"changed"`
}

// SessionAccentSet is set-session-accent's result.
type SessionAccentSet struct {
	Type    string `json:"type"` // session_accent_set
	Session string `json:"session"`
	Accent  string `json:"accent"`
	Changed bool   `json:"changed"`
}

// WorkspaceNameSet is set-workspace-name's result.
type WorkspaceNameSet struct {
	Type      string `json:"type"` // workspace_name_set
	Session   string `json:"session"`
	Workspace int    `json:"workspace"`
	Name      string `json:"name"`
	Changed   bool   `json:"changed"`
}

// WorkspaceOrderSet is set-workspace-order's result.
type WorkspaceOrderSet struct {
	Type             string `json:"type"` // workspace_order_set
	Session          string `json:"session"`
	Order            []int  `json:"order"`
	CurrentWorkspace int    `json:"current_workspace"`
	WindowsMoved     int    `json:"windows_moved"`
}
