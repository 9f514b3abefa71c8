package proto

// NewWindowParams are the params of new-window.
type NewWindowParams struct {
	Session   string   `json:"session,omitempty" desc:"the session (default: most recently active)" maxlen:"4096"`
	Name      string   `json:"name,omitempty" desc:"the window's name" maxlen:"256"`
	Workspace int      `json:"workspace,omitempty" desc:"the workspace to open it on (default: the current one)" min:"1" max:"9"`
	Cwd       string   `json:"cwd,omitempty" desc:"the working directory" maxlen:"4096"`
	NoFocus   bool     `json:"no_focus,omitempty" desc:"do not focus the new window"`
	Argv      []string `json:"argv,omitempty" desc:"the command to run (default: the shell)" maxlen:"4096"`
	Grants    string   `json:"grants,omitempty" desc:"what the pane may do through TUIOS: read, write, fan, respond, files, admin, comma-separated, or none (default: [agents.permissions]; from a pane, never more than it holds)" maxlen:"256"`
}

// WindowParams are the params of close-window and get-window.
type WindowParams struct {
	Session string `json:"session,omitempty" desc:"the session (default: the caller's, else most recently active)"`
	Window  string `json:"window,omitempty" desc:"the window: id, index, unique id prefix or name (default: the caller's pane, else the focused one)"`
}

// PopupParams are the params of popup.
type PopupParams struct {
	Session string   `json:"session,omitempty" desc:"the session (default: the caller's, else most recently active)" maxlen:"4096"`
	Width   string   `json:"width,omitempty" desc:"the popup's width, frame included: cells (60) or a share of the session's area (60%)" default:"80%" maxlen:"16"`
	Height  string   `json:"height,omitempty" desc:"the popup's height, frame included: cells (20) or a share of the session's area (20%)" default:"60%" maxlen:"16"`
	Cwd     string   `json:"cwd,omitempty" desc:"the command's working directory (default: the daemon's)" maxlen:"4096"`
	Argv    []string `json:"argv,omitempty" req:"true" desc:"the command and its arguments, run without a shell" maxlen:"4096"`
}
