package proto

// HelloParams are the params of hello.
type HelloParams struct {
	Client   string `json:"client,omitempty" desc:"the client's name" maxlen:"256"`
	Version  string `json:"version,omitempty" desc:"the client's version" maxlen:"256"`
	Protocol int    `json:"protocol,omitempty" desc:"the protocol the client speaks (any other than this daemon speaks is protocol_mismatch)"`
}

// ListVerbsParams are the params of list-verbs.
type ListVerbsParams struct {
	Verb string `json:"verb,omitempty" desc:"describe only this verb" maxlen:"256"`
}

// NoParams are the params of a verb that takes none (kill-server, list-sessions, list-transfers and unsubscribe).
type NoParams struct{}

// SubscribeParams are the params of subscribe.
type SubscribeParams struct {
	Session string   `json:"session,omitempty" desc:"only this session's events (default: all)" maxlen:"4096"`
	Window  string   `json:"window,omitempty" desc:"only this window's events (its full id)" maxlen:"4096"`
	Types   []string `json:"types,omitempty" desc:"only these event types (output and transcript are sent only when named)" maxlen:"64"`
	Queue   int      `json:"queue,omitempty" desc:"events queued before the oldest are dropped" min:"1" max:"65536" default:"256"`
	// The Inbox's follow: list-attention, then subscribe with its seq and
	// boot_id, and no attention event is missed.
	AfterSeq int    `json:"after_seq,omitempty" desc:"first replay the attention events after this Inbox seq (list-attention's seq)" min:"0" max:"9007199254740991"`
	BootID   string `json:"boot_id,omitempty" desc:"the Inbox boot_id after_seq belongs to; another one answers resync:true (list again)" maxlen:"64"`
}
