package proto

// The params of attach, peek-prompt and respond: what the person's client
// sends to get a human nonce, read a pane's prompt and answer it. Their
// tags are the verbs' schema (Schema, Validate): list-verbs reads them.

// AttachParams are attach's (and attach-presence's) params.
type AttachParams struct {
	Client string `json:"client,omitempty" desc:"the attaching client's name" maxlen:"256"`
	// The stream: layout, screen rows and bells of one session on this
	// connection after the reply (attach.go is its wire contract).
	Session string `json:"session,omitempty" desc:"the session to show (default: most recently active)" maxlen:"4096"`
	Stream  bool   `json:"stream,omitempty" desc:"after the reply, stream the session's layout, changed screen rows and bells on this connection (it takes no more requests)"`
	Cols    *int   `json:"cols,omitempty" desc:"the client's width: resizes the session's area first" min:"1" max:"1000"`
	Rows    *int   `json:"rows,omitempty" desc:"the client's height: resizes the session's area first" min:"1" max:"1000"`
	Prefix  string `json:"prefix,omitempty" desc:"with stream: the client's leader key (ctrl+b); send-keys hands a chord of it and one key to this client" maxlen:"64"`
	// Presence: the person's client without a screen (a phone's
	// bridge): the nonce only, and the connection takes requests.
	Presence bool `json:"presence,omitempty" desc:"attach-presence: say this connection is the person's client without streaming a screen; answers a human nonce, shows and resizes nothing, and the connection keeps taking requests (agent-transcript, respond) while it stays open"`
}

// PeekPromptParams are peek-prompt's params.
type PeekPromptParams struct {
	Session string `json:"session,omitempty" desc:"the session"`
	Window  string `json:"window,omitempty" req:"true" desc:"the window whose prompt to read"`
}

// RespondParams are respond's params.
type RespondParams struct {
	Session    string   `json:"session,omitempty" desc:"the session"`
	Window     string   `json:"window,omitempty" req:"true" desc:"the window whose prompt to answer"`
	Action     string   `json:"action,omitempty" req:"true" desc:"the answer" accepted:"approve,approve_always,deny,choose,text"`
	Value      string   `json:"value,omitempty" desc:"choose: the option number; text: the answer (at most 4096 bytes)" maxlen:"4096"`
	PromptID   string   `json:"prompt_id,omitempty" desc:"the prompt_id peek-prompt returned: refused with prompt_changed, nothing pressed, when the prompt is no longer that one" maxlen:"64"`
	HumanNonce string   `json:"human_nonce,omitempty" desc:"the nonce attach gave this client: proof the person acts" maxlen:"256"`
	Timeout    int      `json:"timeout,omitempty" desc:"ms to wait for the pane to settle after the keys are pressed" min:"1" max:"30000" default:"5000"`
	RiskAck    []string `json:"risk_ack,omitempty" desc:"the risk rules of a risky prompt, all of them (order-insensitive): an allowing answer needs it" maxlen:"32"`
}
