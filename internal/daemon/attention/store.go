package attention

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/atomicfile"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/mail"
)

// The Inbox's store: one inbox.Queue fed with every agent-state change,
// the person's mail, and window and session closes; its events are
// published on the core's hub as attention events and kept for a
// subscriber that comes back (Replay).
//
// Locking: Store.mu is held across each queue call and the publish of
// the events it returned, so events reach subscribers in seq order and a
// subscribe that replays (after_seq) misses nothing and sees nothing
// twice. It is taken with no core lock held; under it the Store calls
// its hooks (Pane takes the core's lock briefly, Publish the hub's, Saw
// the held approvals'), a mail ring's lock, and what a Do or DoMixed
// callback takes (the asks' lock, the mirror's), none of which waits on
// I/O. Timers are armed after Store.mu is let go (a clock may call f on
// the arming goroutine).

const (
	// replayKeep is how many attention events at least are kept for a
	// subscriber that comes back with after_seq (at most twice that).
	replayKeep = 4096
	// SaveDelay debounces the queue file's writes.
	SaveDelay = 500 * time.Millisecond
	// storeFile is the queue file under the state dir.
	storeFile = "attention/items.json"
)

// StoreOptions is what the Store needs of the daemon that makes it.
type StoreOptions struct {
	// Clock times snoozes and the debounced save.
	Clock agentstate.Clock
	// StateDir holds the queue file ("" keeps nothing); UID is whose it
	// must be.
	StateDir string
	UID      int
	// Log gets a failed save and a refused file.
	Log core.Log
	// Publish sends an attention event on the hub and returns it as
	// sent (with its hub seq).
	Publish func(core.Event) core.Event
	// Saw hears every local event as it is published: a held item that
	// closed ends its hook's wait (Holds.Saw).
	Saw func(inbox.Event)
	// Pane is a pane as the Inbox is fed it, with the agent state it
	// is in now; false when there is no such window.
	Pane func(id string) (inbox.Pane, agentstate.Snapshot, bool)
	// Panes are every window's ids.
	Panes func() []string
}

// Store is the Inbox: the local queue, its lock, its events and their
// replay log, and the queue file. It is a core.Feature ("inbox"), first
// in the daemon's list: the rest of the attention set uses it (Inbox),
// and it hears a window close before them.
type Store struct {
	opt StoreOptions
	q   *inbox.Queue

	mu     sync.Mutex
	replay []core.Event // the newest attention events, oldest first
	dirty  bool         // changed since the last save
	frozen bool         // the final save was made: no more writes

	alarm SnoozeAlarm // the earliest timed snooze

	tmu       sync.Mutex // guards saveTimer
	saveTimer agentstate.Timer

	path string // the queue file; "" when there is no state dir

	verbs VerbOptions // what the Inbox's verbs need (Serve)
}

var _ Inbox = (*Store)(nil)

// NewStore makes the Inbox's store, empty until Load.
func NewStore(opt StoreOptions) *Store {
	a := &Store{opt: opt, q: inbox.New(inbox.Options{Clock: opt.Clock})}
	if opt.StateDir != "" {
		a.path = filepath.Join(opt.StateDir, filepath.FromSlash(storeFile))
	}
	return a
}

// Name is the feature's name.
func (a *Store) Name() string { return "inbox" }

// Init adds the Inbox's verbs (list-attention, dismiss-attention,
// mark-attention) and has the Store hear a window close: the pane's
// items close before close-window answers.
func (a *Store) Init(h core.Host) error {
	if a.verbs.Hosts == nil || a.verbs.AfterDismiss == nil {
		return errors.New("the Inbox's verbs were not given the hosts' follow (Serve)")
	}
	a.addVerbs(h)
	h.OnWindowClosed(func(ev core.Event) { a.PaneClosed(ev.Window) })
	return nil
}

// Shutdown has nothing to stop: the daemon's final Save, made after the
// features stopped and before the panes close, stops the save timer.
func (a *Store) Shutdown(context.Context) error { return nil }

// publishLocked records and publishes a queue call's events. Called with
// a.mu held.
func (a *Store) publishLocked(evs []inbox.Event) {
	if len(evs) == 0 {
		return
	}
	a.dirty = true
	boot := a.q.BootID()
	for _, e := range evs {
		it := e.Item
		ev := a.opt.Publish(core.Event{Type: "attention", Session: it.Session, Window: it.Window,
			Op: string(e.Op), Item: &it, BootID: boot, HoldEnded: e.HoldEnded})
		a.replay = append(a.replay, ev)
		a.opt.Saw(e)
	}
	a.trimLocked()
}

// publishMirroredLocked publishes a linked host's mirrored events and
// keeps them for replay. Called with a.mu held. Unlike a local event,
// nothing here ends a hold, nor needs a save: a mirrored item is its
// host's.
func (a *Store) publishMirroredLocked(evs []inbox.Event) {
	boot := a.q.BootID()
	for _, e := range evs {
		it := e.Item
		// The session is the host's: a subscriber filtered to a local
		// session of the same name must not get it.
		ev := a.opt.Publish(core.Event{Type: "attention", Session: it.Host + ":" + it.Session, Op: string(e.Op), Item: &it, BootID: boot})
		a.replay = append(a.replay, ev)
	}
	a.trimLocked()
}

// trimLocked keeps the replay log between replayKeep and twice that,
// trimmed in halves: amortised.
func (a *Store) trimLocked() {
	if len(a.replay) >= 2*replayKeep {
		a.replay = append(a.replay[:0:0], a.replay[len(a.replay)-replayKeep:]...)
	}
}

// Change runs a queue call that may change the queue: its events are
// published under a.mu, then the wake timer and the save are armed.
func (a *Store) Change(fn func() []inbox.Event) {
	a.DoMixed(func() (local, mirrored []inbox.Event) { return fn(), nil })
}

// DoMixed is Change for a call that changes both the local queue and
// the mirror of the linked hosts' items (an undo): both kinds of events
// go out under a.mu, in seq order, the mirrored ones first.
func (a *Store) DoMixed(fn func() (local, mirrored []inbox.Event)) {
	a.mu.Lock()
	local, mirrored := fn()
	a.publishMirroredLocked(mirrored)
	a.publishLocked(local)
	dirty := a.dirty && !a.frozen
	a.mu.Unlock()
	a.rearm()
	if dirty {
		a.saveSoon()
	}
}

// DoMirrored runs a call of the mirror (NewMirror) under a.mu and
// publishes its events as mirrored ones; it returns them.
func (a *Store) DoMirrored(fn func() []inbox.Event) []inbox.Event {
	a.mu.Lock()
	defer a.mu.Unlock()
	evs := fn()
	a.publishMirroredLocked(evs)
	return evs
}

// Do runs fn on the queue as Change does, for a call that can be
// refused.
func (a *Store) Do(fn func(q *inbox.Queue) ([]inbox.Event, error)) error {
	var err error
	a.Change(func() []inbox.Event {
		var evs []inbox.Event
		evs, err = fn(a.q)
		return evs
	})
	return err
}

// Update feeds a pane's snapshot. A window that is gone is not fed: its
// items closed with it.
func (a *Store) Update(pane string) {
	a.Change(func() []inbox.Event {
		p, snap, ok := a.opt.Pane(pane)
		if !ok {
			return nil
		}
		return a.q.Update(p, snap)
	})
}

// UpdateAll feeds every pane's snapshot: after the arbiter's stream
// dropped changes, any pane may be behind.
func (a *Store) UpdateAll() {
	for _, id := range a.opt.Panes() {
		a.Update(id)
	}
}

// MailThread feeds what the person's mail in one thread says now.
func (a *Store) MailThread(session string, ring *mail.Ring, thread uint64) {
	if ring == nil || thread == 0 {
		return
	}
	a.Change(func() []inbox.Event {
		res := ring.Read(mail.ReadOptions{Thread: thread, Limit: -1, Peek: true})
		return a.q.Mail(inbox.MailFrom(session, res.Messages))
	})
}

// PaneClosed closes the pane's items.
func (a *Store) PaneClosed(id string) {
	a.Change(func() []inbox.Event { return a.q.PaneClosed(id) })
}

// SessionClosed closes the session's items.
func (a *Store) SessionClosed(name string) {
	a.Change(func() []inbox.Event { return a.q.SessionClosed(name) })
}

// rearm keeps one timer for the earliest timed snooze, none when nothing
// timed sleeps; when it fires, the snoozes whose time came wake (Change
// rearms after).
func (a *Store) rearm() {
	a.alarm.Rearm(a.opt.Clock, a.q.NextWake, func() {
		a.Change(func() []inbox.Event { return a.q.Tick(a.opt.Clock.Now()) })
	})
}

// Armed reports whether the wake timer is set, and for when (tests).
func (a *Store) Armed() (time.Time, bool) { return a.alarm.Armed() }

// ---- what the daemon reads of the Inbox ----

// NewMirror is the mirror of the linked hosts' items, numbered in the
// local queue's seq; its calls go through DoMirrored.
func (a *Store) NewMirror() *inbox.Mirror { return inbox.NewMirror(a.q, a.opt.Clock) }

// List lists the local items (the queue takes its own lock).
func (a *Store) List(opt inbox.ListOptions) inbox.List { return a.q.List(opt) }

// Find is the open item with key.
func (a *Store) Find(key inbox.Key) (inbox.Item, bool) { return a.q.Find(key) }

// Get is the item id, open or snoozed.
func (a *Store) Get(id string) (inbox.Item, bool) { return a.q.Get(id) }

// Seq is the queue's seq: the newest attention event's.
func (a *Store) Seq() uint64 { return a.q.Seq() }

// BootID is the queue's boot id: another one says it restarted.
func (a *Store) BootID() string { return a.q.BootID() }

// ListWith is list-attention's read: the local items (local false: none,
// only the seq and boot id, and every kind counted 0) and what more adds
// (the mirrored ones), read under a.mu so the seq covers exactly what is
// listed.
func (a *Store) ListWith(local bool, opt inbox.ListOptions, more func(l *inbox.List)) inbox.List {
	a.mu.Lock()
	defer a.mu.Unlock()
	var l inbox.List
	if local {
		l = a.q.List(opt)
	} else {
		l = inbox.List{Counts: map[inbox.Kind]int{}, Seq: a.q.Seq(), BootID: a.q.BootID()}
		for _, k := range inbox.Kinds() {
			l.Counts[k] = 0
		}
	}
	more(&l)
	return l
}

// Replayed is the newest attention event kept for replay that match
// says; false when none is.
func (a *Store) Replayed(match func(core.Event) bool) (core.Event, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := len(a.replay) - 1; i >= 0; i-- {
		if match(a.replay[i]) {
			return a.replay[i], true
		}
	}
	return core.Event{}, false
}

// Notice opens a question item for a pane (NoticeUnrecognised).
func (a *Store) Notice(p inbox.Pane, summary string) {
	a.Change(func() []inbox.Event { return a.q.Notice(p, summary) })
}

// Resume opens the pane's resume item: command is what resume-agent
// would type.
func (a *Store) Resume(p inbox.Pane, command string) {
	a.Change(func() []inbox.Event { return a.q.Resume(p, command) })
}

// Close closes the open item with key for reason.
func (a *Store) Close(key inbox.Key, reason inbox.Reason) {
	a.Change(func() []inbox.Event {
		evs, _ := a.q.Close(key, reason)
		return evs
	})
}

// Config opens or updates the config item of thing.
func (a *Store) Config(thing, summary string) {
	a.Change(func() []inbox.Event { return a.q.Config(thing, summary) })
}

// Outbox feeds a host's outbox row.
func (a *Store) Outbox(in inbox.OutboxInput) {
	a.Change(func() []inbox.Event { return a.q.Outbox(in) })
}

// Seen marks the pane's finished turn seen.
func (a *Store) Seen(pane string) {
	a.Change(func() []inbox.Event { return a.q.Seen(pane) })
}

// ---- subscribe ----

// Replay adds a subscriber through add (the hub's: it queues pre ahead
// of anything published after, and says how many fit), first picking the
// attention events after afterSeq that wants takes when replay is asked.
// resync says the follower must list again: the queue restarted (another
// boot id) or the events it missed are no longer kept.
func (a *Store) Replay(replay bool, afterSeq uint64, bootID string, wants func(core.Event) bool,
	add func(pre []core.Event) (uint64, int)) (hubSeq, seq uint64, n int, resync bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	seq = a.q.Seq()
	var pre []core.Event
	if replay {
		switch {
		case bootID != "" && bootID != a.q.BootID():
			resync = true
		case afterSeq > a.q.Seq():
			resync = true
		case afterSeq < a.q.Seq():
			if len(a.replay) == 0 || a.replay[0].Item.Seq > afterSeq+1 {
				resync = true
			}
			for _, ev := range a.replay {
				if ev.Item.Seq > afterSeq && wants(ev) {
					pre = append(pre, ev)
				}
			}
		}
	}
	hubSeq, n = add(pre)
	if n < len(pre) {
		resync = true
	}
	return hubSeq, seq, n, resync
}

// Marshal is what the queue file would hold now (tests).
func (a *Store) Marshal() ([]byte, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.q.Marshal()
}

// ---- persistence ----

// saveSoon arms the debounced save.
func (a *Store) saveSoon() {
	if a.path == "" {
		return
	}
	a.tmu.Lock()
	defer a.tmu.Unlock()
	if a.saveTimer != nil {
		return
	}
	a.saveTimer = a.opt.Clock.AfterFunc(SaveDelay, func() { go a.Save(false) })
}

// Save writes the queue file if it changed. final freezes it: nothing is
// written after the save the daemon makes as it stops, before it closes
// the panes.
func (a *Store) Save(final bool) {
	a.tmu.Lock()
	if a.saveTimer != nil {
		a.saveTimer.Stop()
		a.saveTimer = nil
	}
	a.tmu.Unlock()
	a.mu.Lock()
	if a.frozen || a.path == "" || !a.dirty && !final {
		a.frozen = a.frozen || final
		a.mu.Unlock()
		return
	}
	a.frozen = final
	a.dirty = false
	b, err := a.q.Marshal()
	a.mu.Unlock()
	if err == nil {
		err = atomicfile.WriteFile(a.path, b, atomicfile.Options{Perm: 0o600, MkdirPerm: 0o700})
	}
	if err != nil {
		a.opt.Log.Errorf("attention: saving %s: %v", a.path, err)
	}
}

// Load reads the queue file at start. keep says which panes came back. A
// file that is corrupt, not ours or not private is logged, moved aside
// and the daemon starts with an empty queue.
func (a *Store) Load(keep func(session, window string) bool) {
	if a.path == "" {
		return
	}
	b, why := atomicfile.ReadPrivate(a.path, a.opt.UID, inbox.MaxSaveBytes)
	if b == nil && why == "" {
		return
	}
	if why == "" {
		a.mu.Lock()
		err := a.q.Unmarshal(b, keep)
		a.mu.Unlock()
		if err == nil {
			a.rearm() // a snooze kept from before the restart
			return
		}
		why = err.Error()
	}
	const then = "started with an empty Inbox"
	aside, err := atomicfile.SetAside(a.path, a.opt.Clock.Now())
	if err != nil {
		a.opt.Log.Errorf("%s: refused %s (%s) and could not move it aside: %v; %s", "attention", a.path, why, err, then)
		return
	}
	a.opt.Log.Warnf("%s: refused %s (%s); moved it to %s and %s", "attention", a.path, why, aside, then)
}
