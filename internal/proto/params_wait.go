package proto

// WaitParams are the params of wait-for.
type WaitParams struct {
	Session   string `json:"session,omitempty" desc:"the session" when:"condition=session-exists"`
	Window    string `json:"window,omitempty" desc:"the window (agent-state without it: any window in the session)"`
	Condition string `json:"condition,omitempty" req:"true" desc:"what to wait for" accepted:"window-output,window-idle,window-exit,session-exists,agent-state,agent-message"`
	Pattern   string `json:"pattern,omitempty" desc:"window-output: a Go regular expression matched against the pane's text, scrollback included; ^ and $ anchor to a line (an implicit (?m); (?-m) turns it off)" when:"condition=window-output" maxlen:"4096"`
	Idle      int    `json:"idle,omitempty" desc:"window-idle: milliseconds of silence" min:"1" max:"86400000" default:"500"`
	Until     string `json:"until,omitempty" desc:"agent-state: comma-separated states to wait for" when:"condition=agent-state" maxlen:"256"`
	Select    string `json:"select,omitempty" desc:"agent-state: the first pane a selector matches, in every session unless session is given (instead of window)" maxlen:"1024"`
	Thread    int    `json:"thread,omitempty" desc:"agent-message: only a message in this thread (any id in it)" min:"1" max:"9007199254740991"`
	Timeout   int    `json:"timeout,omitempty" desc:"milliseconds before giving up" min:"1" max:"86400000" default:"30000"`
}
