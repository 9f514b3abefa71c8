package proto

// The results of the window verbs: new-window, list-windows, get-window,
// focus-window, move-window, set-window, close-window, run-command,
// split-window and set-layout.

// Window describes one window: a row of list-windows, and the body of
// get-window and set-window.
type Window struct {
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
	Queued        int    `json:"agent_queued"` // entries in the reply queue
	// The agent conversation the pane holds, or held before a restart:
	// what resume-agent types.
	AgentSessionID      string `json:"agent_session_id,omitempty"`
	AgentSessionHarness string `json:"agent_session_harness,omitempty"`
	// Popup is true for a window opened with tuios popup: x, y, width
	// and height are its frame, centred over the tiles.
	Popup bool `json:"popup"`
	// Grants are the pane's own grants, when it was given some (--grants,
	// set-pane-grants); absent when it holds the default.
	Grants []string `json:"grants,omitempty"`
}

// WindowList is list-windows' result. FocusedIndex is -1 and
// FocusedWindowID "" when no window is focused; WorkspaceWindows are the
// ids of the windows on the current workspace.
type WindowList struct {
	Type             string   `json:"type"` // window_list
	Session          string   `json:"session"`
	CurrentWorkspace int      `json:"current_workspace"`
	FocusedIndex     int      `json:"focused_index"`
	FocusedWindowID  string   `json:"focused_window_id"`
	Windows          []Window `json:"windows"`
	Total            int      `json:"total"`
	WorkspaceWindows []string `json:"workspace_windows"`
}

// WindowResult is get-window's result: the window, with Type "window".
type WindowResult struct {
	Type string `json:"type"` // window
	Window
}

// WindowSet is set-window's result: the window after the change, with
// what it was.
type WindowSet struct {
	Type string `json:"type"` // window
	Window
	PreviousName      string   `json:"previous_name"`
	PreviousMinimized bool     `json:"previous_minimized"`
	Changed           []string `json:"changed"` // "name", "minimized": what is different now
}

// WindowCreated is the result of new-window and of split-window. Only
// new-window's has AutomaticName and PtyID; only split-window's has
// SplitFrom (the window split), Direction (vertical or horizontal) and
// Side (where the new window went: left, right, up or down).
type WindowCreated struct {
	Type          string `json:"type"` // window_created
	WindowID      string `json:"window_id"`
	Name          string `json:"name"`
	AutomaticName *bool  `json:"automatic_name,omitempty"`
	Session       string `json:"session"`
	Workspace     int    `json:"workspace"`
	Index         int    `json:"index"`
	PID           int    `json:"pid"`
	PtyID         string `json:"pty_id,omitempty"`
	SplitFrom     string `json:"split_from,omitempty"`
	Direction     string `json:"direction,omitempty"`
	Side          string `json:"side,omitempty"`
	Focused       bool   `json:"focused"`
	Width         int    `json:"width"`
	Height        int    `json:"height"`
	Unplaced      bool   `json:"unplaced"`
}

// WindowFocused is focus-window's result. A step by direction that finds
// no window beside the start moves nothing: Changed is false, Reason
// says why (no_neighbor, zoomed), the window fields are the focus as it
// stays, From… the window the step started from, and Restored is absent.
type WindowFocused struct {
	Type              string `json:"type"` // window_focused
	Session           string `json:"session"`
	WindowID          string `json:"window_id"`
	Name              string `json:"name"`
	Workspace         int    `json:"workspace"`
	PreviousWindowID  string `json:"previous_window_id"`
	PreviousWorkspace int    `json:"previous_workspace"`
	Changed           bool   `json:"changed"`
	// Restored: the window was minimized and focusing it restored it.
	Restored     *bool   `json:"restored,omitempty"`
	Relative     string  `json:"relative,omitempty"`  // next, prev: what was asked
	Direction    string  `json:"direction,omitempty"` // left, right, up, down: what was asked
	Reason       string  `json:"reason,omitempty"`
	FromWindowID string  `json:"from_window_id,omitempty"`
	FromName     *string `json:"from_name,omitempty"`
}

// WindowMoved is move-window's result.
type WindowMoved struct {
	Type              string `json:"type"` // window_moved
	Session           string `json:"session"`
	WindowID          string `json:"window_id"`
	Name              string `json:"name"`
	Workspace         int    `json:"workspace"`
	PreviousWorkspace int    `json:"previous_workspace"`
	Changed           bool   `json:"changed"`
	Followed          bool   `json:"followed"`
	// CurrentWorkspace is the one the session shows now, which a move
	// with follow switched from PreviousCurrentWorkspace.
	CurrentWorkspace         int    `json:"current_workspace"`
	PreviousCurrentWorkspace int    `json:"previous_current_workspace"`
	FocusedWindowID          string `json:"focused_window_id"`
}

// WindowClosed is close-window's result.
type WindowClosed struct {
	Type            string `json:"type"` // window_closed
	Session         string `json:"session"`
	WindowID        string `json:"window_id"`
	Name            string `json:"name"`
	Workspace       int    `json:"workspace"`
	FocusedWindowID string `json:"focused_window_id"`
}

// Command is one window-manager command of run-command --list: its tape
// name (ToggleZoom) and keymap name (toggle_zoom).
type Command struct {
	Name        string `json:"name"`
	KeymapName  string `json:"keymap_name"`
	Description string `json:"description"`
}

// CommandList is run-command's result with list.
type CommandList struct {
	Type     string    `json:"type"` // command_list
	Commands []Command `json:"commands"`
}

// CommandResult is run-command's result for a command it ran.
type CommandResult struct {
	Type       string `json:"type"` // command_result
	Command    string `json:"command"`
	KeymapName string `json:"keymap_name"`
	Session    string `json:"session"`
	Ran        bool   `json:"ran"`
}

// LayoutSet is set-layout's result. Tiling is tiled or floating;
// MovedWindows are the windows whose place changed.
type LayoutSet struct {
	Type           string   `json:"type"` // layout_set
	Session        string   `json:"session"`
	Tiling         string   `json:"tiling"`
	PreviousTiling string   `json:"previous_tiling"`
	Equalized      bool     `json:"equalized"`
	MovedWindows   []string `json:"moved_windows"`
	Changed        bool     `json:"changed"`
}

// PopupOpened is popup's result: the floating window it opened, its
// place over the tiles, and the window the focus goes back to when it
// closes.
type PopupOpened struct {
	Type             string `json:"type"` // popup_opened
	WindowID         string `json:"window_id"`
	Session          string `json:"session"`
	Workspace        int    `json:"workspace"`
	Width            int    `json:"width"`
	Height           int    `json:"height"`
	X                int    `json:"x"`
	Y                int    `json:"y"`
	PID              int    `json:"pid"`
	Focused          bool   `json:"focused"`
	PreviousWindowID string `json:"previous_window_id"`
}

// Resized is resize's result: the session's area now.
type Resized struct {
	Type    string `json:"type"` // resized
	Session string `json:"session"`
	Cols    int    `json:"cols"`
	Rows    int    `json:"rows"`
}
