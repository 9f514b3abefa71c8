package proto

import "github.com/tuios/tuios/mail"

// The results of the mail verbs (internal/daemon/mailbox). Their fields
// are in the order of their JSON keys, which is the order the daemon has
// always written them in (they were maps once): a script that compares
// bytes sees none change. Subjects, texts, labels and replies are
// another agent's words: untrusted, to be fenced when printed.

// MessageSent is send-agent-message's answer for mail delivered on this
// machine (mail kept for another machine's link answers
// agent_message_queued instead). MessageID and ID, ToName and ToLabel
// are the same values under the names read-agent-messages uses too.
type MessageSent struct {
	Attachments    []mail.Attachment `json:"attachments"`
	ClaimedHuman   bool              `json:"claimed_human"`
	From           string            `json:"from"`
	FromLabel      string            `json:"from_label"`
	Held           bool              `json:"held"`
	HeldFor        string            `json:"held_for"`
	HeldForLabel   string            `json:"held_for_label"`
	ID             uint64            `json:"id"`
	Kind           string            `json:"kind"` // message or notice
	MessageID      uint64            `json:"message_id"`
	Origin         string            `json:"origin"` // "" here, link from another machine
	OriginHost     string            `json:"origin_host"`
	ReplyTo        uint64            `json:"reply_to"`
	ReplyToMissing bool              `json:"reply_to_missing"`
	SentAt         int64             `json:"sent_at"` // unix ns
	Session        string            `json:"session"`
	ThreadID       uint64            `json:"thread_id"`
	To             string            `json:"to"` // a window id, human, or "" for a notice
	ToLabel        string            `json:"to_label"`
	ToName         string            `json:"to_name"`
	Type           string            `json:"type"` // agent_message_sent
	VerifiedHuman  bool              `json:"verified_human"`
}

// MessagesRead is read-agent-messages' answer: the messages oldest
// first, Unread of them unread when the read began, Total that matched
// before the limit, Evicted the ring's evictions ever. PeekForced says
// the read was served as a peek (a pane or a link reading the person's
// mail).
type MessagesRead struct {
	Evicted    uint64        `json:"evicted"`
	Inbox      string        `json:"inbox"` // "" for the whole session
	Messages   []MailMessage `json:"messages"`
	PeekForced bool          `json:"peek_forced"`
	Session    string        `json:"session"`
	Thread     uint64        `json:"thread"` // the resolved thread, 0 when none was asked for
	Total      int           `json:"total"`
	Type       string        `json:"type"` // agent_messages
	Unread     int           `json:"unread"`
	Untrusted  bool          `json:"untrusted"`
}

// MailMessage is one message as read-agent-messages returns it: every
// field of mail.Message plus send-agent-message's names for its id and
// its inbox's label (scripts read either spelling).
type MailMessage struct {
	mail.Message
	MessageID uint64 `json:"message_id"` // = ID
	ToName    string `json:"to_name"`    // = ToLabel
}

// MessageReleased is release-agent-message's answer: HeldID, the held
// message the person passed on, was delivered as MessageID.
type MessageReleased struct {
	HeldID     uint64 `json:"held_id"`
	Kind       string `json:"kind"`
	MessageID  uint64 `json:"message_id"`
	Origin     string `json:"origin"`
	OriginHost string `json:"origin_host"`
	Session    string `json:"session"`
	ThreadID   uint64 `json:"thread_id"`
	To         string `json:"to"`
	ToName     string `json:"to_name"`
	Type       string `json:"type"` // agent_message_released
}

// MessageWaitResult is wait-for's answer to an agent-message wait, in
// the order that condition has always been written; it reads as a
// WaitResult with a WaitMessage, which is how clients take it. Window is
// the inbox waited on ("" for any mail of the session).
type MessageWaitResult struct {
	Condition string `json:"condition"` // agent-message
	From      string `json:"from"`
	FromLabel string `json:"from_label"`
	Kind      string `json:"kind"`
	Matched   bool   `json:"matched"`
	MessageID uint64 `json:"message_id"`
	Session   string `json:"session"`
	Subject   string `json:"subject"`
	ThreadID  uint64 `json:"thread_id"`
	Type      string `json:"type"` // wait_result
	Window    string `json:"window"`
}

// StashStored is stash-put's answer: the stored file (Deduped when the
// same bytes were already there), the files this put deleted to make
// room, and the session stash's totals and caps after it.
type StashStored struct {
	Bytes          int64    `json:"bytes"`
	Deduped        bool     `json:"deduped"`
	Evicted        int      `json:"evicted"`
	EvictedPaths   []string `json:"evicted_paths"`
	Evictions      uint64   `json:"evictions"` // deleted by the cap, ever
	Hash           string   `json:"hash"`
	Kind           string   `json:"kind"`
	MaxBytes       int64    `json:"max_bytes"`
	MaxFileBytes   int64    `json:"max_file_bytes"`
	MediaType      string   `json:"media_type"`
	Name           string   `json:"name"`
	Path           string   `json:"path"`
	Session        string   `json:"session"`
	SessionBytes   int64    `json:"session_bytes"`
	SessionEntries int      `json:"session_entries"`
	Source         string   `json:"source"`
	StoredAt       int64    `json:"stored_at"` // unix ns
	Type           string   `json:"type"`      // stash_entry
}

// StashFile is stash-get's answer: one stored file, and with data its
// bytes, base64 (set, possibly empty, only when asked for).
type StashFile struct {
	Bytes     int64   `json:"bytes"`
	Data      *string `json:"data,omitempty"`
	Hash      string  `json:"hash"`
	Kind      string  `json:"kind"`
	MediaType string  `json:"media_type"`
	Name      string  `json:"name"`
	Path      string  `json:"path"`
	Session   string  `json:"session"`
	Source    string  `json:"source"`
	StoredAt  int64   `json:"stored_at"` // unix ns
	Type      string  `json:"type"`      // stash_entry
}

// StashList is stash-list's answer: the session's stored files, oldest
// first, with the stash's size, cap and evictions so far.
type StashList struct {
	Bytes        int64             `json:"bytes"`
	Dir          string            `json:"dir"`
	Entries      []mail.StashEntry `json:"entries"`
	Evictions    uint64            `json:"evictions"`
	MaxBytes     int64             `json:"max_bytes"`
	MaxFileBytes int64             `json:"max_file_bytes"`
	Session      string            `json:"session"`
	Type         string            `json:"type"` // stash_list
}

// AgentReply is ask-agent's answer: what the pane printed after the
// question (Reply, Lines lines, Truncated when cut to the newest), what
// ended the wait (SettledBy: agent-state, idle, timeout, window-closed
// or shutdown) and the pane's state then. Reply is the pane's text:
// untrusted.
type AgentReply struct {
	Lines     int    `json:"lines"`
	Name      string `json:"name"`
	Reply     string `json:"reply"`
	Session   string `json:"session"`
	SettledBy string `json:"settled_by"`
	State     string `json:"state"`
	Truncated bool   `json:"truncated"`
	Type      string `json:"type"` // agent_reply
	Untrusted bool   `json:"untrusted"`
	WaitedFor int64  `json:"waited_for"` // ms waiting for the pane to be ready
	Window    string `json:"window"`
}
