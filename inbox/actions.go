package inbox

import (
	"fmt"
	"slices"
	"time"

	"github.com/tuios/tuios/agentstate"
)

// Dismissed is dismiss-attention's answer, with what the daemon must do
// besides publishing the close.
type Dismissed struct {
	ID      string
	Kind    Kind
	Session string
	Host    string
	// MarkSeen names the pane whose turns are now seen (a finished item):
	// the daemon calls agentstate's MarkSeen.
	MarkSeen string
	// ReadSession and ReadThread name the thread whose mail to the person
	// is now read (a mail item).
	ReadSession string
	ReadThread  uint64
	// ForHost and Discarded: an outbox item's waiting mail to discard.
	ForHost   string
	Discarded int
	// HeldID is a hold the dismiss ended: the hook hears "dismissed".
	HeldID string
	// RequestID is an ask whose asker hears "dismissed".
	RequestID string
}

type undoOp uint8

const (
	undoDismiss undoOp = iota + 1
	undoSnooze
)

// undoEntry is a dismiss or snooze that may be undone: the item as it was.
type undoEntry struct {
	op   undoOp
	at   time.Time
	was  entry
	mark uint64 // mail: the thread's dismiss mark before the dismiss
}

func (q *Queue) pushUndo(u undoEntry) {
	if len(q.undo) == UndoDepth {
		q.undo = slices.Delete(q.undo, 0, 1)
	}
	q.undo = append(q.undo, u)
}

// unknown is the refusal for an id the queue does not hold.
func (q *Queue) unknown(id string) *Error {
	for i := len(q.undo) - 1; i >= 0; i-- {
		if u := q.undo[i]; u.op == undoDismiss && u.was.ID == id {
			return invalid(WhyDismissed, "id", "a dismiss can be undone for 10 seconds (Undo)",
				fmt.Sprintf("item %s was dismissed already", id))
		}
	}
	return invalid(WhyUnknownID, "id", "list the items, snoozed ones included, for their ids", fmt.Sprintf("no item has the id %q", id))
}

// Dismiss takes an open or snoozed item off the list (dismissed).
// Dismissing a finished item marks the pane's turns seen; a mail item
// marks the thread's mail read; an outbox item discards the waiting mail;
// an ask tells the asker "dismissed"; a held approval or plan ends its
// hold. A blocking or errored item stays closed until the pane leaves the
// state (a later transition opens a new item), or, for an approval, until
// the agent asks for something else: another approval line, or a hook's
// new hold. Refusals
// (CodeInvalidParams): an unknown id, a second dismiss.
func (q *Queue) Dismiss(id string) (Dismissed, []Event, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.byID[id]
	if e == nil {
		return Dismissed{}, nil, q.unknown(id)
	}
	d := Dismissed{ID: e.ID, Kind: e.Kind, Session: e.Session, Host: e.Host}
	u := undoEntry{op: undoDismiss, at: q.clock.Now(), was: *e}
	r := q.panes[e.Window]
	switch e.Kind {
	case KindFinished:
		d.MarkSeen = e.Window
		if r != nil {
			r.unread = false
		}
	case KindMail:
		d.ReadSession, d.ReadThread = e.Session, e.Thread
		u.mark = q.mailMark[e.key]
		q.mailMark[e.key] = max(u.mark, e.latest)
	case KindOutbox:
		d.ForHost, d.Discarded = e.ForHost, e.Count
	case KindAsk:
		d.RequestID = e.RequestID
	case KindApproval, KindPlan, KindQuestion:
		d.HeldID = e.HeldID
		if r != nil {
			r.hold = nil
			if !e.notice && r.state == agentstate.NeedsInput {
				r.blockDone, r.doneRaw = true, r.raw
			}
		}
	case KindErrored:
		if r != nil && r.state == agentstate.Errored {
			r.errDone = true
		}
	}
	var evs []Event
	q.end(&evs, e.key, ReasonDismissed)
	q.pushUndo(u)
	return d, evs, nil
}

// Snooze says when a snoozed item wakes: exactly one of Until, For and
// UntilChange.
type Snooze struct {
	Until       time.Time     // a time within a year
	For         time.Duration // at most a year
	UntilChange bool          // only when its fact changes
}

// Snooze puts an item to sleep: it closes (snoozed, the event carrying
// snoozed_until), leaves the list and the counts, and comes back with the
// same id and since when its time comes (Tick), when its fact changes (a
// report it did not already say, a hook starting to hold it), on Wake or
// on Restore. If its fact ends while it sleeps it is dropped with that
// reason. Snoozing a snoozed item moves its wake time. Refusals
// (CodeInvalidParams): an unknown id; a held approval, a plan, an ask or
// an outbox item; not exactly one of Until, For and UntilChange, or one
// out of range; MaxSnoozed items asleep already.
func (q *Queue) Snooze(id string, s Snooze) ([]Event, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.byID[id]
	if e == nil {
		return nil, q.unknown(id)
	}
	if !e.Snoozable() {
		what := string(e.Kind)
		if e.Held() {
			what = "held " + what
		}
		return nil, invalid(WhyNotSnoozable, "id", "an agent or the mail waits on it: answer or dismiss it",
			fmt.Sprintf("%s items cannot be snoozed", what))
	}
	now := q.clock.Now()
	until, err := snoozeUntil(now, s)
	if err != nil {
		return nil, err
	}
	if !e.asleep() && q.asleep >= MaxSnoozed {
		return nil, invalid(WhySnoozeFull, "id", "wake or dismiss some snoozed items", fmt.Sprintf("%d items are snoozed already", MaxSnoozed))
	}
	u := undoEntry{op: undoSnooze, at: now, was: *e}
	if !e.asleep() {
		q.open--
		q.asleep++
	}
	e.SnoozedUntil = until
	var evs []Event
	q.emit(&evs, OpClose, e, ReasonSnoozed, "")
	q.pushUndo(u)
	return evs, nil
}

// snoozeUntil reads a Snooze at now: the unix-nanosecond wake time (or
// UntilChange), or why it is refused. The queue and the mirror share it so
// they refuse the same snoozes with the same words.
func snoozeUntil(now time.Time, s Snooze) (int64, error) {
	n := 0
	var until int64
	if !s.Until.IsZero() {
		n++
		if !s.Until.After(now) || s.Until.Sub(now) > MaxSnooze {
			return 0, invalid(WhySnoozeSpec, "until", "give a time in the next year", "the wake time is in the past or more than a year ahead")
		}
		until = s.Until.UnixNano()
	}
	if s.For != 0 {
		n++
		if s.For < 0 || s.For > MaxSnooze {
			return 0, invalid(WhySnoozeSpec, "for_ms", "give a positive time of at most a year", "the snooze is negative or longer than a year")
		}
		until = now.Add(s.For).UnixNano()
	}
	if s.UntilChange {
		n++
		until = UntilChange
	}
	if n != 1 {
		return 0, invalid(WhySnoozeSpec, "until", "give exactly one of until, for_ms and until_change",
			fmt.Sprintf("%d of until, for_ms and until_change given", n))
	}
	return until, nil
}

// Wake brings a snoozed item back now, with its id and since. Refusals
// (CodeInvalidParams): an unknown id, an item that is not snoozed.
func (q *Queue) Wake(id string) ([]Event, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.byID[id]
	if e == nil {
		return nil, q.unknown(id)
	}
	if !e.asleep() {
		return nil, invalid(WhyNotSnoozed, "id", "", fmt.Sprintf("item %s is not snoozed", id))
	}
	var evs []Event
	q.wake(&evs, e)
	return evs, nil
}

// NextWake is the earliest time a timed snooze ends, and the zero time
// when nothing timed sleeps. The queue arms no timer: the embedder keeps
// one timer for NextWake (none when it is zero), calls Tick when it fires,
// and asks again after every call that returned events.
func (q *Queue) NextWake() time.Time {
	q.mu.Lock()
	defer q.mu.Unlock()
	var next int64
	for _, e := range q.byID {
		next = soonerWake(next, e.SnoozedUntil)
	}
	return wakeTime(next)
}

// soonerWake folds a snooze end u (unix nanoseconds, 0 for none) into
// next, the earliest end so far; the queue and the mirror share it.
func soonerWake(next, u int64) int64 {
	if u > 0 && (next == 0 || u < next) {
		return u
	}
	return next
}

// wakeTime is next as NextWake returns it: the zero time when nothing
// timed sleeps.
func wakeTime(next int64) time.Time {
	if next == 0 {
		return time.Time{}
	}
	return time.Unix(0, next)
}

// Tick wakes every item whose snooze ended at or before now, earliest
// first.
func (q *Queue) Tick(now time.Time) []Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	var due []*entry
	for _, e := range q.byID {
		if u := e.SnoozedUntil; u > 0 && u <= now.UnixNano() {
			due = append(due, e)
		}
	}
	slices.SortFunc(due, func(a, b *entry) int {
		if a.SnoozedUntil != b.SnoozedUntil {
			return cmpU64(uint64(a.SnoozedUntil), uint64(b.SnoozedUntil))
		}
		return cmpU64(a.num, b.num)
	})
	var evs []Event
	for _, e := range due {
		if q.byID[e.ID] == e && e.asleep() {
			q.wake(&evs, e)
		}
	}
	return evs
}

// Undo undoes the last dismiss or snooze made in the last UndoWindow;
// called again it goes to the one before. The item comes back with its id
// and since. An entry it cannot restore is used up by the refusal, so the
// next Undo goes to the one before. Refusals (CodeInvalidParams): nothing
// to undo; too late (the whole history is then forgotten, every entry
// being older); and Restore's.
func (q *Queue) Undo() ([]Event, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.undo) == 0 {
		return nil, invalid(WhyNothingToUndo, "", "", "there is no dismiss or snooze to undo")
	}
	u := q.undo[len(q.undo)-1]
	q.undo = q.undo[:len(q.undo)-1]
	if q.clock.Now().Sub(u.at) > UndoWindow {
		q.undo = q.undo[:0]
		return nil, invalid(WhyTooLate, "", "undo works for 10 seconds", "the last dismiss or snooze is more than 10 seconds old")
	}
	return q.restore(u)
}

// Restore brings back one item by id: a snoozed item wakes (as Wake); a
// dismissed one comes back, with its id and since, if it was dismissed in
// the last UndoWindow. A held approval or plan comes back without its
// hold, as a plain approval. Refusals (CodeInvalidParams): an unknown id;
// too late; an outbox item (its mail was discarded) or an ask (its asker
// was told); a newer item about the same thing exists; the pane left the
// state the item was about (or closed).
func (q *Queue) Restore(id string) ([]Event, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if e := q.byID[id]; e != nil {
		if !e.asleep() {
			return nil, invalid(WhyNotSnoozed, "id", "", fmt.Sprintf("item %s is open", id))
		}
		var evs []Event
		q.wake(&evs, e)
		return evs, nil
	}
	u, err := takeDismissed(&q.undo, id, q.clock.Now(), func(u undoEntry) (undoOp, string, time.Time) { return u.op, u.was.ID, u.at })
	if err != nil {
		return nil, err
	}
	return q.restore(u)
}

// takeDismissed removes from undo, and returns, the newest entry that
// dismissed id; one older than UndoWindow, or none, is the refusal Restore
// answers. The queue and the mirror of linked hosts keep their own undo
// entries, of their own types.
func takeDismissed[U any](undo *[]U, id string, now time.Time, of func(U) (op undoOp, itemID string, at time.Time)) (U, error) {
	var zero U
	for i := len(*undo) - 1; i >= 0; i-- {
		u := (*undo)[i]
		op, itemID, at := of(u)
		if op != undoDismiss || itemID != id {
			continue
		}
		*undo = slices.Delete(*undo, i, i+1)
		if now.Sub(at) > UndoWindow {
			return zero, invalid(WhyTooLate, "id", "restore works for 10 seconds", fmt.Sprintf("item %s was dismissed more than 10 seconds ago", id))
		}
		return u, nil
	}
	return zero, invalid(WhyUnknownID, "id", "only an item dismissed in the last 10 seconds can be restored",
		fmt.Sprintf("no item %q to restore", id))
}

// restore undoes one entry.
func (q *Queue) restore(u undoEntry) ([]Event, error) {
	var evs []Event
	if u.op == undoSnooze {
		e := q.byID[u.was.ID]
		if e == nil {
			return nil, invalid(WhyFactEnded, "id", "", fmt.Sprintf("item %s is gone: what it was about ended", u.was.ID))
		}
		if !e.asleep() {
			return nil, invalid(WhyNotSnoozed, "id", "", fmt.Sprintf("item %s is awake already", u.was.ID))
		}
		q.wake(&evs, e)
		return evs, nil
	}
	was := u.was
	switch was.Kind {
	case KindOutbox:
		return nil, invalid(WhyNotRestorable, "id", "", "a dismissed outbox item cannot come back: its mail was discarded")
	case KindAsk:
		return nil, invalid(WhyNotRestorable, "id", "", "a dismissed question cannot come back: the asker was told")
	}
	if cur := q.byKey[was.key]; cur != nil {
		return nil, invalid(WhyNewerItem, "id", "", fmt.Sprintf("item %s is newer and about the same thing", cur.ID))
	}
	r := q.panes[was.Window]
	ended := false
	switch was.Kind {
	case KindApproval, KindPlan, KindQuestion:
		if was.notice {
			ended = r == nil || r.state != was.noticeState
		} else {
			ended = r == nil || r.state != agentstate.NeedsInput
		}
	case KindErrored:
		ended = (r == nil && !was.restored) || (r != nil && r.state != agentstate.Errored && !(was.restored && r.state == agentstate.None))
	case KindFinished:
		ended = (r == nil && !was.restored) || (r != nil && (r.state == agentstate.Working || r.state == agentstate.NeedsInput || r.state == agentstate.Errored))
	case KindResume:
		ended = r == nil || r.state == agentstate.Working || r.state == agentstate.NeedsInput
	}
	if ended {
		return nil, invalid(WhyFactEnded, "id", "", fmt.Sprintf("item %s is about something that has ended", was.ID))
	}
	e := &entry{}
	*e = was
	e.SnoozedUntil, e.Closed = 0, ""
	switch was.Kind {
	case KindApproval, KindPlan, KindQuestion:
		if !was.notice {
			r.blockDone = false
			r.hold = nil
			setContent(&e.Item, q.blockingItem(r))
		}
	case KindErrored:
		if r != nil {
			r.errDone = false
		}
	case KindMail:
		q.mailMark[was.key] = u.mark
		e.pinned = true
	}
	q.insert(e)
	q.emit(&evs, OpOpen, e, "", "")
	q.evict(&evs, e)
	return evs, nil
}

// MarkUnread marks the pane's last finished turn unread for every client:
// its finished item opens, or is marked, with marked_unread. The pane
// must be known, at rest (idle or done), have finished a turn, and not be
// the one in front of the person (focused). Refusals are
// CodeInvalidParams.
func (q *Queue) MarkUnread(pane string, focused bool) ([]Event, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	r := q.panes[pane]
	switch {
	case r == nil || !r.known:
		return nil, invalid(WhyUnknownPane, "window", "name a local agent pane", fmt.Sprintf("no agent pane %q", pane))
	case focused:
		return nil, invalid(WhyFocused, "window", "", "the pane in front of you cannot be marked unread")
	case r.state != agentstate.Idle && r.state != agentstate.Done:
		return nil, invalid(WhyNotAtRest, "window", "wait for the agent to finish its turn", fmt.Sprintf("the agent is %s, not at rest", r.state))
	case r.seq == 0:
		return nil, invalid(WhyNoTurn, "window", "", "the agent has not finished a turn")
	}
	k := PaneKey(KindFinished, pane)
	var evs []Event
	e := q.byKey[k]
	it := r.finishedItem(e, false)
	it.MarkedUnread = true
	switch {
	case e == nil:
		q.openNew(&evs, k, it, q.clock.Now())
	case e.asleep():
		setContent(&e.Item, it)
		q.wake(&evs, e)
	default:
		q.put(&evs, k, it, q.clock.Now())
	}
	return evs, nil
}
