package proto

// The params of the verbs the attach client (internal/tui) sends whose
// handlers still declare their own params type in the daemon: the Inbox,
// held approvals, ask-human's answer, the reply queue, review notes,
// resume and the agent log. Their tags are the daemon's (list-verbs
// describes the same params; internal/tui's params_wire_test.go checks
// that), with omitempty, so a client sends only what it set.

// ListAttentionParams are the params of list-attention.
type ListAttentionParams struct {
	Session        string   `json:"session,omitempty" desc:"only this session's items (default: every session)" maxlen:"4096"`
	Kinds          []string `json:"kinds,omitempty" desc:"only these kinds: approval, plan, ask, question, mail, errored, resume, finished, outbox" maxlen:"9"`
	IncludeSnoozed bool     `json:"include_snoozed,omitempty" desc:"the snoozed items too, after the open ones"`
	Host           string   `json:"host,omitempty" desc:"local: this machine's items only; a linked host's name: the items mirrored from it (default: both, each mirrored item with its host)" maxlen:"256"`
	Select         string   `json:"select,omitempty" desc:"a selector: key:value terms that must all match (harness, state, needs, session, group, host, name, cwd)" maxlen:"1024"`
}

// DismissAttentionParams are the params of dismiss-attention.
type DismissAttentionParams struct {
	ID         string `json:"id,omitempty" req:"true" desc:"the item's id" maxlen:"256"`
	HumanNonce string `json:"human_nonce,omitempty" desc:"the nonce attach gave the person's client" maxlen:"256"`
}

// MarkAttentionParams are the params of mark-attention.
type MarkAttentionParams struct {
	Action      string `json:"action,omitempty" req:"true" desc:"what to do" accepted:"snooze,wake,unread,restore,undo"`
	ID          string `json:"id,omitempty" desc:"the item's id (or session, window and kind)" maxlen:"256"`
	Session     string `json:"session,omitempty" desc:"with window and kind: the item's pane (unread: the pane)"`
	Window      string `json:"window,omitempty" desc:"with kind: the item's pane (unread: the pane)"`
	Kind        string `json:"kind,omitempty" desc:"with window: which of the pane's items" accepted:"approval,plan,question,errored,resume,finished"`
	Until       int64  `json:"until,omitempty" desc:"snooze: wake at this time (unix ms, within a year)" min:"1" max:"9007199254740991"`
	ForMS       int64  `json:"for_ms,omitempty" desc:"snooze: wake after this many milliseconds (at most a year)" min:"1" max:"31536000000"`
	UntilChange bool   `json:"until_change,omitempty" desc:"snooze: wake only when what the item says changes"`
	HumanNonce  string `json:"human_nonce,omitempty" desc:"the nonce attach gave the person's client" maxlen:"256"`
}

// ReplyApprovalParams are the params of reply-approval.
type ReplyApprovalParams struct {
	RequestID  string   `json:"request_id,omitempty" desc:"the hold (or session and window)" maxlen:"64"`
	Session    string   `json:"session,omitempty" desc:"with window: the pane whose hold to answer"`
	Window     string   `json:"window,omitempty" desc:"the pane whose hold to answer"`
	Decision   string   `json:"decision,omitempty" req:"true" desc:"the answer; ask hands the prompt back to the pane" accepted:"once,always,deny,ask"`
	Message    string   `json:"message,omitempty" desc:"deny: the reason the model reads, one line" maxlen:"500"`
	HumanNonce string   `json:"human_nonce,omitempty" desc:"the nonce attach gave this client: proof the person acts (required)" maxlen:"256"`
	Summary    string   `json:"summary,omitempty" desc:"the line the decision was made from: another line held now answers applied:false, reason changed" maxlen:"4096"`
	RiskAck    []string `json:"risk_ack,omitempty" desc:"a risky request's rules, all of them (order-insensitive): an allow needs it" maxlen:"32"`
	PlanSHA    string   `json:"plan_sha,omitempty" desc:"a plan: the sha256 (hex) of the text approved; an allow needs it" maxlen:"64"`
}

// GetApprovalParams are the params of get-approval.
type GetApprovalParams struct {
	RequestID string `json:"request_id,omitempty" req:"true" desc:"the hold" maxlen:"64"`
	Session   string `json:"session,omitempty" desc:"the session the hold is in (checked when given)" maxlen:"4096"`
}

// AnswerAskParams are the params of answer-ask.
type AnswerAskParams struct {
	RequestID  string `json:"request_id,omitempty" req:"true" desc:"the question's request_id (list-attention shows it on the ask item)" maxlen:"64"`
	Answer     string `json:"answer,omitempty" req:"true" desc:"one of the question's options, exactly" maxlen:"256"`
	HumanNonce string `json:"human_nonce,omitempty" desc:"the nonce attach gave this client: proof the person answers" maxlen:"256"`
	Question   string `json:"question,omitempty" desc:"the question as the person saw it: when the item says something else, nothing is applied (reason changed)" maxlen:"4096"`
}

// QueuePromptParams are the params of queue-prompt.
type QueuePromptParams struct {
	Session    string `json:"session,omitempty" desc:"the session"`
	Window     string `json:"window,omitempty" desc:"the pane to type into once its agent is at rest (default: your own pane, else the focused one); it must run an agent tuios knows; human is refused (no keyboard)"`
	Text       string `json:"text,omitempty" req:"true" desc:"the message, typed as one paste then Enter (at most 16 KiB)"`
	HumanNonce string `json:"human_nonce,omitempty" desc:"the nonce attach gave this client: the entry is the person's (by human)" maxlen:"256"`
	From       string `json:"from,omitempty" desc:"a label for the sender (outside panes); a pane is its own window and may not name another" maxlen:"256"`
}

// ListQueuedParams are the params of list-queued.
type ListQueuedParams struct {
	Session    string `json:"session,omitempty" desc:"the session"`
	Window     string `json:"window,omitempty" desc:"only this pane (default: every pane of the session)"`
	HumanNonce string `json:"human_nonce,omitempty" desc:"the nonce attach gave this client: the person gets each message whole (text), to queue a dropped one again" maxlen:"256"`
}

// CancelQueuedParams are the params of cancel-queued.
type CancelQueuedParams struct {
	Session    string `json:"session,omitempty" desc:"the session"`
	Window     string `json:"window,omitempty" desc:"the pane whose entries to drop (needed with all)"`
	ID         string `json:"id,omitempty" desc:"the entry to drop (q1, q2, …)" maxlen:"32"`
	All        bool   `json:"all,omitempty" desc:"drop every entry on the pane the caller may drop"`
	HumanNonce string `json:"human_nonce,omitempty" desc:"the nonce attach gave this client: drop as the person" maxlen:"256"`
}

// ResumeAgentParams are the params of resume-agent.
type ResumeAgentParams struct {
	Session string `json:"session,omitempty" desc:"the session"`
	Window  string `json:"window,omitempty" desc:"the window (default: the caller's own pane, else the focused one)"`
	DryRun  bool   `json:"dry_run,omitempty" desc:"only say the command; type nothing"`
}

// ReviewDiffParams are the params of review-diff.
type ReviewDiffParams struct {
	Session     string   `json:"session,omitempty" desc:"the session"`
	Window      string   `json:"window,omitempty" desc:"the pane whose repository to diff (default: your own pane, else the focused one)"`
	Base        string   `json:"base,omitempty" desc:"diff against this branch, tag or commit (through its merge base with HEAD)" maxlen:"256"`
	Uncommitted bool     `json:"uncommitted,omitempty" desc:"only what is not committed: diff against HEAD"`
	Against     string   `json:"against,omitempty" desc:"another attempt of the same fan (its session): the diff goes from that attempt's work to this one's" maxlen:"4096"`
	Paths       []string `json:"paths,omitempty" desc:"only these files or directories, relative to the repository's top" maxlen:"256"`
	Context     *int     `json:"context,omitempty" desc:"lines of context around each change" min:"0" max:"20" default:"3"`
	Stat        bool     `json:"stat,omitempty" desc:"counts only: files and lines, no hunks"`
}

// ReviewNoteParams are the params of review-note.
type ReviewNoteParams struct {
	Action     string `json:"action,omitempty" desc:"what to do" accepted:"add,edit,remove,list,clear" default:"list"`
	Session    string `json:"session,omitempty" desc:"the session"`
	Window     string `json:"window,omitempty" desc:"the pane whose changes the notes are on (default: your own pane, else the focused one)"`
	Path       string `json:"path,omitempty" desc:"add: the file, relative to the repository's top" maxlen:"4096"`
	Line       int    `json:"line,omitempty" desc:"add: the line, on the new side (or the base's numbering with side old)" min:"0" max:"100000000"`
	Side       string `json:"side,omitempty" desc:"add: the side the line is on" accepted:"new,old" default:"new"`
	Quote      string `json:"quote,omitempty" desc:"add: the line's text the note follows (default: read from the file)" maxlen:"4096"`
	Hunk       string `json:"hunk,omitempty" desc:"add: a hunk header (@@ -a,b +c,d @@ …) to note a whole hunk instead of a line" maxlen:"4096"`
	Text       string `json:"text,omitempty" desc:"add, edit: the note (at most 1000 bytes)" maxlen:"4096"`
	ID         string `json:"id,omitempty" desc:"edit, remove: the note (n1, n2, …)" maxlen:"32"`
	HumanNonce string `json:"human_nonce,omitempty" desc:"the nonce attach gave this client: the note is the person's" maxlen:"256"`
}

// SendReviewParams are the params of send-review.
type SendReviewParams struct {
	Session    string   `json:"session,omitempty" desc:"the session"`
	Window     string   `json:"window,omitempty" desc:"the pane whose agent gets the notes (default: your own pane, else the focused one)"`
	IDs        []string `json:"ids,omitempty" desc:"only these notes (default: every unsent one)" maxlen:"200"`
	Now        bool     `json:"now,omitempty" desc:"only if the agent is at rest with nothing queued, else not_ready (or agent_blocked on a prompt)"`
	HumanNonce string   `json:"human_nonce,omitempty" desc:"the nonce attach gave this client: sent as the person" maxlen:"256"`
}

// AgentActivityParams are the params of agent-activity.
type AgentActivityParams struct {
	Session  string `json:"session,omitempty" desc:"the session"`
	Window   string `json:"window,omitempty" desc:"the window (default: the caller's own pane, else the focused one)"`
	Since    int64  `json:"since,omitempty" desc:"only entries at or after this time (unix ns)" min:"0"`
	SinceSeq int    `json:"since_seq,omitempty" desc:"only entries after this seq (a previous answer's last_seq)" min:"0" max:"9007199254740991"`
	Limit    int    `json:"limit,omitempty" desc:"the newest this many entries" min:"1" max:"256" default:"64"`
	Recap    bool   `json:"recap,omitempty" desc:"also sum up the entries since since: turns, files, commands, tests, what it last said, its state"`
}
