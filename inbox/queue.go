package inbox

import (
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/review"
)

// Limits of the queue.
const (
	MaxOpen           = 1024                 // open items; past it the oldest closes evicted, finished first
	MaxSnoozed        = 1024                 // items asleep at once
	UndoDepth         = 16                   // dismisses and snoozes remembered for undo
	UndoWindow        = 10 * time.Second     // how long one can be undone
	MaxSnooze         = 365 * 24 * time.Hour // the furthest a snooze may reach
	MaxAsksFromNoPane = 16                   // open ask-human questions from no pane, per session
)

// Clock tells the time. An agentstate.Clock (and so agentstate/fakeclock
// in tests) satisfies it: the queue only reads the time and never arms a
// timer.
type Clock interface{ Now() time.Time }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// Options configure a Queue.
type Options struct {
	// Clock stamps since and times snoozes and undo; nil is the wall clock.
	Clock Clock
	// Risk reads an approval's line for risk rules; nil gives no risk
	// unless a hold names it.
	Risk *review.Checker
	// BootID names this start of the queue (list-attention's boot_id); ""
	// draws a random one.
	BootID string
}

// Queue is the attention queue of one daemon. It is safe for concurrent
// use; every call that changes it returns the events of that change, in
// seq order, and the embedder publishes them. It starts no goroutine and
// arms no timer: the embedder asks NextWake and calls Tick.
type Queue struct {
	mu       sync.Mutex
	clock    Clock
	risk     *review.Checker
	bootID   string
	seq      uint64 // the revision of the last change
	nextID   uint64 // the last id issued
	byKey    map[Key]*entry
	byID     map[string]*entry
	open     int
	asleep   int
	panes    map[string]*paneRec
	mailMark map[Key]uint64 // a thread's mail dismissed through this message id
	undo     []undoEntry
}

// entry is an item the queue holds, open or asleep.
type entry struct {
	Item
	key         Key
	num         uint64 // the id as a number: creation order
	notice      bool   // a question the daemon opened on a pane not on needs_input
	noticeState agentstate.State
	restored    bool   // kept across a restart: a pane back with no state does not end it
	pinned      bool   // restored mail: an unread count of 0 for what it said does not close it
	latest      uint64 // mail: the newest message id it says
}

func (e *entry) asleep() bool { return e.SnoozedUntil != 0 }

// New makes an empty queue.
func New(opt Options) *Queue {
	if opt.Clock == nil {
		opt.Clock = realClock{}
	}
	if opt.BootID == "" {
		var b [8]byte
		_, _ = rand.Read(b[:])
		opt.BootID = hex.EncodeToString(b[:])
	}
	return &Queue{
		clock: opt.Clock, risk: opt.Risk, bootID: opt.BootID,
		byKey: map[Key]*entry{}, byID: map[string]*entry{}, panes: map[string]*paneRec{}, mailMark: map[Key]uint64{},
	}
}

// BootID names this start of the queue.
func (q *Queue) BootID() string { return q.bootID }

// Seq is the revision of the last change; it only grows, across restarts
// too (see Marshal).
func (q *Queue) Seq() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.seq
}

// emit stamps e with the next seq and appends its event.
func (q *Queue) emit(evs *[]Event, op Op, e *entry, closed Reason, holdEnded string) {
	q.seq++
	e.Seq = q.seq
	it := e.Item
	it.Closed = closed
	*evs = append(*evs, Event{Op: op, Item: it, HoldEnded: holdEnded})
}

// openNew opens a new item on k.
func (q *Queue) openNew(evs *[]Event, k Key, c Item, now time.Time) *entry {
	q.nextID++
	e := &entry{Item: c, key: k, num: q.nextID}
	e.ID = strconv.FormatUint(e.num, 10)
	e.Since = now.UnixNano()
	e.SnoozedUntil, e.Closed, e.Seq = 0, "", 0
	q.insert(e)
	q.emit(evs, OpOpen, e, "", "")
	q.evict(evs, e)
	return e
}

func (q *Queue) insert(e *entry) {
	q.byKey[e.key] = e
	q.byID[e.ID] = e
	if p := e.key.pane(); p != "" {
		if r := q.panes[p]; r != nil {
			r.items[e.key.slot] = e
		}
	}
	if e.asleep() {
		q.asleep++
	} else {
		q.open++
	}
}

func (q *Queue) remove(e *entry) {
	delete(q.byKey, e.key)
	delete(q.byID, e.ID)
	if p := e.key.pane(); p != "" {
		if r := q.panes[p]; r != nil && r.items[e.key.slot] == e {
			r.items[e.key.slot] = nil
		}
	}
	if e.asleep() {
		q.asleep--
	} else {
		q.open--
	}
}

// put makes the item on k say c: it opens one, updates the open one
// (keeping its id and since; nothing is published when nothing changed),
// or updates a sleeping one, waking it when c says something new.
func (q *Queue) put(evs *[]Event, k Key, c Item, now time.Time) *entry {
	return q.putOn(evs, q.byKey[k], k, &c, now)
}

// putOn is put with the item on k (or nil) already looked up.
func (q *Queue) putOn(evs *[]Event, e *entry, k Key, cp *Item, now time.Time) *entry {
	c := cp
	switch {
	case e == nil:
		return q.openNew(evs, k, *c, now)
	case e.asleep():
		if wakes(&e.Item, c) {
			setContent(&e.Item, *c)
			q.wake(evs, e)
		} else {
			setContent(&e.Item, *c) // a report repeating the item leaves it asleep
		}
	case !sameContent(&e.Item, c):
		setContent(&e.Item, *c)
		q.emit(evs, OpUpdate, e, "", "")
	}
	return e
}

// wake brings a sleeping item back with its id and since.
func (q *Queue) wake(evs *[]Event, e *entry) {
	e.SnoozedUntil = 0
	q.asleep--
	q.open++
	q.emit(evs, OpOpen, e, "", "")
	q.evict(evs, e)
}

// end closes the item on k (or drops a sleeping one) with reason. It
// reports whether there was one.
func (q *Queue) end(evs *[]Event, k Key, reason Reason) bool {
	return q.endEntry(evs, q.byKey[k], reason)
}

// endEntry is end with the item (or nil) already looked up.
func (q *Queue) endEntry(evs *[]Event, e *entry, reason Reason) bool {
	if e == nil {
		return false
	}
	q.remove(e)
	q.emit(evs, OpClose, e, reason, "")
	return true
}

// evict closes the oldest open items, finished first, until at most
// MaxOpen are open. keep is never chosen.
func (q *Queue) evict(evs *[]Event, keep *entry) {
	for q.open > MaxOpen {
		var victim *entry
		for _, e := range q.byID {
			if e == keep || e.asleep() {
				continue
			}
			if victim == nil || evictBefore(e, victim) {
				victim = e
			}
		}
		if victim == nil {
			return
		}
		q.end(evs, victim.key, ReasonEvicted)
	}
}

func evictBefore(a, b *entry) bool {
	if fa, fb := a.Kind == KindFinished, b.Kind == KindFinished; fa != fb {
		return fa
	}
	return older(a, b)
}

func older(a, b *entry) bool {
	if a.Since != b.Since {
		return a.Since < b.Since
	}
	return a.num < b.num
}

// ListOptions choose what List returns.
type ListOptions struct {
	Session        string // "" lists every session (and outbox items)
	Kinds          []Kind // empty lists every kind
	IncludeSnoozed bool   // snoozed items come after the open ones
	// Filter, when set, keeps only the items it accepts (a selector).
	Filter func(Item) bool
}

// List is list-attention's answer.
type List struct {
	Items []Item
	// Counts has one key per kind, over the whole queue, snoozed items
	// excluded.
	Counts map[Kind]int
	Total  int // open items in Items
	Seq    uint64
	BootID string
}

// List returns the items in list order: grouped (Approvals, Plans,
// Questions, Mail, Errored, Resume, Done, Waiting to send), oldest first
// in each group; then, when asked, the snoozed ones in the same order.
func (q *Queue) List(opt ListOptions) List {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := List{Counts: make(map[Kind]int, len(kinds)), Seq: q.seq, BootID: q.bootID}
	for _, k := range kinds {
		out.Counts[k] = 0
	}
	type row struct {
		rank  int // asleep after open, then the group
		since int64
		num   uint64
		e     *entry
	}
	picked := make([]row, 0, len(q.byID))
	for _, e := range q.byID {
		if !e.asleep() {
			out.Counts[e.Kind]++
		} else if !opt.IncludeSnoozed {
			continue
		}
		if opt.Session != "" && e.Session != opt.Session {
			continue
		}
		if len(opt.Kinds) > 0 && !slices.Contains(opt.Kinds, e.Kind) {
			continue
		}
		rank := e.Kind.groupRank()
		if e.asleep() {
			rank += len(groups)
		}
		picked = append(picked, row{rank, e.Since, e.num, e})
	}
	slices.SortFunc(picked, func(a, b row) int {
		switch {
		case a.rank != b.rank:
			return a.rank - b.rank
		case a.since != b.since:
			if a.since < b.since {
				return -1
			}
			return 1
		}
		return cmpU64(a.num, b.num)
	})
	out.Items = make([]Item, 0, len(picked))
	for _, p := range picked {
		if opt.Filter != nil && !opt.Filter(p.e.Item) {
			continue
		}
		out.Items = append(out.Items, p.e.Item)
		if !p.e.asleep() {
			out.Total++
		}
	}
	return out
}

// Get returns the open or snoozed item with id.
func (q *Queue) Get(id string) (Item, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if e := q.byID[id]; e != nil {
		return e.Item, true
	}
	return Item{}, false
}

// Find returns the open or snoozed item on k (mark-attention's session,
// window and kind: Find(PaneKey(kind, window))).
func (q *Queue) Find(k Key) (Item, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if e := q.byKey[k]; e != nil {
		return e.Item, true
	}
	return Item{}, false
}

// Close ends the item on k for a reason the embedder knows and the queue
// cannot see: a resume command typed (resolved), a stalled queued message
// cancelled (resolved), the person reading a thread (read). Dismiss,
// Snooze, Answer and eviction have their own calls and are refused here.
// A key with no item changes nothing. If the item's fact still holds, the
// next input about it opens a new item.
func (q *Queue) Close(k Key, reason Reason) ([]Event, error) {
	switch reason {
	case ReasonResolved, ReasonRead, ReasonSeen, ReasonSuperseded, ReasonWindowClosed, ReasonSessionClosed, ReasonHostRemoved:
	default:
		return nil, invalid(WhyBadReason, "reason", "use Dismiss, Snooze or Answer for those",
			"the reason "+strconv.Quote(string(reason))+" has its own call")
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	var evs []Event
	if e := q.byKey[k]; e != nil && e.HeldID != "" {
		if r := q.panes[e.Window]; r != nil {
			r.hold = nil
		}
	}
	q.end(&evs, k, reason)
	return evs, nil
}
