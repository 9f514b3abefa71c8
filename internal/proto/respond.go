package proto

// PromptResponse is respond's answer when it pressed keys into a pane:
// what was sent, who sent it and how the pane settled after. Name and
// Message are pane text: untrusted.
type PromptResponse struct {
	Type     string   `json:"type"` // "prompt_response"
	Session  string   `json:"session"`
	Window   string   `json:"window"`
	Name     string   `json:"name"`
	Action   string   `json:"action"`
	Sent     []string `json:"sent"` // the keys pressed ("paste", "enter" for text)
	PromptID string   `json:"prompt_id"`
	// SettledBy is what ended the wait after the keys: state (the pane
	// left needs_input), prompt (the prompt left the screen), gone (the
	// window or the daemon went) or timeout.
	SettledBy string `json:"settled_by"`
	State     string `json:"state"`
	Message   string `json:"message"`
	// By is who answered: client, shell, pane:ID or link:NAME.
	By        string `json:"by"`
	PressedMS int64  `json:"pressed_ms"`
	SettledMS int64  `json:"settled_ms"`
}

// Attached is attach's answer: the human nonce the person's client holds
// while its connection stays open (none over a link), and with a session,
// a size or a stream, the session it shows and its area.
type Attached struct {
	Type       string `json:"type"` // "attached"
	Client     string `json:"client"`
	Presence   bool   `json:"presence,omitempty"`
	HumanNonce string `json:"human_nonce,omitempty"`
	// Session, Cols and Rows are set when the client named a session, a
	// size or asked for the stream.
	Session string `json:"session,omitempty"`
	Cols    *int   `json:"cols,omitempty"`
	Rows    *int   `json:"rows,omitempty"`
	// Stream says the connection now carries the session (attach.go);
	// QuietRequests that the client's call connection may type without
	// an answer per key (Request.Quiet).
	Stream        bool `json:"stream,omitempty"`
	QuietRequests bool `json:"quiet_requests,omitempty"`
}
