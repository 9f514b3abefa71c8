package proto

// PaneGrantsParams are the params of pane-grants.
type PaneGrantsParams struct {
	Session string `json:"session,omitempty" desc:"the session of window (default: the caller's own)" maxlen:"4096"`
	Window  string `json:"window,omitempty" desc:"a pane to look at (default: the caller's own pane; outside every pane: none, only the defaults)" maxlen:"4096"`
}

// SetPaneGrantsParams are the params of set-pane-grants.
type SetPaneGrantsParams struct {
	Session string `json:"session,omitempty" desc:"the session of window (default: the caller's own)" maxlen:"4096"`
	Window  string `json:"window,omitempty" req:"true" desc:"the pane whose grants change" maxlen:"4096"`
	Grants  string `json:"grants,omitempty" desc:"the pane's grants: read, write, fan, respond, files, admin, comma-separated, or none" maxlen:"256"`
	Reset   bool   `json:"reset,omitempty" desc:"back to [agents.permissions]'s default (instead of grants)"`
}

// RestrictParams are the params of restrict-connection.
type RestrictParams struct {
	Scope    string `json:"scope,omitempty" desc:"own: the caller's own session only (the default); all: every session its grants reach" accepted:"own,all" maxlen:"8"`
	ReadOnly bool   `json:"read_only,omitempty" desc:"type into no pane on this connection"`
	PaneID   string `json:"pane_id,omitempty" desc:"the caller's own pane, to check: a pane the kernel does not place the caller in is refused" maxlen:"64"`
}
