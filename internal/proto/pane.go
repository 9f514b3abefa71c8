package proto

// PaneContent is capture-pane's result. Content is pane text: untrusted,
// to be fenced or cleaned before it is shown. Source is visible (the
// screen) or recent (scrollback); Styled says Content keeps its SGR
// escapes.
type PaneContent struct {
	Type     string `json:"type"` // pane_content
	WindowID string `json:"window_id"`
	Source   string `json:"source"`
	Styled   bool   `json:"styled"`
	Content  string `json:"content"`
}

// TextSent is send-text's result: how many bytes were typed.
type TextSent struct {
	Type     string `json:"type"` // text_sent
	WindowID string `json:"window_id"`
	Bytes    int    `json:"bytes"`
}

// KeysSent is send-keys' result. ToClient is true when the keys were a
// chord handed to the attached client (its prefix key and a command)
// rather than typed: Bytes is then 0.
type KeysSent struct {
	Type     string `json:"type"` // keys_sent
	WindowID string `json:"window_id"`
	Bytes    int    `json:"bytes"`
	ToClient bool   `json:"to_client,omitempty"`
}
