package proto

// NewSessionParams are the params of new-session.
type NewSessionParams struct {
	Name       string   `json:"name,omitempty" desc:"the session's name (default: the next free number)" maxlen:"256"`
	Window     *bool    `json:"window,omitempty" desc:"open a first window" default:"true"`
	WindowName string   `json:"window_name,omitempty" desc:"the first window's name" maxlen:"256"`
	Cwd        string   `json:"cwd,omitempty" desc:"the first window's working directory" maxlen:"4096"`
	Argv       []string `json:"argv,omitempty" desc:"the first window's command (default: the shell)" maxlen:"4096"`
	Cols       int      `json:"cols,omitempty" desc:"window width" min:"1" max:"1000" default:"80"`
	Rows       int      `json:"rows,omitempty" desc:"window height" min:"1" max:"1000" default:"24"`
}

// SessionParams are the params of list-windows, list-workspaces and session-info.
type SessionParams struct {
	Session string `json:"session,omitempty" desc:"the session (default: most recently active)"`
}

// KillSessionParams are the params of kill-session.
type KillSessionParams struct {
	Session string `json:"session,omitempty" req:"true" desc:"the session to kill"`
}

// SelectWorkspaceParams are the params of select-workspace.
type SelectWorkspaceParams struct {
	Session   string `json:"session,omitempty" desc:"the session (default: most recently active)"`
	Workspace int    `json:"workspace,omitempty" req:"true" desc:"the workspace" min:"1" max:"9"`
}

// SetSessionNameParams are the params of set-session-name.
type SetSessionNameParams struct {
	Session string  `json:"session,omitempty" desc:"the session (default: the caller's, else the most recently active)" maxlen:"4096"`
	Name    *string `json:"name,omitempty" req:"true" desc:"the display name, a label for people (up to 256 bytes, no control characters); \"\" clears it and the session's name shows" maxlen:"256"`
}

// SetSessionAccentParams are the params of set-session-accent.
type SetSessionAccentParams struct {
	Session string  `json:"session,omitempty" desc:"the session (default: the caller's, else the most recently active)" maxlen:"4096"`
	Accent  *string `json:"accent,omitempty" req:"true" desc:"the accent colour; \"\" clears it" accepted:"red,green,yellow,blue,magenta,cyan,white"`
}

// SetWorkspaceNameParams are the params of set-workspace-name.
type SetWorkspaceNameParams struct {
	Session   string  `json:"session,omitempty" desc:"the session (default: the caller's, else the most recently active)" maxlen:"4096"`
	Workspace int     `json:"workspace,omitempty" req:"true" desc:"the workspace" min:"1" max:"9"`
	Name      *string `json:"name,omitempty" req:"true" desc:"the workspace's name (up to 256 bytes, no control characters); \"\" clears it" maxlen:"256"`
}

// SetWorkspaceOrderParams are the params of set-workspace-order.
type SetWorkspaceOrderParams struct {
	Session string `json:"session,omitempty" desc:"the session (default: the caller's, else the most recently active)" maxlen:"4096"`
	Order   []int  `json:"order,omitempty" req:"true" desc:"the workspaces in their new order: the workspace listed first becomes 1, the second 2, …; a permutation of 1 to N (N up to 9), workspaces after N stay where they are" maxlen:"9"`
}
