package proto

import "github.com/tuios/tuios/review"

// The results of the Inbox, reply-queue, held-respond and review verbs
// (internal/daemon/attention, and the mirrored items of
// internal/daemon/links). Their fields are in the order of their JSON
// keys, the order the daemon has always written them in (they were maps
// once): a script that compares bytes sees none change.

// PromptQueued is queue-prompt's answer: the entry's id, its place in
// the pane's queue, how many wait, and whether the first is being typed
// now.
type PromptQueued struct {
	Delivering bool   `json:"delivering"`
	ID         string `json:"id"` // q1, q2, ...
	Name       string `json:"name"`
	Position   int    `json:"position"`
	Queued     int    `json:"queued"`
	Session    string `json:"session"`
	Type       string `json:"type"` // prompt_queued
	Window     string `json:"window"`
}

// AttentionDismissed is dismiss-attention's answer. Host is the machine
// of a mirrored item, LocalOnly says it was taken off this machine's
// Inbox only; ForHost and Discarded (always together) name an outbox
// item's host and how much of its waiting mail was discarded.
type AttentionDismissed struct {
	Discarded *int   `json:"discarded,omitempty"`
	Dismissed bool   `json:"dismissed"`
	ForHost   string `json:"for_host,omitempty"`
	Host      string `json:"host,omitempty"`
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	LocalOnly bool   `json:"local_only,omitempty"`
	Session   string `json:"session"`
	Type      string `json:"type"` // attention_dismissed
}

// AttentionMarked is mark-attention's answer: the item marked (none for
// an undo with nothing to undo) and, while it is still in the Inbox,
// when its snooze ends (unix ns; -1 until it changes, 0 awake). Host and
// LocalOnly as in AttentionDismissed.
type AttentionMarked struct {
	Action       string `json:"action"`
	Host         string `json:"host,omitempty"`
	ID           string `json:"id,omitempty"`
	LocalOnly    bool   `json:"local_only,omitempty"`
	SnoozedUntil *int64 `json:"snoozed_until,omitempty"`
	Type         string `json:"type"` // attention_marked
}

// HeldPromptResponse is respond's answer when the pane's prompt was a
// held approval (the harness waits on its hook, nothing is typed): the
// fields of PromptResponse, in their own order, plus the hold answered
// (HeldID, = PromptID) and the Inbox's decision (once, always, deny).
// Clients read it as a PromptResponse.
type HeldPromptResponse struct {
	Action    string   `json:"action"`
	By        string   `json:"by"`
	Decision  string   `json:"decision"`
	HeldID    string   `json:"held_id"`
	Message   string   `json:"message"`
	Name      string   `json:"name"`
	PressedMS int64    `json:"pressed_ms"`
	PromptID  string   `json:"prompt_id"`
	Sent      []string `json:"sent"` // always empty: no key is pressed
	Session   string   `json:"session"`
	SettledBy string   `json:"settled_by"` // state
	SettledMS int64    `json:"settled_ms"`
	State     string   `json:"state"`
	Type      string   `json:"type"` // prompt_response
	Window    string   `json:"window"`
}

// ReviewDiff is review-diff's answer: the pane's worktree against its
// base (or, with Against, another attempt of its fan), with the review
// notes following their lines. The CLI's text form and the attach
// client's review overlay read it. File contents and notes are text of
// the worktree and of other panes: untrusted.
type ReviewDiff struct {
	// Against is the other attempt of a fan the diff goes from (its
	// session), AgainstTree the tree its work was read as; "" for none.
	Against     string        `json:"against"`
	AgainstTree string        `json:"against_tree"`
	Base        string        `json:"base"`
	BaseSHA     string        `json:"base_sha"`
	Files       []review.File `json:"files"`
	// Group is the fan the pane's worktree is an attempt of ("" none):
	// w in the client's review compares its attempts.
	Group       string        `json:"group"`
	Name        string        `json:"name"`
	Notes       []review.Note `json:"notes"`
	RepoRoot    string        `json:"repo_root"`
	Session     string        `json:"session"`
	Totals      review.Totals `json:"totals"`
	TreeSHA     string        `json:"tree_sha"`
	Truncated   bool          `json:"truncated"`
	Type        string        `json:"type"` // review_diff
	Uncommitted bool          `json:"uncommitted"`
	Untrusted   bool          `json:"untrusted"`
	Window      string        `json:"window"`
	Worktree    string        `json:"worktree"`
}

// ReviewNotes is review-note's answer, whatever its action: the pane's
// notes after it, ID the note added, edited or removed, Removed the
// notes a remove or a clear took away and Kept those a clear left
// (written by someone the caller may not overrule).
type ReviewNotes struct {
	ID       string        `json:"id,omitempty"`
	Kept     *int          `json:"kept,omitempty"`
	Notes    []review.Note `json:"notes"`
	Removed  *int          `json:"removed,omitempty"`
	Session  string        `json:"session"`
	Type     string        `json:"type"` // review_notes
	Window   string        `json:"window"`
	Worktree string        `json:"worktree"`
}

// ReviewSent is send-review's answer: the notes sent as one message in
// the pane's reply queue (QueuedID, Position, Queued and Delivering as
// queue-prompt's answer says them), and those withheld (their pane
// closed), when any were.
type ReviewSent struct {
	Delivering bool           `json:"delivering"`
	IDs        []string       `json:"ids"`
	Notes      int            `json:"notes"`
	Position   int            `json:"position"`
	Queued     int            `json:"queued"`
	QueuedID   string         `json:"queued_id"`
	Session    string         `json:"session"`
	Type       string         `json:"type"` // review_sent
	Window     string         `json:"window"`
	Withheld   []WithheldNote `json:"withheld,omitempty"`
}

// WithheldNote is a note send-review did not send, and why.
type WithheldNote struct {
	ID     string `json:"id"`
	By     string `json:"by"`
	Reason string `json:"withheld_reason"`
}
