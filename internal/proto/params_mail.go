package proto

// SendMessageParams are the params of send-agent-message.
type SendMessageParams struct {
	Session     string   `json:"session,omitempty" desc:"the session (default: your own pane's, else the most recently active)"`
	To          string   `json:"to,omitempty" desc:"the inbox: a window (id, index, unique id prefix, name) or human; omit for a notice to the whole session"`
	From        string   `json:"from,omitempty" desc:"a label for the sender; a caller inside a pane is that pane whatever it says, and human from a pane is refused" maxlen:"256"`
	Subject     string   `json:"subject,omitempty" desc:"at most 120 characters"`
	Text        string   `json:"text,omitempty" req:"true" desc:"the message, at most 8 KiB"`
	ReplyTo     int      `json:"reply_to,omitempty" desc:"the id of the message this answers" min:"1" max:"9007199254740991"`
	Attachments []string `json:"attachments,omitempty" desc:"absolute paths of files that exist now (at most 8); references, not bytes"`
	Host        string   `json:"host,omitempty" desc:"deliver to session on this linked machine (local: this one); a host that is not answering is host_unreachable and nothing is kept, unless queue" maxlen:"255"`
	Queue       bool     `json:"queue,omitempty" desc:"with host: keep the message in the outbox when the link is down, the far side does not answer in 10 s, or earlier mail waits, and send it in order once the link is back (agent_message_queued)"`
	// The attached client's reply in the mail overlay: the message is
	// from human, verified (mail_thread.go in internal/tui sends it).
	HumanNonce string `json:"human_nonce,omitempty" desc:"the nonce attach gave the person's client: the message is from human, verified" maxlen:"256"`
}

// ReadMessagesParams are the params of read-agent-messages.
type ReadMessagesParams struct {
	Session string `json:"session,omitempty" desc:"the session"`
	To      string `json:"to,omitempty" desc:"the inbox to read (a window or human); reading one marks what it returns as read; omit to read the whole session, marking nothing"`
	Unread  bool   `json:"unread,omitempty" desc:"only unread directed messages"`
	Notices bool   `json:"notices,omitempty" desc:"with to: include notices"`
	Peek    bool   `json:"peek,omitempty" desc:"mark nothing"`
	Thread  int    `json:"thread,omitempty" desc:"only this thread (any id in it)" min:"1" max:"9007199254740991"`
	Limit   int    `json:"limit,omitempty" desc:"the newest N, oldest first" min:"1" max:"256" default:"20"`
}

// StashPutParams are the params of stash-put.
type StashPutParams struct {
	Session string `json:"session,omitempty" desc:"the session"`
	Path    string `json:"path,omitempty" desc:"an absolute path to a regular file the daemon's user can read (refused over a link)"`
	// Over a link the bytes come with the request (internal/daemon/mailbox/link.go).
	Data string `json:"data,omitempty" desc:"instead of path: the file's bytes, base64 (at most 8 MB); what a link sends" maxlen:"11184812"`
	Name string `json:"name,omitempty" desc:"with data: the file's name where it came from (for its extension)" maxlen:"4096"`
}

// StashListParams are the params of stash-list.
type StashListParams struct {
	Session string `json:"session,omitempty" desc:"the session"`
}

// StashGetParams are the params of stash-get.
type StashGetParams struct {
	Session string `json:"session,omitempty" desc:"the session"`
	Name    string `json:"name,omitempty" req:"true" desc:"the stored file: its name, hash or stored path"`
	Data    bool   `json:"data,omitempty" desc:"include the bytes, base64 (at most 8 MB)"`
}

// AskAgentParams are the params of ask-agent.
type AskAgentParams struct {
	Session      string `json:"session,omitempty" desc:"the session"`
	Window       string `json:"window,omitempty" req:"true" desc:"the pane to ask (human is refused: no keyboard)"`
	From         string `json:"from,omitempty" desc:"a label for the asker" maxlen:"256"`
	Text         string `json:"text,omitempty" req:"true" desc:"the question, typed as one paste" maxlen:"1048576"`
	ReadyTimeout int    `json:"ready_timeout,omitempty" desc:"ms to wait for the target to be ready" min:"1" max:"86400000" default:"30000"`
	Settle       int    `json:"settle,omitempty" desc:"ms of silence that ends the reply" min:"1" max:"86400000" default:"2000"`
	Timeout      int    `json:"timeout,omitempty" desc:"ms before the reply is cut off" min:"1" max:"86400000" default:"300000"`
	Lines        int    `json:"lines,omitempty" desc:"the newest N reply lines" min:"1" max:"100000" default:"200"`
	Force        bool   `json:"force,omitempty" desc:"do not wait for the target to be ready (a blocked target is still refused)"`
	AllowBlocked bool   `json:"allow_blocked,omitempty" desc:"type even when the target waits on needs_input"`
	StallTimeout int    `json:"stall_timeout,omitempty" desc:"ms the target has to show it took the question" min:"1" max:"86400000" default:"5000"`
}
