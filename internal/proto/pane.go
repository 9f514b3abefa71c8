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

// PaneScreenshot is screenshot's answer: a pane's styled cells, its rows
// (history first, with scrollback) as text with SGR sequences, one line a
// row. The fields are in the order the answer has always carried them.
type PaneScreenshot struct {
	Cols        int    `json:"cols"`
	Content     string `json:"content"`
	DisplayName string `json:"display_name"`
	History     int    `json:"history"`
	Name        string `json:"name"`
	Rows        int    `json:"rows"`
	Session     string `json:"session"`
	Type        string `json:"type"`
	WindowID    string `json:"window_id"`
}
