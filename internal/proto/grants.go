package proto

// PaneGrants is pane-grants' answer: what the caller's pane (or the pane
// named) may do through TUIOS.
type PaneGrants struct {
	Type    string   `json:"type"` // pane_grants
	Pane    string   `json:"pane"` // the caller's own pane ("" outside every pane)
	Window  string   `json:"window,omitempty"`
	Session string   `json:"session,omitempty"`
	Via     string   `json:"via,omitempty"` // pid: the kernel placed the caller
	Grants  []string `json:"grants"`
	// Explicit: the pane was given its grants (--grants,
	// set-pane-grants); else it holds the default of Mode.
	Explicit      bool     `json:"explicit"`
	Mode          string   `json:"mode"`
	DefaultGrants []string `json:"default_grants"`
	// Env is what TUIOS_PANE_GRANTS said when the pane started.
	Env string `json:"env,omitempty"`
	// Restricted is this connection's restriction, if any.
	Restricted *Restriction `json:"restricted,omitempty"`
	// Pending is a change to [agents.permissions] (or hosts) that waits
	// for tuios config apply; Widened says the daemon started with wider
	// grants than it ran with last time.
	Pending []string `json:"pending,omitempty"`
	Widened string   `json:"widened_at_start,omitempty"`
}

// Restriction is how a connection narrowed itself (restrict-connection).
type Restriction struct {
	Scope    string `json:"scope"` // own: only the caller's pane and session
	ReadOnly bool   `json:"read_only"`
}

// PaneGrantsSet is set-pane-grants' result: the pane's grants now and
// before.
type PaneGrantsSet struct {
	Type             string   `json:"type"` // pane_grants_set
	Session          string   `json:"session"`
	Window           string   `json:"window"`
	Grants           []string `json:"grants"`
	Explicit         bool     `json:"explicit"`
	Previous         []string `json:"previous"`
	PreviousExplicit bool     `json:"previous_explicit"`
}

// ConnectionRestricted is restrict-connection's result: the restriction,
// and the pane and sessions the connection still reaches.
type ConnectionRestricted struct {
	Type     string   `json:"type"` // connection_restricted
	Scope    string   `json:"scope"`
	ReadOnly bool     `json:"read_only"`
	Window   string   `json:"window"`
	Session  string   `json:"session"`
	Via      string   `json:"via"`
	Sessions []string `json:"sessions"`
}
