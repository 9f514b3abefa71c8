package proto

// Param describes one param of a verb for list-verbs.
type Param struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"` // string, int, bool, []string, []int, object
	Description string   `json:"description"`
	Required    bool     `json:"required,omitempty"`
	Accepted    []string `json:"accepted,omitempty"`
	Default     any      `json:"default,omitempty"`
	// Minimum and Maximum bound an int (0 or absent takes the default).
	Minimum *int64 `json:"minimum,omitempty"`
	Maximum *int64 `json:"maximum,omitempty"`
	// MaxLength caps a string's bytes or a list's entries.
	MaxLength int `json:"max_length,omitempty"`
	// RequiredWhen names another param and the values of it that make
	// this one required, e.g. {"condition":["window-output"]}.
	RequiredWhen map[string][]string `json:"required_when,omitempty"`
}

// VerbInfo describes one verb for list-verbs.
type VerbInfo struct {
	Verb        string   `json:"verb"`
	Description string   `json:"description"`
	Params      []Param  `json:"params"`
	Returns     string   `json:"returns"`
	Examples    []string `json:"examples,omitempty"`
	// Access is who may call the verb and what it does to a pane, as the
	// daemon's verb table declares it.
	Access *VerbAccess `json:"access,omitempty"`
}

// VerbAccess is a verb's declaration: who may call it, the grants a pane
// needs for it in its own session (a session out of the pane's reach
// needs admin too), and what it does.
type VerbAccess struct {
	// Caller is anyone, granted (the person, or a pane holding Grants),
	// own_pane (the person, or a pane about itself), person (the
	// person only; a pane holding Grants too), or outside_panes.
	Caller string   `json:"caller"`
	Grants []string `json:"grants"`
	// Link lists the capabilities another machine's link needs (empty:
	// none); Local says the verb is never served over a link.
	Link  []string `json:"link"`
	Local bool     `json:"local,omitempty"`
	// TypesIntoPanes: the verb writes bytes into a pane.
	TypesIntoPanes bool `json:"types_into_panes,omitempty"`
	// ReadOnly: the verb changes nothing.
	ReadOnly     bool `json:"read_only,omitempty"`
	AgentFeature bool `json:"agent_feature,omitempty"`
}

// ErrorCode is one entry of list-verbs' error_codes.
type ErrorCode struct {
	Code        string `json:"code"`
	Description string `json:"description"`
}

// VerbList is the list-verbs result.
type VerbList struct {
	Type          string      `json:"type"`
	Version       int         `json:"version"`
	MinVersion    int         `json:"min_version"`
	DaemonVersion string      `json:"daemon_version"`
	Verbs         []VerbInfo  `json:"verbs"`
	ErrorCodes    []ErrorCode `json:"error_codes"`
	Envelope      string      `json:"envelope"`
}

// Envelope describes the framing in one paragraph, for list-verbs.
const Envelope = `one JSON object per line: {"id":<any, echoed>,"verb":"<name>","params":{...}} → {"id":...,"result":{"type":"<shape>",...}} or {"id":...,"error":{"code","message","hint"}}; requests are answered in order per connection; lines are capped at 16 MB; unknown params are refused`
