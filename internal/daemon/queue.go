package daemon

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/proto"
)

// The reply (delivery) queue: messages held in the daemon for an agent
// that is mid-turn, typed one per rest once it comes to rest
// (coordination spec §10).
//
// It is event driven. One goroutine follows the arbiter's changes and
// the hub's window-closed events; a pane holds a timer only while its next
// entry waits for its second of rest or for the 5 s prompt gate after it
// was typed, or (a harness that cannot show working, queue_rest.go) for 5 s
// of silence after new output. Entries live in memory only: a restart, the pane closing, the
// agent leaving the pane (state none) or the session ending drops them.
//
// Locking: q.mu guards the pane records and is a leaf: it is never held
// while taking s.mu, a window's lock or the Inbox's lock, and nothing is
// typed under it. The arbiter is read (its lock is a leaf too) with or
// without q.mu. Timers call back through a new goroutine, so a clock that
// fires on the arming goroutine cannot deadlock on q.mu.

const (
	// queueRest is how long a pane must have been at rest before the next
	// entry is typed.
	queueRest = time.Second
	// queueGate is how long a pane has, after the Enter, to show it took
	// the message (working, needs_input, a finished turn).
	queueGate = 5 * time.Second
	// maxQueuedText is the largest entry, in bytes.
	maxQueuedText = 16 << 10
	// queuePreview is how many characters of an entry's first line
	// list-queued shows.
	queuePreview = 80
)

// Entry states (wire names).
const (
	queueWaiting    = "waiting"
	queueDelivering = "delivering"
	queueStalled    = "stalled"
)

// Origins of an entry besides a pane's window id (wire names).
const (
	byHuman = "human"
	byShell = "shell"
)

// replyQueue is the daemon's reply queue.
type replyQueue struct {
	s   *Server
	max int // entries per pane
	// typer is the connection the queue types as: no socket, its context
	// ends when the daemon stops, so a delivery never outlives it.
	typer *conn

	mu    sync.Mutex
	next  uint64 // the last id number issued: ids are q1, q2, …, daemon-wide
	panes map[string]*paneQueue
}

// paneQueue is one pane's entries and what delivery remembers of it.
type paneQueue struct {
	window  string
	session string
	win     *Window         // for its output, without taking s.mu under q.mu
	entries []*queuedPrompt // the next first
	// restAt is when the pane last came to rest (idle or done), zero
	// while it is not at rest.
	restAt time.Time
	// lastEnter is when the Enter of the last entry typed went out: the
	// next one needs a rest reached after it (one message per rest, even
	// across an emptied queue). Zero when nothing was typed yet.
	lastEnter time.Time
	// typing is set while an entry is being typed, before its Enter.
	typing bool
	// gateSeq is the pane's completion_seq before the entry being gated
	// was typed: a turn finished after it means it was taken. gateState
	// is the state it was typed in.
	gateSeq   uint64
	gateState agentstate.State
	// gateDone ends the output watch of a gate on a pane with no harness.
	gateDone chan struct{}
	timer    agentstate.Timer
	timerAt  time.Time
	// For a harness that cannot show working (queue_rest.go): the output
	// watcher's stop, the last output it heard (daemon clock), the
	// output generation of the last Enter, and whether output came after
	// that Enter.
	quietDone       chan struct{}
	outputAt        time.Time
	enterGen        chan struct{}
	heardAfterEnter bool
}

// queuedPrompt is one entry.
type queuedPrompt struct {
	id    string
	at    time.Time
	by    string // human, shell, or the queuing pane's window id
	from  string // a label the caller gave (outside panes)
	text  string
	state string
	// who queued it, as admit placed the caller: the queue types as it,
	// so the write path checks its grants as they are at delivery.
	who caller
	// notice is the summary of the Inbox question a stall opened, so a
	// cancel closes that question and no other.
	notice string
}

func newReplyQueue(s *Server) *replyQueue {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-s.done; cancel() }()
	q := &replyQueue{s: s, max: s.opt.Config.QueueMax(), panes: map[string]*paneQueue{},
		typer: &conn{s: s, ctx: ctx, cancel: cancel, closed: ctx.Done(), placed: true}}
	// Subscribed here, before any entry can exist, so no change is missed.
	arbSub := s.tracker.Arbiter().Subscribe(agentstate.SubscribeOptions{Buffer: 1024})
	hubSub := &subscriber{types: map[string]bool{"window-closed": true}, q: make(chan event, 1024)}
	s.hub.addWith(hubSub, nil)
	go q.follow(arbSub, hubSub)
	return q
}

// follow is the queue's one goroutine: state changes move deliveries on,
// window closes drop entries.
func (q *replyQueue) follow(arbSub *agentstate.Subscription, hubSub *subscriber) {
	defer arbSub.Close()
	defer q.s.hub.remove(hubSub)
	for {
		select {
		case <-q.s.done:
			q.stopAll()
			return
		case ch := <-arbSub.C:
			if ch.Dropped > 0 { // any pane may be behind: read them all again
				q.resync()
			}
			q.changed(ch)
		case ev, ok := <-hubSub.q:
			if !ok {
				return
			}
			q.windowClosed(ev.Window)
			hubSub.mu.Lock()
			missed := hubSub.dropped
			hubSub.dropped = 0
			hubSub.mu.Unlock()
			if missed > 0 {
				q.sweep()
			}
		}
	}
}

func atRest(st agentstate.State) bool {
	return st == agentstate.Idle || st == agentstate.Done
}

// changed takes one arbiter change of a pane the queue knows.
func (q *replyQueue) changed(ch agentstate.Change) {
	var snap agentstate.Snapshot
	q.mu.Lock()
	p := q.panes[ch.Pane]
	q.mu.Unlock()
	if p == nil {
		return
	}
	snap = q.s.tracker.Arbiter().Get(ch.Pane)
	q.mu.Lock()
	defer q.mu.Unlock()
	if p = q.panes[ch.Pane]; p == nil {
		return
	}
	if ch.To == agentstate.None { // the agent left the pane: its entries go
		q.dropPaneLocked(p, "the agent left the pane")
		return
	}
	switch {
	case !q.resting(snap.Harness, ch.To):
		p.restAt = time.Time{}
	case p.restAt.IsZero():
		p.restAt = ch.At
	}
	if len(p.entries) > 0 {
		e := p.entries[0]
		switch {
		case e.state == queueDelivering && !p.typing && taken(snap, p):
			q.deliveredLocked(p)
		case e.state == queueStalled && ch.To == agentstate.Working:
			// The pane moved on: the stalled entry is dropped; its
			// question closes with the state change in the Inbox.
			p.entries = p.entries[1:]
			q.railLocked()
		}
	}
	q.stepLocked(p, snap)
}

// taken reports whether the pane shows it took a typed message: working,
// needs_input, a finished turn, or a state other than the one it was typed
// in reached after the Enter. That last is an errored agent's short turn:
// it can end idle before working was ever read (errored → idle).
func taken(snap agentstate.Snapshot, p *paneQueue) bool {
	return snap.State == agentstate.Working || snap.State == agentstate.NeedsInput || snap.CompletionSeq > p.gateSeq ||
		snap.State != p.gateState && snap.StateAt.After(p.lastEnter)
}

// resync reads every known pane's state again after changes were missed.
func (q *replyQueue) resync() {
	q.mu.Lock()
	ids := make([]string, 0, len(q.panes))
	for id := range q.panes {
		ids = append(ids, id)
	}
	q.mu.Unlock()
	for _, id := range ids {
		snap := q.s.tracker.Arbiter().Get(id)
		q.mu.Lock()
		if p := q.panes[id]; p != nil {
			switch {
			case !q.resting(snap.Harness, snap.State):
				p.restAt = time.Time{}
			case p.restAt.IsZero():
				p.restAt = snap.StateAt
			}
		}
		q.mu.Unlock()
	}
}

// kick looks at a pane again: its timer fired.
func (q *replyQueue) kick(id string, at time.Time) {
	snap := q.s.tracker.Arbiter().Get(id)
	q.mu.Lock()
	p := q.panes[id]
	if p == nil || !p.timerAt.Equal(at) {
		q.mu.Unlock()
		return
	}
	p.timer, p.timerAt = nil, time.Time{}
	if len(p.entries) > 0 && p.entries[0].state == queueDelivering && !p.typing {
		if taken(snap, p) {
			q.deliveredLocked(p)
		} else if q.s.clock.Now().Sub(p.lastEnter) >= queueGate {
			// Not taken: stalled, never typed again, and it blocks
			// those behind it until the pane shows working or it is
			// cancelled.
			e := p.entries[0]
			e.state = queueStalled
			q.endGateLocked(p)
			q.mu.Unlock()
			q.stalled(id, e)
			return
		}
	}
	q.stepLocked(p, snap)
	q.mu.Unlock()
}

// stepLocked moves the pane's queue on: it types the next entry when the
// pane is ready, or arms the one timer the wait needs, or none. Called
// with q.mu held.
func (q *replyQueue) stepLocked(p *paneQueue, snap agentstate.Snapshot) {
	if len(p.entries) == 0 {
		q.disarmLocked(p)
		q.stopQuietLocked(p)
		if p.lastEnter.IsZero() {
			delete(q.panes, p.window) // nothing to remember
		}
		return
	}
	e := p.entries[0]
	switch e.state {
	case queueStalled:
		q.disarmLocked(p)
		return
	case queueDelivering:
		if !p.typing { // the gate's timer is armed from the Enter
			q.armLocked(p, p.lastEnter.Add(queueGate))
		}
		return
	}
	// Ready the way fan judges it, at rest since after the last Enter, or
	// (a harness that cannot show working) silent for 5 s after new
	// output. The output watcher runs whatever the state, so output
	// during a turn is not missed.
	quietDue, quiet := q.quietDueLocked(p, snap.Harness)
	if !q.resting(snap.Harness, snap.State) {
		q.disarmLocked(p)
		return
	}
	due, ok := time.Time{}, false
	if !p.restAt.IsZero() && (p.lastEnter.IsZero() || p.restAt.After(p.lastEnter)) {
		due, ok = p.restAt.Add(queueRest), true
	}
	if quiet && (!ok || quietDue.Before(due)) {
		due, ok = quietDue, true
	}
	if !ok {
		q.disarmLocked(p)
		return
	}
	if q.s.clock.Now().Before(due) {
		q.armLocked(p, due)
		return
	}
	q.disarmLocked(p)
	e.state, p.typing = queueDelivering, true
	go q.deliver(p.window, e)
}

// armLocked keeps one timer for the pane, due at at.
func (q *replyQueue) armLocked(p *paneQueue, at time.Time) {
	if p.timer != nil && p.timerAt.Equal(at) {
		return
	}
	q.disarmLocked(p)
	id := p.window
	p.timerAt = at
	p.timer = q.s.clock.AfterFunc(max(at.Sub(q.s.clock.Now()), 0), func() { go q.kick(id, at) })
}

func (q *replyQueue) disarmLocked(p *paneQueue) {
	if p.timer != nil {
		p.timer.Stop()
	}
	p.timer, p.timerAt = nil, time.Time{}
}

// deliver types one entry: a last look at the pane, the paste and the
// Enter, then the prompt gate starts.
func (q *replyQueue) deliver(id string, e *queuedPrompt) {
	s := q.s
	s.mu.Lock()
	w := s.windows[id]
	s.mu.Unlock()
	back := func() { // not typed: the entry waits for the next rest
		q.mu.Lock()
		defer q.mu.Unlock()
		if p := q.panes[id]; p != nil && len(p.entries) > 0 && p.entries[0] == e {
			p.typing, e.state = false, queueWaiting
			q.stepLocked(p, s.tracker.Arbiter().Get(id))
		}
	}
	if w == nil {
		back()
		return
	}
	// Right before typing: never over a prompt, never into a turn.
	snap := s.tracker.Arbiter().Get(id)
	if !q.resting(snap.Harness, snap.State) {
		back()
		return
	}
	// The entry is typed as whoever queued it: the write path checks a
	// pane's grants and the prompt rule as they are now (write_path.go).
	tc := &conn{s: s, ctx: q.typer.ctx, closed: q.typer.closed, call: e.who, callKnown: true, verbName: "queue-prompt"}
	screen := w.pane.Screen()
	harness, gen, submitAt, err := s.typePrompt(tc, w, screen, e.text)
	q.mu.Lock()
	defer q.mu.Unlock()
	p := q.panes[id]
	if p == nil || len(p.entries) == 0 || p.entries[0] != e {
		return // dropped while typed (the pane closed, the daemon stops)
	}
	p.typing = false
	if err != nil {
		if submitAt.IsZero() { // nothing went out: wait for the next rest
			if err.Code == proto.CodeForbidden { // who queued it may not type there now: it never will
				s.about(id, "").warnf("queue: %s to %s dropped: %s", e.id, shortID(id), err.Message)
				q.deliveredLocked(p)
				q.stepLocked(p, s.tracker.Arbiter().Get(id))
				return
			}
			e.state = queueWaiting
			s.about(id, "").warnf("queue: %s to %s not typed: %s", e.id, shortID(id), err.Message)
			q.stepLocked(p, s.tracker.Arbiter().Get(id))
			return
		}
		submitAt = s.clock.Now() // the paste went out: gate it, never retype
	}
	p.lastEnter, p.gateSeq, p.gateState = submitAt, snap.CompletionSeq, snap.State
	q.noteEnterLocked(p, gen)
	if harness == "" || !q.signs(harness).working { // nothing says working: output is the sign it took it
		p.gateDone = make(chan struct{})
		go q.watchOutput(id, e, w, gen, p.gateDone)
	}
	now := s.tracker.Arbiter().Get(id)
	if taken(now, p) {
		q.deliveredLocked(p)
	}
	q.stepLocked(p, now)
}

// watchOutput ends the gate of a pane with no harness on its first output
// after the Enter.
func (q *replyQueue) watchOutput(id string, e *queuedPrompt, w *Window, gen chan struct{}, done chan struct{}) {
	select {
	case <-gen:
	case <-done:
		return
	case <-w.exitCh:
		return
	case <-q.s.done:
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if p := q.panes[id]; p != nil && len(p.entries) > 0 && p.entries[0] == e && e.state == queueDelivering {
		q.deliveredLocked(p)
		q.stepLocked(p, q.s.tracker.Arbiter().Get(id))
	}
}

// deliveredLocked ends the gate: the pane took the entry, which leaves the
// queue. Called with q.mu held.
func (q *replyQueue) deliveredLocked(p *paneQueue) {
	p.entries = p.entries[1:]
	q.endGateLocked(p)
	q.railLocked()
}

func (q *replyQueue) endGateLocked(p *paneQueue) {
	if p.gateDone != nil {
		close(p.gateDone)
		p.gateDone = nil
	}
	q.disarmLocked(p)
}

// stalled asks the person to look at a pane that did not take an entry:
// an Inbox question on the pane's blocking key.
func (q *replyQueue) stalled(id string, e *queuedPrompt) {
	s := q.s
	s.mu.Lock()
	w := s.windows[id]
	var ip inbox.Pane
	if w != nil {
		ip = inbox.Pane{ID: w.ID, Session: w.session.Name, Workspace: strconv.Itoa(w.workspace), Name: w.DisplayName()}
	}
	s.mu.Unlock()
	if w == nil {
		return
	}
	summary := inbox.NoticeStalled(ip.Name)
	q.mu.Lock()
	e.notice = inbox.CleanSummary(summary)
	q.mu.Unlock()
	s.about(id, "").warnf("queue: %s typed into %s was not taken within %v: stalled", e.id, shortID(id), queueGate)
	s.att.do(func() []inbox.Event { return s.att.q.Notice(ip, summary) })
}

// closeNotice closes the Inbox question a stalled entry opened, when that
// question is still the one on the pane's blocking key.
func (q *replyQueue) closeNotice(window, summary string) {
	if summary == "" {
		return
	}
	a := q.s.att
	a.do(func() []inbox.Event {
		k := inbox.BlockingKey(window)
		if it, ok := a.q.Find(k); !ok || it.Kind != inbox.KindQuestion || it.Summary != summary {
			return nil
		}
		evs, _ := a.q.Close(k, inbox.ReasonResolved)
		return evs
	})
}

// dropPaneLocked forgets a pane and every entry on it. Called with q.mu
// held.
func (q *replyQueue) dropPaneLocked(p *paneQueue, why string) {
	if n := len(p.entries); n > 0 {
		q.s.about(p.window, "").warnf("queue: %d entr(ies) for %s dropped: %s", n, shortID(p.window), why)
	}
	q.endGateLocked(p)
	q.stopQuietLocked(p)
	p.entries = nil
	delete(q.panes, p.window)
	q.railLocked()
}

// windowClosed drops the pane's entries and the entries it queued
// elsewhere (an entry being typed finishes its gate first).
func (q *replyQueue) windowClosed(id string) {
	if id == "" {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if p := q.panes[id]; p != nil {
		q.dropPaneLocked(p, "the pane closed")
	}
	for _, p := range q.panes {
		kept := p.entries[:0]
		for i, e := range p.entries {
			if e.by == id && !(i == 0 && e.state == queueDelivering) {
				continue
			}
			kept = append(kept, e)
		}
		clear(p.entries[len(kept):])
		p.entries = kept
	}
}

// sweep drops what belongs to windows that are gone, after window-closed
// events were missed.
func (q *replyQueue) sweep() {
	q.mu.Lock()
	var ids []string
	for id := range q.panes {
		ids = append(ids, id)
	}
	q.mu.Unlock()
	q.s.mu.Lock()
	var gone []string
	for _, id := range ids {
		if q.s.windows[id] == nil {
			gone = append(gone, id)
		}
	}
	q.s.mu.Unlock()
	for _, id := range gone {
		q.windowClosed(id)
	}
}

// stopAll disarms every timer as the daemon stops.
func (q *replyQueue) stopAll() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, p := range q.panes {
		q.endGateLocked(p)
		q.stopQuietLocked(p)
	}
}

// count is how many entries wait for a pane (get-agent-state, list-agents,
// window rows). It takes only q.mu, so it may be called under s.mu.
func (q *replyQueue) count(window string) int {
	if q == nil {
		return 0
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if p := q.panes[window]; p != nil {
		return len(p.entries)
	}
	return 0
}

// armedFor says when the pane's timer is due (tests).
func (q *replyQueue) armedFor(window string) (time.Time, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if p := q.panes[window]; p != nil && p.timer != nil {
		return p.timerAt, true
	}
	return time.Time{}, false
}

// preview is an entry's first line, control characters removed, cut to
// 80 characters: what list-queued shows of text bound for a pane.
func preview(text string) string {
	line, _, _ := strings.Cut(strings.TrimLeft(text, "\r\n \t"), "\n")
	line = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) && r != 0x200D {
			return -1
		}
		return r
	}, line)
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > queuePreview {
		line = string(r[:queuePreview-1]) + "…"
	}
	return line
}

// shortID is the first 8 characters of an id, for logs.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
