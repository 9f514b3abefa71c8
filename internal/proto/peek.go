package proto

// PromptPeek is peek-prompt's answer: what a blocked pane asks. Lines,
// Options' labels and Message are pane text: untrusted, to be fenced or
// cleaned before they are shown.
type PromptPeek struct {
	Type       string         `json:"type"` // "prompt_peek"
	Session    string         `json:"session"`
	Window     string         `json:"window"`
	Name       string         `json:"name"`
	Harness    string         `json:"harness"`
	State      string         `json:"state"`
	StateAt    int64          `json:"state_at,omitempty"`
	WaitingMS  int64          `json:"waiting_ms"`
	Blocked    bool           `json:"blocked"`
	Found      bool           `json:"found"`
	Answerable bool           `json:"answerable"`
	Reason     string         `json:"reason,omitempty"`
	Source     string         `json:"source"`
	Rule       int            `json:"rule"`
	Kind       string         `json:"kind,omitempty"`
	Message    string         `json:"message"`
	PromptID   string         `json:"prompt_id,omitempty"`
	Lines      []string       `json:"lines"`
	Options    []PromptOption `json:"options"`
	Actions    []string       `json:"actions"`
	Risk       []string       `json:"risk,omitempty"`
	// NotWhole, when set, says why the prompt's dialog could not be read
	// whole (its top is off the pane's screen and history): Risk then
	// carries "cut short", and allowing it needs that acknowledged.
	NotWhole  string `json:"not_whole,omitempty"`
	Untrusted bool   `json:"untrusted"`
}

// PromptOption is one numbered answer of a prompt.
type PromptOption struct {
	N        int    `json:"n"`
	Label    string `json:"label"`
	Selected bool   `json:"selected,omitempty"`
	// Deny is true when choosing the option refuses (the daemon reads
	// the manifest's answers, then the label's first words): a client
	// sends it with one press even on a risky prompt.
	Deny bool `json:"deny,omitempty"`
}
