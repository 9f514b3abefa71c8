package daemon

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/atomicfile"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// The Inbox in the daemon: one inbox.Queue fed with every agent-state
// change, the person's mail, and window and session closes; its events
// are published as attention events.
//
// Locking: a.mu is held across each queue call and the publish of the
// events it returned, so events reach subscribers in seq order and a
// subscribe that replays (after_seq) misses nothing and sees nothing
// twice. a.mu is taken without s.mu held; under it the daemon may take
// s.mu (briefly, to check a window is still there), a mail ring's lock and
// the hub's lock, none of which waits on I/O. Timers are armed after a.mu
// is released (a clock may call f on the arming goroutine).

const (
	// attentionReplay is how many attention events at least are kept for
	// a subscriber that comes back with after_seq (at most twice that).
	attentionReplay = 4096
	// attentionSaveDelay debounces the queue file's writes.
	attentionSaveDelay = 500 * time.Millisecond
	// attentionFile is the queue file under the state dir.
	attentionFile = "attention/items.json"
	// codeNotHuman refuses an Inbox action from a program inside a pane.
	codeNotHuman = core.CodeNotHuman
)

type attention struct {
	s *Server
	q *inbox.Queue

	mu     sync.Mutex
	replay []event // the newest attention events, oldest first
	dirty  bool    // changed since the last save
	frozen bool    // the final save was made: no more writes

	alarm snoozeAlarm // the earliest timed snooze

	tmu       sync.Mutex // guards saveTimer
	saveTimer agentstate.Timer

	path string // the queue file; "" when there is no state dir
}

// stateDir is $XDG_STATE_HOME/tuios, else ~/.local/state/tuios; "" when
// neither can be told.
func stateDir(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "tuios")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "tuios")
	}
	return ""
}

func newAttention(s *Server, dir string) *attention {
	a := &attention{s: s, q: inbox.New(inbox.Options{Clock: s.clock})}
	if dir != "" {
		a.path = filepath.Join(dir, filepath.FromSlash(attentionFile))
	}
	return a
}

// publishLocked records and publishes a queue call's events. Called with a.mu
// held.
func (a *attention) publishLocked(evs []inbox.Event) {
	if len(evs) == 0 {
		return
	}
	a.dirty = true
	boot := a.q.BootID()
	for _, e := range evs {
		it := e.Item
		ev := a.s.hub.publish(event{Type: "attention", Session: it.Session, Window: it.Window,
			Op: string(e.Op), Item: &it, BootID: boot, HoldEnded: e.HoldEnded})
		a.replay = append(a.replay, ev)
		a.s.holds.Saw(e) // a held item that closed ends its hook's wait
	}
	if len(a.replay) >= 2*attentionReplay { // trimmed in halves: amortised
		a.replay = append(a.replay[:0:0], a.replay[len(a.replay)-attentionReplay:]...)
	}
}

// publishMirroredLocked publishes a linked host's mirrored events and
// keeps them for replay. Called with a.mu held. Unlike a local event,
// nothing here ends a hold, nor needs a save: a mirrored item is its
// host's.
func (a *attention) publishMirroredLocked(evs []inbox.Event) {
	boot := a.q.BootID()
	for _, e := range evs {
		it := e.Item
		// The session is the host's: a subscriber filtered to a local
		// session of the same name must not get it.
		ev := a.s.hub.publish(event{Type: "attention", Session: it.Host + ":" + it.Session, Op: string(e.Op), Item: &it, BootID: boot})
		a.replay = append(a.replay, ev)
	}
	if len(a.replay) >= 2*attentionReplay {
		a.replay = append(a.replay[:0:0], a.replay[len(a.replay)-attentionReplay:]...)
	}
}

// do runs every queue call that may change the queue: the events are
// published under a.mu, then the wake timer and the save are armed.
func (a *attention) do(fn func() []inbox.Event) {
	a.doMixed(func() (local, mirrored []inbox.Event) { return fn(), nil })
}

// doMixed is do for a call that changes both the local queue and the
// mirror of the linked hosts' items (an undo): both kinds of events go
// out under a.mu, in seq order.
func (a *attention) doMixed(fn func() (local, mirrored []inbox.Event)) {
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

// doMirrored runs a call of the mirror (newMirror) under a.mu and
// publishes its events as mirrored ones; it returns them.
func (a *attention) doMirrored(fn func() []inbox.Event) []inbox.Event {
	a.mu.Lock()
	defer a.mu.Unlock()
	evs := fn()
	a.publishMirroredLocked(evs)
	return evs
}

// doQueue is doErr for a caller that needs the queue itself.
func (a *attention) doQueue(fn func(q *inbox.Queue) ([]inbox.Event, error)) error {
	return a.doErr(func() ([]inbox.Event, error) { return fn(a.q) })
}

// doErr is do for a call that can be refused.
func (a *attention) doErr(fn func() ([]inbox.Event, error)) error {
	var err error
	a.do(func() []inbox.Event {
		var evs []inbox.Event
		evs, err = fn()
		return evs
	})
	return err
}

// update feeds a pane's snapshot. A window that is gone is not fed: its
// items closed with it.
func (a *attention) update(paneID string) {
	a.do(func() []inbox.Event {
		s := a.s
		s.mu.Lock()
		w := s.windows[paneID]
		var p inbox.Pane
		if w != nil {
			p = inbox.Pane{ID: w.ID, Session: w.session.Name, Workspace: strconv.Itoa(w.workspace), Name: w.DisplayName()}
		}
		s.mu.Unlock()
		if w == nil {
			return nil
		}
		snap := s.tracker.Arbiter().Get(paneID)
		p.Risk = s.approvalRisk(w, snap) // prompt_risk.go: the dialog read whole, not just the line
		return a.q.Update(p, snap)
	})
}

// updateAll feeds every pane's snapshot: after the arbiter's stream
// dropped changes, any pane may be behind.
func (a *attention) updateAll() {
	a.s.mu.Lock()
	ids := make([]string, 0, len(a.s.windows))
	for id := range a.s.windows {
		ids = append(ids, id)
	}
	a.s.mu.Unlock()
	for _, id := range ids {
		a.update(id)
	}
}

// mailThread feeds what the person's mail in one thread says now.
func (a *attention) mailThread(session string, ring *mail.Ring, thread uint64) {
	if ring == nil || thread == 0 {
		return
	}
	a.do(func() []inbox.Event {
		res := ring.Read(mail.ReadOptions{Thread: thread, Limit: -1, Peek: true})
		return a.q.Mail(inbox.MailFrom(session, res.Messages))
	})
}

func (a *attention) paneClosed(id string) {
	a.do(func() []inbox.Event { return a.q.PaneClosed(id) })
}

func (a *attention) sessionClosed(name string) {
	a.do(func() []inbox.Event { return a.q.SessionClosed(name) })
}

// rearm keeps one timer for the earliest timed snooze, none when nothing
// timed sleeps; when it fires, the snoozes whose time came wake (do
// rearms after).
func (a *attention) rearm() {
	a.alarm.rearm(a.s.clock, a.q.NextWake, func() {
		a.do(func() []inbox.Event { return a.q.Tick(a.s.clock.Now()) })
	})
}

// armed reports whether the wake timer is set, and for when (tests).
func (a *attention) armed() (time.Time, bool) { return a.alarm.armed() }

// ---- what the rest of the daemon reads of the Inbox ----

// newMirror is the mirror of the linked hosts' items, numbered in the
// local queue's seq; its calls go through doMirrored.
func (a *attention) newMirror() *inbox.Mirror { return inbox.NewMirror(a.q, a.s.clock) }

// list lists the local items (the queue takes its own lock).
func (a *attention) list(opt inbox.ListOptions) inbox.List { return a.q.List(opt) }

// find is the open item with key.
func (a *attention) find(key inbox.Key) (inbox.Item, bool) { return a.q.Find(key) }

// get is the item id, open or snoozed.
func (a *attention) get(id string) (inbox.Item, bool) { return a.q.Get(id) }

// seq is the queue's seq: the newest attention event's.
func (a *attention) seq() uint64 { return a.q.Seq() }

// bootID is the queue's boot id: another one says it restarted.
func (a *attention) bootID() string { return a.q.BootID() }

// listWith is list-attention's read: the local items (local false: none,
// only the seq and boot id, and every kind counted 0) and what more adds
// (the mirrored ones), read under a.mu so the seq covers exactly what is
// listed.
func (a *attention) listWith(local bool, opt inbox.ListOptions, more func(l *inbox.List)) inbox.List {
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

// replayed is the newest attention event kept for replay that match
// says; false when none is.
func (a *attention) replayed(match func(event) bool) (event, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := len(a.replay) - 1; i >= 0; i-- {
		if match(a.replay[i]) {
			return a.replay[i], true
		}
	}
	return event{}, false
}

// notice opens a question item for a pane (notices.go).
func (a *attention) notice(p inbox.Pane, summary string) {
	a.do(func() []inbox.Event { return a.q.Notice(p, summary) })
}

// resume opens the pane's resume item: command is what resume-agent
// would type.
func (a *attention) resume(p inbox.Pane, command string) {
	a.do(func() []inbox.Event { return a.q.Resume(p, command) })
}

// closeItem closes the open item with key for reason.
func (a *attention) closeItem(key inbox.Key, reason inbox.Reason) {
	a.do(func() []inbox.Event {
		evs, _ := a.q.Close(key, reason)
		return evs
	})
}

// config opens or updates the config item of thing.
func (a *attention) config(thing, summary string) {
	a.do(func() []inbox.Event { return a.q.Config(thing, summary) })
}

// outbox feeds a host's outbox row (host_rows.go).
func (a *attention) outbox(in inbox.OutboxInput) {
	a.do(func() []inbox.Event { return a.q.Outbox(in) })
}

// seen marks the pane's finished turn seen.
func (a *attention) seen(pane string) {
	a.do(func() []inbox.Event { return a.q.Seen(pane) })
}

// ---- persistence ----

// saveSoon arms the debounced save.
func (a *attention) saveSoon() {
	if a.path == "" {
		return
	}
	a.tmu.Lock()
	defer a.tmu.Unlock()
	if a.saveTimer != nil {
		return
	}
	a.saveTimer = a.s.clock.AfterFunc(attentionSaveDelay, func() { go a.saveNow(false) })
}

// saveNow writes the queue file if it changed. final freezes it: nothing
// is written after the save shutdown makes before it closes the panes.
func (a *attention) saveNow(final bool) {
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
		err = writeFileAtomic(a.path, b)
	}
	if err != nil {
		a.s.errorf("attention: saving %s: %v", a.path, err)
	}
}

// writeFileAtomic replaces path with b, mode 0600, in a directory made
// 0700 when missing: a crash leaves the old file or the new one.
func writeFileAtomic(path string, b []byte) error {
	return atomicfile.WriteFile(path, b, atomicfile.Options{Perm: 0o600, MkdirPerm: 0o700})
}

// load reads the queue file at start. keep says which panes came back. A
// file that is corrupt, not ours or not private is logged, moved aside and
// the daemon starts with an empty queue.
func (a *attention) load(keep func(session, window string) bool) {
	if a.path == "" {
		return
	}
	b, why := readStateFile(a.path, a.s.uid, inbox.MaxSaveBytes)
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
	setAside(a.s, "attention", a.path, why, "started with an empty Inbox")
}

// ---- subscribe ----

// subscribeFrom adds a subscriber, first queueing the attention events
// after afterSeq when asked. resync says the follower must list again:
// the queue restarted (another boot id) or the events it missed are no
// longer kept.
func (a *attention) subscribeFrom(sub *subscriber, replay bool, afterSeq uint64, bootID string) (hubSeq, seq uint64, n int, resync bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	seq = a.q.Seq()
	var pre []event
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
				if ev.Item.Seq > afterSeq && sub.wants(ev) {
					pre = append(pre, ev)
				}
			}
		}
	}
	hubSeq, n = a.s.hub.addWith(sub, pre)
	if n < len(pre) {
		resync = true
	}
	return hubSeq, seq, n, resync
}

// ---- who may act ----

// isPerson reports whether a call carrying nonce comes from the person:
// a live nonce an attached client holds, presented by that client's
// process from outside every pane.
func (s *Server) isPerson(cn *conn, nonce string) bool {
	return linkStandsIn(cn) || nonce != "" && s.resp.validNonce(cn, nonce) && s.outsidePanes(cn)
}

// person refuses, with not_human, a call that acts as the person
// (docs/security.md, The person boundary) and is not theirs: it needs the
// attached client's live nonce, or, when the daemon was started with
// respond_from_shell, a shell outside every pane. A program inside a pane
// is never the person, with or without a copied nonce.
func (s *Server) person(cn *conn, verb, nonce string) *proto.Error {
	if s.isPerson(cn, nonce) || s.resp.fromShell && s.outsidePanes(cn) {
		return nil
	}
	detail := "use the Inbox in an attached client (tuios attach)"
	if !s.resp.fromShell {
		detail += ", or set respond_from_shell = true under [daemon] in " + s.configPath() + " and restart the daemon to act from a shell outside every pane"
	}
	return proto.Errorf(codeNotHuman, "%s acts as the person: it needs a live human nonce from an attached client", verb).
		WithHint(proto.Hint{Detail: detail})
}

// inboxErr turns a queue refusal into a protocol error with the same code;
// its Why goes in the hint.
func inboxErr(err error) *proto.Error {
	var ie *inbox.Error
	if errors.As(err, &ie) {
		h := proto.Hint{Param: ie.Param, Detail: "why: " + string(ie.Why)}
		if x := ie.Hint(); x != "" {
			h.Detail += "; " + x
		}
		return proto.Errorf(string(ie.Code()), "%s", ie.Message).WithHint(h)
	}
	var se *inbox.SelectorError
	if errors.As(err, &se) {
		h := proto.Hint{Param: se.Param, Accepted: se.Accepted(), DidYouMean: se.DidYouMean}
		if se.Term != "" {
			h.Detail = "the term " + strconv.Quote(se.Term) + ": "
		}
		h.Detail += "why: " + se.Why
		if x := se.Hint(); x != "" {
			h.Detail += "; " + x
		}
		return proto.Errorf(string(se.Code()), "%s", se.Message).WithHint(h)
	}
	return proto.Errorf(proto.CodeInternal, "%v", err)
}

// parseSelect reads a select param; "" is no selector (nil).
func parseSelect(text string) (*inbox.Selector, *proto.Error) {
	if text == "" {
		return nil, nil
	}
	home, _ := os.UserHomeDir()
	sel, err := inbox.ParseSelector(text, inbox.SelectorOptions{Home: home})
	if err != nil {
		return nil, inboxErr(err)
	}
	return sel, nil
}

// itemFields is what a selector reads of an Inbox item: its state comes
// from its kind; cwd and group are not known in the Inbox (list-attention
// fills cwd from the pane).
func itemFields(it inbox.Item) inbox.SelectorFields {
	st := it.Kind.State()
	return inbox.SelectorFields{Host: it.Host, Session: it.Session, Name: it.Name, Harness: it.Harness,
		State: st, NoState: st == agentstate.None}
}
