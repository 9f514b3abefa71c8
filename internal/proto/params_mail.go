package proto

// The params of the agent mail verbs (internal/daemon/mailbox): their tags
// are the verbs' schema (list-verbs) and the checks every request passes
// (params.go).

// SendMessageParams are send-agent-message's.
type SendMessageParams struct {
	Session     string   `json:"session" desc:"the session (default: your own pane's, else the most recently active)"`
	To          string   `json:"to" desc:"the inbox: a window (id, index, unique id prefix, name) or human; omit for a notice to the whole session"`
	From        string   `json:"from" desc:"a label for the sender; a caller inside a pane is that pane whatever it says, and human from a pane is refused" maxlen:"256"`
	Subject     string   `json:"subject" desc:"at most 120 characters"`
	Text        string   `json:"text" req:"true" desc:"the message, at most 8 KiB"`
	ReplyTo     int      `json:"reply_to" desc:"the id of the message this answers" min:"1" max:"9007199254740991"`
	Attachments []string `json:"attachments" desc:"absolute paths of files that exist now (at most 8); references, not bytes"`
	Host        string   `json:"host" desc:"deliver to session on this linked machine (local: this one); a host that is not answering is host_unreachable and nothing is kept, unless queue" maxlen:"255"`
	Queue       bool     `json:"queue" desc:"with host: keep the message in the outbox when the link is down, the far side does not answer in 10 s, or earlier mail waits, and send it in order once the link is back (agent_message_queued)"`
	// The attached client's reply in the mail overlay: the message is
	// from human, verified (mail_thread.go in internal/tui sends it).
	HumanNonce string `json:"human_nonce" desc:"the nonce attach gave the person's client: the message is from human, verified" maxlen:"256"`
}

// ReadMessagesParams are read-agent-messages'.
type ReadMessagesParams struct {
	Session string `json:"session" desc:"the session"`
	To      string `json:"to" desc:"the inbox to read (a window or human); reading one marks what it returns as read; omit to read the whole session, marking nothing"`
	Unread  bool   `json:"unread" desc:"only unread directed messages"`
	Notices bool   `json:"notices" desc:"with to: include notices"`
	Peek    bool   `json:"peek" desc:"mark nothing"`
	Thread  int    `json:"thread" desc:"only this thread (any id in it)" min:"1" max:"9007199254740991"`
	Limit   int    `json:"limit" desc:"the newest N, oldest first" min:"1" max:"256" default:"20"`
}

// StashPutParams are stash-put's.
type StashPutParams struct {
	Session string `json:"session" desc:"the session"`
	Path    string `json:"path" desc:"an absolute path to a regular file the daemon's user can read (refused over a link)"`
	// Over a link the bytes come with the request (mailbox/link.go).
	Data string `json:"data" desc:"instead of path: the file's bytes, base64 (at most 8 MB); what a link sends" maxlen:"11184812"`
	Name string `json:"name" desc:"with data: the file's name where it came from (for its extension)" maxlen:"4096"`
}

// StashListParams are stash-list's.
type StashListParams struct {
	Session string `json:"session" desc:"the session"`
}

// StashGetParams are stash-get's.
type StashGetParams struct {
	Session string `json:"session" desc:"the session"`
	Name    string `json:"name" req:"true" desc:"the stored file: its name, hash or stored path"`
	Data    bool   `json:"data" desc:"include the bytes, base64 (at most 8 MB)"`
}

// AskAgentParams are ask-agent's.
type AskAgentParams struct {
	Session      string `json:"session" desc:"the session"`
	Window       string `json:"window" req:"true" desc:"the pane to ask (human is refused: no keyboard)"`
	From         string `json:"from" desc:"a label for the asker" maxlen:"256"`
	Text         string `json:"text" req:"true" desc:"the question, typed as one paste" maxlen:"1048576"`
	ReadyTimeout int    `json:"ready_timeout" desc:"ms to wait for the target to be ready" min:"1" max:"86400000" default:"30000"`
	Settle       int    `json:"settle" desc:"ms of silence that ends the reply" min:"1" max:"86400000" default:"2000"`
	Timeout      int    `json:"timeout" desc:"ms before the reply is cut off" min:"1" max:"86400000" default:"300000"`
	Lines        int    `json:"lines" desc:"the newest N reply lines" min:"1" max:"100000" default:"200"`
	Force        bool   `json:"force" desc:"do not wait for the target to be ready (a blocked target is still refused)"`
	AllowBlocked bool   `json:"allow_blocked" desc:"type even when the target waits on needs_input"`
	StallTimeout int    `json:"stall_timeout" desc:"ms the target has to show it took the question" min:"1" max:"86400000" default:"5000"`
}

// ReleaseMessageParams are release-agent-message's.
type ReleaseMessageParams struct {
	Session    string `json:"session" desc:"the session holding the mail (default: whichever holds the id)" maxlen:"4096"`
	ID         int    `json:"id" req:"true" desc:"the held message's id" min:"1" max:"9007199254740991"`
	HumanNonce string `json:"human_nonce" desc:"the attached client's nonce: releasing is the person's act" maxlen:"256"`
}
