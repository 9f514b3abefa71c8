package proto

// FocusWindowParams are the params of focus-window.
type FocusWindowParams struct {
	Session   string `json:"session,omitempty" desc:"the session"`
	Window    string `json:"window,omitempty" desc:"the window to focus; with relative or direction, the one to start from (default: the caller's pane, else the focused one; with relative or direction, the focused one)"`
	Relative  string `json:"relative,omitempty" desc:"focus the next or previous window on the starting window's workspace (minimized ones are skipped)" accepted:"next,prev"`
	Direction string `json:"direction,omitempty" desc:"focus the window beside the starting one on screen; needs a client attached (needs_client)" accepted:"left,right,up,down"`
}

// MoveWindowParams are the params of move-window.
type MoveWindowParams struct {
	Session   string `json:"session,omitempty" desc:"the session"`
	Window    string `json:"window,omitempty" desc:"the window (default: the caller's pane, else the focused one)"`
	Workspace int    `json:"workspace,omitempty" req:"true" desc:"the workspace to move it to" min:"1" max:"9"`
	Follow    bool   `json:"follow,omitempty" desc:"switch the session to that workspace and focus the window"`
}

// SetWindowParams are the params of set-window.
type SetWindowParams struct {
	Session  string  `json:"session,omitempty" desc:"the session"`
	Window   string  `json:"window,omitempty" desc:"the window (default: the caller's pane, else the focused one)"`
	Name     *string `json:"name,omitempty" desc:"a new name (empty clears it)" maxlen:"256"`
	Minimize *bool   `json:"minimize,omitempty" desc:"minimize (true) or restore (false)"`
}

// RunCommandParams are the params of run-command.
type RunCommandParams struct {
	Session string   `json:"session,omitempty" desc:"the session"`
	Window  string   `json:"window,omitempty" desc:"the window the command acts on (default: the caller's pane, else the focused one)"`
	Command string   `json:"command,omitempty" desc:"the command to run: its tape name (ToggleZoom) or its keymap name (toggle_zoom)" accepted:"CloseWindow,NewWindow,FocusNext,FocusPrev,ToggleMinimize,ToggleZoom,NextWorkspace,PrevWorkspace" check:"handler"`
	Args    []string `json:"args,omitempty" desc:"the command's arguments" maxlen:"64"`
	List    bool     `json:"list,omitempty" desc:"list the commands instead of running one"`
}

// SplitWindowParams are the params of split-window.
type SplitWindowParams struct {
	Session   string   `json:"session,omitempty" desc:"the session"`
	Window    string   `json:"window,omitempty" desc:"the window to split (default: the caller's pane, else the focused one)"`
	Direction string   `json:"direction,omitempty" desc:"vertical: a vertical line between them, the new window on the right (tmux's split-window -h, prefix %); horizontal: stacked, the new window below (tmux's -v, prefix \"); right, left, down or up name the new window's side" accepted:"vertical,horizontal,right,left,down,up" default:"vertical"`
	Percent   int      `json:"percent,omitempty" desc:"the new window's share of the target's tile, in percent" min:"10" max:"90" default:"50"`
	Name      string   `json:"name,omitempty" desc:"the new window's name" maxlen:"256"`
	Cwd       string   `json:"cwd,omitempty" desc:"its working directory (default: the target's)" maxlen:"4096"`
	NoFocus   bool     `json:"no_focus,omitempty" desc:"do not focus the new window"`
	Argv      []string `json:"argv,omitempty" desc:"the command to run (default: the shell)" maxlen:"4096"`
}

// SetLayoutParams are the params of set-layout.
type SetLayoutParams struct {
	Session  string `json:"session,omitempty" desc:"the session"`
	Tiling   *bool  `json:"tiling,omitempty" desc:"true tiles the windows (the workspace's splits); false floats them: each keeps the place it has"`
	Equalize bool   `json:"equalize,omitempty" desc:"even out the splits of the workspace on screen: every tile of a split the same size (floating: places the windows once, they stay floating)"`
}
