package push

import (
	"slices"
	"strings"
	"time"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/config"
)

// Settle is how long an item is open before it is sent: a prompt that
// flickers (open, then gone within it) sends nothing. It is the alerts'
// default settle, fixed here: [notifications.agent] settle_seconds is a
// key a pane may set, and no pane may delay the person's pushes.
const Settle = 2 * time.Second

// maxSentIDs bounds the ids of items sent that are remembered (so a
// snoozed item that wakes, or an undone dismiss, does not send again).
const maxSentIDs = 4096

// rules is the state of the sending rules: the items open and not sent,
// the ids sent, the person's last key, each pane and kind's last send and
// the sends of the last hour. Not safe for concurrent use: the Notifier
// guards it.
type rules struct {
	settings  config.PushSettings
	providers int // how many providers settings names

	open      map[string]*waiting // by item id: open, not sent
	sent      map[string]bool
	sentOrder []string // sent ids, oldest first (for the bound)
	lastKey   time.Time
	cool      map[coolKey]time.Time // the last send of a pane and kind
	hour      []time.Time           // sends of the last hour, oldest first
}

type waiting struct {
	item   inbox.Item
	opened time.Time
}

// coolKey is what the cooldown spaces: a pane (or, for an item of no
// pane, its session) and a kind.
type coolKey struct {
	where string
	kind  inbox.Kind
}

func newRules() *rules {
	return &rules{open: map[string]*waiting{}, sent: map[string]bool{}, cool: map[coolKey]time.Time{}}
}

func coolOf(it inbox.Item) coolKey {
	if it.Window != "" {
		return coolKey{"w:" + it.Window, it.Kind}
	}
	return coolKey{"s:" + it.Session, it.Kind}
}

// observe takes one Inbox change.
func (r *rules) observe(ev inbox.Event, now time.Time) {
	it := ev.Item
	if it.Host != "" || !Pushable(it.Kind) { // a linked host's item: its daemon sends it
		return
	}
	switch ev.Op {
	case inbox.OpOpen:
		if !r.sent[it.ID] {
			if w := r.open[it.ID]; w != nil {
				w.item = it
			} else {
				r.open[it.ID] = &waiting{item: it, opened: now}
			}
		}
	case inbox.OpUpdate:
		if w := r.open[it.ID]; w != nil {
			w.item = it // sent with what it says by then; nothing more
		}
	case inbox.OpClose:
		delete(r.open, it.ID)
	}
}

// resync replaces what is open with the Inbox's list, after events were
// missed: an item open and unknown counts as opened now.
func (r *rules) resync(items []inbox.Item, now time.Time) {
	keep := map[string]bool{}
	for _, it := range items {
		if it.Host != "" || !Pushable(it.Kind) || it.Snoozed() {
			continue
		}
		keep[it.ID] = true
		r.observe(inbox.Event{Op: inbox.OpOpen, Item: it}, now)
	}
	for id := range r.open {
		if !keep[id] {
			delete(r.open, id)
		}
	}
}

// active reports whether anything can be sent at all.
func (r *rules) active() bool { return r.settings.Enabled && r.providers > 0 }

// dueAt is when w may be sent: after the settle, the person's quiet
// time, its pane and kind's cooldown and a free place in the hour.
func (r *rules) dueAt(w *waiting) time.Time {
	at := w.opened.Add(Settle)
	if q := r.settings.Quiet; q > 0 && !r.lastKey.IsZero() {
		at = later(at, r.lastKey.Add(q))
	}
	if c := r.settings.Cooldown; c > 0 {
		if last, ok := r.cool[coolOf(w.item)]; ok {
			at = later(at, last.Add(c))
		}
	}
	if m := r.settings.MaxPerHour; m > 0 && len(r.hour) >= m {
		at = later(at, r.hour[len(r.hour)-m].Add(time.Hour))
	}
	return at
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// take returns the items due at now, oldest first, marked sent: the
// oldest get the hour's places and the cooldowns first.
func (r *rules) take(now time.Time) []inbox.Item {
	if !r.active() {
		return nil
	}
	r.trimHour(now)
	order := make([]*waiting, 0, len(r.open))
	for _, w := range r.open {
		if r.settings.Triggers[string(w.item.Kind)] {
			order = append(order, w)
		}
	}
	sortWaiting(order)
	var due []inbox.Item
	for _, w := range order {
		if r.dueAt(w).After(now) {
			continue
		}
		due = append(due, w.item)
		delete(r.open, w.item.ID)
		r.markSent(w.item.ID)
		r.cool[coolOf(w.item)] = now
		r.hour = append(r.hour, now)
	}
	r.trimCool(now)
	return due
}

func (r *rules) markSent(id string) {
	if r.sent[id] {
		return
	}
	r.sent[id] = true
	r.sentOrder = append(r.sentOrder, id)
	if len(r.sentOrder) > maxSentIDs {
		drop := len(r.sentOrder) - maxSentIDs
		for _, old := range r.sentOrder[:drop] {
			delete(r.sent, old)
		}
		r.sentOrder = append(r.sentOrder[:0:0], r.sentOrder[drop:]...)
	}
}

func (r *rules) trimHour(now time.Time) {
	i := 0
	for i < len(r.hour) && !r.hour[i].After(now.Add(-time.Hour)) {
		i++
	}
	if i > 0 {
		r.hour = append(r.hour[:0:0], r.hour[i:]...)
	}
}

// trimCool forgets cooldowns that ended: the map stays as small as the
// panes that sent lately.
func (r *rules) trimCool(now time.Time) {
	for k, at := range r.cool {
		if !at.Add(r.settings.Cooldown).After(now) {
			delete(r.cool, k)
		}
	}
}

func sortWaiting(ws []*waiting) {
	slices.SortFunc(ws, func(a, b *waiting) int {
		if c := a.opened.Compare(b.opened); c != 0 {
			return c
		}
		return strings.Compare(a.item.ID, b.item.ID)
	})
}

// next is when the earliest item waiting falls due; zero when none
// waits (or nothing can be sent).
func (r *rules) next() time.Time {
	var next time.Time
	if !r.active() {
		return next
	}
	for _, w := range r.open {
		if !r.settings.Triggers[string(w.item.Kind)] {
			continue
		}
		if at := r.dueAt(w); next.IsZero() || at.Before(next) {
			next = at
		}
	}
	return next
}
