package proto

// WaitResult is wait-for's result once its condition matched (a wait
// that ends without a match is a timeout error). Which fields are set
// depends on the condition:
//
//	session-exists  Session
//	window-output   Window, Pattern, Line (the line that matched)
//	window-idle     Window
//	window-exit     Window, ExitCode; Closed when the window had exited
//	                and closed before the wait began
//	agent-state     Window, State; Select for a wait on a selector
//	agent-message   Session, Window (the inbox), and WaitMessage
type WaitResult struct {
	Type      string  `json:"type"` // wait_result
	Condition string  `json:"condition"`
	Matched   bool    `json:"matched"`
	Session   string  `json:"session,omitempty"`
	Window    string  `json:"window,omitempty"`
	ExitCode  *int    `json:"exit_code,omitempty"`
	Closed    bool    `json:"closed,omitempty"`
	Pattern   string  `json:"pattern,omitempty"`
	Line      *string `json:"line,omitempty"`
	State     string  `json:"state,omitempty"`
	Select    string  `json:"select,omitempty"`
	*WaitMessage
}

// WaitMessage is the message an agent-message wait got. From, FromLabel
// and Subject are another agent's words: untrusted.
type WaitMessage struct {
	MessageID uint64 `json:"message_id"`
	Kind      string `json:"kind"`
	From      string `json:"from"`
	FromLabel string `json:"from_label"`
	Subject   string `json:"subject"`
	ThreadID  uint64 `json:"thread_id"`
}
