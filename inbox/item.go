package inbox

import (
	"slices"
	"strconv"

	"github.com/tuios/tuios/review"
)

// Item is one entry of the Inbox, as list-attention and the attention
// event carry it. Slices are shared with the queue: read them, never
// modify them.
type Item struct {
	ID        string `json:"id"` // stable, never reused on this machine
	Kind      Kind   `json:"kind"`
	Host      string `json:"host,omitempty"` // empty: this machine
	Session   string `json:"session"`
	Window    string `json:"window,omitempty"`
	Workspace string `json:"workspace,omitempty"`
	Harness   string `json:"harness,omitempty"`
	Name      string `json:"name,omitempty"`
	// Summary is one line, whitespace collapsed, control characters
	// removed, likely secrets masked, at most MaxSummaryBytes. It came
	// from an agent: print it as data.
	Summary string `json:"summary"`
	// Options are the decisions a held approval takes, or an ask's answers.
	Options     []string `json:"options,omitempty"`
	RequestID   string   `json:"request_id,omitempty"`
	AlwaysScope []string `json:"always_scope,omitempty"`
	Expires     int64    `json:"expires,omitempty"` // unix ns: a hold's deadline
	Answer      string   `json:"answer,omitempty"`  // on the answered close
	AnsweredBy  string   `json:"answered_by,omitempty"`
	// Since is when the item opened (unix ns); kept across updates, a
	// snooze and a restore.
	Since int64 `json:"since"`
	// Seq is the queue's revision at the item's last change.
	Seq           uint64 `json:"seq"`
	Thread        uint64 `json:"thread,omitempty"`
	Count         int    `json:"count,omitempty"`
	CompletionSeq uint64 `json:"completion_seq,omitempty"`
	// Closed is the close reason, set on close events only.
	Closed Reason `json:"closed,omitempty"`
	Stale  bool   `json:"stale,omitempty"`
	SeenAt int64  `json:"seen_at,omitempty"`
	// SnoozedUntil is when a snoozed item wakes (unix ns), -1 when it
	// wakes only when its fact changes, 0 when it is not snoozed.
	SnoozedUntil int64        `json:"snoozed_until,omitempty"`
	MarkedUnread bool         `json:"marked_unread,omitempty"`
	Risk         []review.Hit `json:"risk,omitempty"`
	DenyMessage  bool         `json:"deny_message,omitempty"`
	PlanLines    int          `json:"plan_lines,omitempty"`
	PlanSHA      string       `json:"plan_sha,omitempty"`
	HeldID       string       `json:"held_id,omitempty"`  // the request id of a hold
	HeldFor      string       `json:"held_for,omitempty"` // held mail: who it was for
	// MessageID is a mail item's newest unread message to the person:
	// what release-agent-message passes on when the item is held mail.
	MessageID uint64 `json:"message_id,omitempty"`
	ForHost   string `json:"for_host,omitempty"` // outbox: the machine
	// Thing is what a config item is about: "permissions" (a change
	// that waits for tuios config apply) or "widened" (the daemon
	// started with wider grants than it ran with).
	Thing string `json:"thing,omitempty"`
}

// UntilChange is SnoozedUntil for an item that sleeps until its fact
// changes.
const UntilChange int64 = -1

// Snoozed reports whether the item sleeps.
func (it Item) Snoozed() bool { return it.SnoozedUntil != 0 }

// Held reports whether a hook holds the item's approval or plan.
func (it Item) Held() bool { return it.HeldID != "" }

// Snoozable reports whether the person may snooze the item: not a held
// approval, a plan, an ask or an outbox item.
func (it Item) Snoozable() bool { return it.Kind.Snoozable() && !it.Held() }

// Key is what the item is about; the queue holds at most one item per key.
func (it Item) Key() Key {
	switch it.Kind {
	case KindApproval, KindPlan, KindQuestion:
		return BlockingKey(it.Window)
	case KindErrored:
		return Key{slot: slotErrored, id: it.Window}
	case KindFinished:
		return Key{slot: slotFinished, id: it.Window}
	case KindResume:
		return Key{slot: slotResume, id: it.Window}
	case KindMail:
		return MailKey(it.Session, it.Thread)
	case KindAsk:
		return AskKey(it.RequestID)
	case KindOutbox:
		return outboxKey(it.ForHost)
	case KindConfig:
		return ConfigKey(it.Thing)
	}
	return Key{slot: slotOther, id: it.ID}
}

// Key names what an item is about: one blocking item (approval, plan or
// question) per pane, one errored, one finished and one resume item per
// pane, one mail item per session and thread, one ask per request id, one
// outbox item per host. The zero Key names nothing. Keys are comparable.
type Key struct {
	slot   slot
	id     string
	thread uint64
}

type slot uint8

const (
	slotNone slot = iota
	slotBlocking
	slotErrored
	slotFinished
	slotResume
	slotMail
	slotAsk
	slotOutbox
	slotOther
	slotConfig
)

// BlockingKey is a pane's blocking key (approval, plan, question).
func BlockingKey(pane string) Key { return Key{slot: slotBlocking, id: pane} }

// PaneKey is the key of an item of kind k on a pane: the blocking key
// for approval, plan and question, and the pane's errored, finished or
// resume key. Other kinds have no pane key: the zero Key.
func PaneKey(k Kind, pane string) Key {
	switch k {
	case KindApproval, KindPlan, KindQuestion:
		return BlockingKey(pane)
	case KindErrored:
		return Key{slot: slotErrored, id: pane}
	case KindFinished:
		return Key{slot: slotFinished, id: pane}
	case KindResume:
		return Key{slot: slotResume, id: pane}
	}
	return Key{}
}

// MailKey is the key of a thread's mail item.
func MailKey(session string, thread uint64) Key {
	return Key{slot: slotMail, id: session, thread: thread}
}

// AskKey is the key of an ask-human question.
func AskKey(requestID string) Key { return Key{slot: slotAsk, id: requestID} }

// ConfigKey is the key of a config item about thing.
func ConfigKey(thing string) Key { return Key{slot: slotConfig, id: thing} }

// outboxKey is the key of a host's outbox item.
func outboxKey(host string) Key { return Key{slot: slotOutbox, id: host} }

// String is a readable form for logs and test failures.
func (k Key) String() string {
	name := [...]string{"none", "blocking", "errored", "finished", "resume", "mail", "ask", "outbox", "other", "config"}[k.slot]
	if k.slot == slotMail {
		return name + ":" + k.id + "/" + strconv.FormatUint(k.thread, 10)
	}
	return name + ":" + k.id
}

// pane is the pane a pane key is about, "" for other keys.
func (k Key) pane() string {
	switch k.slot {
	case slotBlocking, slotErrored, slotFinished, slotResume:
		return k.id
	}
	return ""
}

// Op says what an event did to its item.
type Op string

// Event operations.
const (
	OpOpen   Op = "open"   // a new item, or one back from a snooze or a restore
	OpUpdate Op = "update" // an open item changed
	OpClose  Op = "close"  // an item left the list (Item.Closed says why); a snoozed item dropped
)

// Event is one change of the queue, in seq order. An update that changes
// nothing makes no event.
type Event struct {
	Op   Op
	Item Item // the item after the change; Closed is set on a close
	// HoldEnded names a hold (its request id) that this change ended
	// without an answer: the daemon tells the hook the harness asks in
	// its own pane. A close of a held item ends its hold too; its
	// Item.HeldID says which.
	HoldEnded string
}

// sameContent reports whether two items say the same thing: every field
// but the id, since, seq, the close reason and the snooze.
func sameContent(a, b *Item) bool {
	return a.Kind == b.Kind && a.Host == b.Host && a.Session == b.Session && a.Window == b.Window &&
		a.Workspace == b.Workspace && a.Harness == b.Harness && a.Name == b.Name && a.Summary == b.Summary &&
		slices.Equal(a.Options, b.Options) && a.RequestID == b.RequestID && slices.Equal(a.AlwaysScope, b.AlwaysScope) &&
		a.Expires == b.Expires && a.Answer == b.Answer && a.AnsweredBy == b.AnsweredBy && a.Thread == b.Thread &&
		a.Count == b.Count && a.CompletionSeq == b.CompletionSeq && a.Stale == b.Stale && a.SeenAt == b.SeenAt &&
		a.MarkedUnread == b.MarkedUnread && slices.Equal(a.Risk, b.Risk) && a.DenyMessage == b.DenyMessage &&
		a.PlanLines == b.PlanLines && a.PlanSHA == b.PlanSHA && a.HeldID == b.HeldID && a.HeldFor == b.HeldFor &&
		a.ForHost == b.ForHost && a.MessageID == b.MessageID
}

// setContent copies what b says into a, keeping a's id, since, seq and
// snooze.
func setContent(a *Item, b Item) {
	b.ID, b.Since, b.Seq, b.SnoozedUntil, b.Closed = a.ID, a.Since, a.Seq, a.SnoozedUntil, ""
	*a = b
}

// wakes reports whether new says something a sleeping old did not: the
// fact changed, so a snooze ends early. A report repeating the item
// leaves it asleep.
func wakes(old, new *Item) bool {
	if old.Kind != new.Kind || old.HeldID != new.HeldID {
		return true
	}
	switch new.Kind {
	case KindFinished:
		return new.CompletionSeq != old.CompletionSeq // only a new turn sets it
	case KindMail:
		return new.Count > old.Count || new.Summary != old.Summary
	case KindOutbox:
		return new.Count > old.Count || new.Summary != old.Summary
	}
	return new.Summary != old.Summary
}
