package proto

// CaptureParams are the params of capture-pane.
type CaptureParams struct {
	Session    string `json:"session,omitempty" desc:"the session"`
	Window     string `json:"window,omitempty" desc:"the window (default: the caller's pane, else the focused one)"`
	Scrollback bool   `json:"scrollback,omitempty" desc:"include history that scrolled off"`
	Lines      int    `json:"lines,omitempty" desc:"only the last N lines, counted from the last line with content" min:"1" max:"100000"`
	ANSI       bool   `json:"ansi,omitempty" desc:"keep colours and styles as SGR sequences"`
}

// SendTextParams are the params of send-text.
type SendTextParams struct {
	Session string `json:"session,omitempty" desc:"the session"`
	Window  string `json:"window,omitempty" desc:"the window (default: the caller's pane, else the focused one)"`
	Text    string `json:"text,omitempty" req:"true" desc:"bytes to write to the pane, verbatim; a trailing newline is the Enter that runs it"`
	Timeout int    `json:"timeout,omitempty" desc:"ms to wait for a program that is not reading its input before giving up on the rest" min:"1" max:"86400000" default:"30000"`
}

// SendKeysParams are the params of send-keys.
type SendKeysParams struct {
	Session string `json:"session,omitempty" desc:"the session"`
	Window  string `json:"window,omitempty" desc:"the window (default: the focused one, from a pane too: a pane names its own with its id)"`
	Keys    string `json:"keys,omitempty" req:"true" desc:"keys split on spaces and commas: Enter, Escape, Up, ctrl+c, alt+x…; other tokens are typed as written" maxlen:"65536"`
	Timeout int    `json:"timeout,omitempty" desc:"ms to wait for a program that is not reading its input before giving up on the rest" min:"1" max:"86400000" default:"30000"`
}

// ScreenshotParams reads a pane for `tuios screenshot`. The daemon sends
// the styled cells (as capture-pane --ansi text) with the grid's exact
// size; the CLI draws the picture (internal/shot), so the daemon never
// holds an image.
type ScreenshotParams struct {
	Session    string `json:"session,omitempty" desc:"the session"`
	Window     string `json:"window,omitempty" desc:"the window (default: the caller's pane, else the focused one)"`
	Scrollback bool   `json:"scrollback,omitempty" desc:"put the pane's history above the screen"`
	History    int    `json:"history,omitempty" desc:"with scrollback: at most this many history lines, the most recent" min:"1" max:"10000" default:"500"`
}
