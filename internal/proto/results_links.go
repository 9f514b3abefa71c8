package proto

// OutboxList is list-outbox's answer: the mail waiting for other
// machines' links, host by host in sending order, with the outbox's
// caps. Over a link each host's Messages is empty and Refused unset:
// another machine sees the counts only. Fields are in the order of their
// JSON keys, the order the daemon has always written them in.
type OutboxList struct {
	Hosts      []OutboxHost `json:"hosts"`
	PerHostCap int          `json:"per_host_cap"`
	TotalCap   int          `json:"total_cap"`
	Type       string       `json:"type"` // outbox_list
	Waiting    int          `json:"waiting"`
}

// OutboxHost is one host's waiting mail: its link's status, the latest
// refusal of its far side, when the next try is due (unix ms, 0 none)
// and the messages, oldest first.
type OutboxHost struct {
	Host      string          `json:"host"`
	Status    string          `json:"status"`
	Waiting   int             `json:"waiting"`
	Refused   string          `json:"refused,omitempty"`
	NextRetry int64           `json:"next_retry,omitempty"` // unix ms
	Messages  []OutboxMessage `json:"messages"`
}

// OutboxMessage is one message the outbox keeps for another machine, as
// list-outbox shows it and the outbox file stores it. ID is the queue's
// id (queue_id), not the far ring's.
type OutboxMessage struct {
	ID          uint64   `json:"queue_id"`
	Host        string   `json:"host"`
	Session     string   `json:"session"`
	To          string   `json:"to,omitempty"`
	From        string   `json:"from,omitempty"`
	Subject     string   `json:"subject,omitempty"`
	Text        string   `json:"text"`
	ReplyTo     int      `json:"reply_to,omitempty"`
	Attachments []string `json:"attachments,omitempty"`
	QueuedAt    int64    `json:"queued_at"` // unix ns
}

// LinkPeer is link-peer's result: the name this machine's link goes by
// at the far end, whether it is pinned, and whether the call changed it.
type LinkPeer struct {
	Type    string `json:"type"` // link_peer
	Peer    string `json:"peer"`
	Pinned  bool   `json:"pinned"`
	Changed bool   `json:"changed"`
}
