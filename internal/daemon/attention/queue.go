package attention

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// The reply (delivery) queue: messages held in the daemon for an agent
// that is mid-turn, typed one per rest once it comes to rest
// (docs/agents.md, Queue a reply).
//
// It is event driven. One goroutine follows the arbiter's changes and
// the hub's window-closed events; a pane holds a timer only while its next
// entry waits for its second of rest or for the 5 s prompt gate after it
// was typed, or (a harness that cannot show working, queue_rest.go) for 5 s
// of silence after new output. Entries live in memory only: a restart, the pane closing, the
// agent leaving the pane (state none) or the session ending drops them.

const (
	// QueueRest is how long a pane must have been at rest before the
	// next entry is typed.
	QueueRest = time.Second
	// QueueGate is how long a pane has, after the Enter, to show it took
	// the message (working, needs_input, a finished turn).
	QueueGate = 5 * time.Second
	// MaxQueuedText is the largest entry, in bytes.
	MaxQueuedText = 16 << 10
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

// QueueOptions configure the reply queue.
type QueueOptions struct {
	// Max is how many entries one pane holds ([agents.queue] max).
	Max int
	// Inbox hears of a stalled entry.
	Inbox Inbox
}

// Queue is the daemon's reply queue (a core.Feature): it serves
// queue-prompt, list-queued and cancel-queued, and send-review sends
// through it.
//
// Locking: mu guards the pane records. Under it the queue calls only
// Host.RailChanged (the attach streams' locks) and reads the arbiter
// (its lock is a leaf); it never holds mu while calling any other method
// of the core, and nothing is typed under it. The core reads Len under
// its own lock. Timers call back through a new goroutine, so a clock that
// fires on the arming goroutine cannot deadlock on mu.
type Queue struct {
	h     core.Host
	max   int // entries per pane
	inbox Inbox
	// ctx ends when the daemon stops (or Shutdown): an entry is typed
	// under it, so a delivery never outlives the daemon.
	ctx context.Context
	// quit ends the queue's goroutine (Shutdown), stopped says it ended.
	quit     chan struct{}
	quitOnce sync.Once
	stopped  chan struct{}

	mu    sync.Mutex
	next  uint64 // the last id number issued: ids are q1, q2, …, daemon-wide
	panes map[string]*paneQueue
}

// paneQueue is one pane's entries and what delivery remembers of it.
type paneQueue struct {
	window  string
	session string
	win     core.Pane       // for its output, without calling the core under q.mu
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
	enterGen        <-chan struct{}
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
	// who queued it, held past its connection (Host.Hold): the queue
	// types as it, so the write path checks its grants as they are at
	// delivery.
	who core.Call
	// notice is the summary of the Inbox question a stall opened, so a
	// cancel closes that question and no other.
	notice string
}

// NewQueue makes the reply queue; Init adds it to a daemon.
func NewQueue(opt QueueOptions) *Queue {
	return &Queue{max: opt.Max, inbox: opt.Inbox, panes: map[string]*paneQueue{}, quit: make(chan struct{}), stopped: make(chan struct{})}
}

// Name is "reply-queue".
func (q *Queue) Name() string { return "reply-queue" }

// Init adds queue-prompt, list-queued and cancel-queued to h's verbs and
// starts the queue's one goroutine, subscribed here, before any entry
// can exist, so no change is missed.
func (q *Queue) Init(h core.Host) error {
	q.h = h
	ctx, cancel := context.WithCancel(context.Background())
	q.ctx = ctx
	go func() {
		select {
		case <-h.Done():
		case <-q.quit:
		}
		cancel()
	}()
	arbSub := h.Tracker().Arbiter().Subscribe(agentstate.SubscribeOptions{Buffer: 1024})
	hubSub := h.Subscribe(core.Filter{Types: map[string]bool{"window-closed": true}}, 1024)
	go func() { defer close(q.stopped); q.follow(arbSub, hubSub) }()
	q.addVerbs()
	return nil
}

// Shutdown stops the queue's goroutine, which disarms every timer, and
// ends what is being typed.
func (q *Queue) Shutdown(ctx context.Context) error {
	if q.h == nil {
		return nil
	}
	q.quitOnce.Do(func() { close(q.quit) })
	select {
	case <-q.stopped:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// follow is the queue's one goroutine: state changes move deliveries on,
// window closes drop entries.
func (q *Queue) follow(arbSub *agentstate.Subscription, hubSub core.Subscription) {
	defer arbSub.Close()
	defer hubSub.Close()
	var lost uint64
	for {
		select {
		case <-q.h.Done():
			q.stopAll()
			return
		case <-q.quit:
			q.stopAll()
			return
		case ch := <-arbSub.C:
			if ch.Dropped > 0 { // any pane may be behind: read them all again
				q.resync()
			}
			q.changed(ch)
		case ev, ok := <-hubSub.C():
			if !ok {
				return
			}
			q.windowClosed(ev.Window)
			if n := hubSub.Lost(); n != lost {
				lost = n
				q.sweep()
			}
		}
	}
}

func atRest(st agentstate.State) bool {
	return st == agentstate.Idle || st == agentstate.Done
}

func (q *Queue) arbiter() *agentstate.Arbiter { return q.h.Tracker().Arbiter() }

// changed takes one arbiter change of a pane the queue knows.
func (q *Queue) changed(ch agentstate.Change) {
	var snap agentstate.Snapshot
	q.mu.Lock()
	p := q.panes[ch.Pane]
	q.mu.Unlock()
	if p == nil {
		return
	}
	snap = q.arbiter().Get(ch.Pane)
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
func (q *Queue) resync() {
	q.mu.Lock()
	ids := make([]string, 0, len(q.panes))
	for id := range q.panes {
		ids = append(ids, id)
	}
	q.mu.Unlock()
	for _, id := range ids {
		snap := q.arbiter().Get(id)
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
func (q *Queue) kick(id string, at time.Time) {
	snap := q.arbiter().Get(id)
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
		} else if q.h.Clock().Now().Sub(p.lastEnter) >= QueueGate {
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
func (q *Queue) stepLocked(p *paneQueue, snap agentstate.Snapshot) {
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
			q.armLocked(p, p.lastEnter.Add(QueueGate))
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
		due, ok = p.restAt.Add(QueueRest), true
	}
	if quiet && (!ok || quietDue.Before(due)) {
		due, ok = quietDue, true
	}
	if !ok {
		q.disarmLocked(p)
		return
	}
	if q.h.Clock().Now().Before(due) {
		q.armLocked(p, due)
		return
	}
	q.disarmLocked(p)
	e.state, p.typing = queueDelivering, true
	go q.deliver(p.window, e)
}

// armLocked keeps one timer for the pane, due at at.
func (q *Queue) armLocked(p *paneQueue, at time.Time) {
	if p.timer != nil && p.timerAt.Equal(at) {
		return
	}
	q.disarmLocked(p)
	id := p.window
	p.timerAt = at
	clock := q.h.Clock()
	p.timer = clock.AfterFunc(max(at.Sub(clock.Now()), 0), func() { go q.kick(id, at) })
}

func (q *Queue) disarmLocked(p *paneQueue) {
	if p.timer != nil {
		p.timer.Stop()
	}
	p.timer, p.timerAt = nil, time.Time{}
}

// deliver types one entry: a last look at the pane, the paste and the
// Enter, then the prompt gate starts.
func (q *Queue) deliver(id string, e *queuedPrompt) {
	w, found := q.h.Find(id)
	back := func() { // not typed: the entry waits for the next rest
		q.mu.Lock()
		defer q.mu.Unlock()
		if p := q.panes[id]; p != nil && len(p.entries) > 0 && p.entries[0] == e {
			p.typing, e.state = false, queueWaiting
			q.stepLocked(p, q.arbiter().Get(id))
		}
	}
	if !found {
		back()
		return
	}
	// Right before typing: never over a prompt, never into a turn.
	snap := q.arbiter().Get(id)
	if !q.resting(snap.Harness, snap.State) {
		back()
		return
	}
	// The entry is typed as whoever queued it: the write path checks a
	// pane's grants and the prompt rule as they are now.
	typed, err := q.h.TypeHeld(e.who, id, e.text)
	harness, gen, submitAt := typed.Harness, typed.Output, typed.SubmitAt
	q.mu.Lock()
	defer q.mu.Unlock()
	p := q.panes[id]
	if p == nil || len(p.entries) == 0 || p.entries[0] != e {
		return // dropped while typed (the pane closed, the daemon stops)
	}
	p.typing = false
	log := q.h.Log().About(id, "")
	if err != nil {
		if submitAt.IsZero() { // nothing went out: wait for the next rest
			if err.Code == proto.CodeForbidden { // who queued it may not type there now: it never will
				log.Warnf("queue: %s to %s dropped: %s", e.id, shortID(id), err.Message)
				q.deliveredLocked(p)
				q.stepLocked(p, q.arbiter().Get(id))
				return
			}
			e.state = queueWaiting
			log.Warnf("queue: %s to %s not typed: %s", e.id, shortID(id), err.Message)
			q.stepLocked(p, q.arbiter().Get(id))
			return
		}
		submitAt = q.h.Clock().Now() // the paste went out: gate it, never retype
	}
	p.lastEnter, p.gateSeq, p.gateState = submitAt, snap.CompletionSeq, snap.State
	q.noteEnterLocked(p, gen)
	if harness == "" || !q.signs(harness).working { // nothing says working: output is the sign it took it
		p.gateDone = make(chan struct{})
		go q.watchOutput(id, e, w.Pane, gen, p.gateDone)
	}
	now := q.arbiter().Get(id)
	if taken(now, p) {
		q.deliveredLocked(p)
	}
	q.stepLocked(p, now)
}

// watchOutput ends the gate of a pane with no harness on its first output
// after the Enter.
func (q *Queue) watchOutput(id string, e *queuedPrompt, pane core.Pane, gen <-chan struct{}, done chan struct{}) {
	select {
	case <-gen:
	case <-done:
		return
	case <-pane.Exited():
		return
	case <-q.h.Done():
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if p := q.panes[id]; p != nil && len(p.entries) > 0 && p.entries[0] == e && e.state == queueDelivering {
		q.deliveredLocked(p)
		q.stepLocked(p, q.arbiter().Get(id))
	}
}

// deliveredLocked ends the gate: the pane took the entry, which leaves the
// queue. Called with q.mu held.
func (q *Queue) deliveredLocked(p *paneQueue) {
	p.entries = p.entries[1:]
	q.endGateLocked(p)
	q.railLocked()
}

func (q *Queue) endGateLocked(p *paneQueue) {
	if p.gateDone != nil {
		close(p.gateDone)
		p.gateDone = nil
	}
	q.disarmLocked(p)
}

// stalled asks the person to look at a pane that did not take an entry:
// an Inbox question on the pane's blocking key.
func (q *Queue) stalled(id string, e *queuedPrompt) {
	w, ok := q.h.Find(id)
	if !ok {
		return
	}
	ip := inbox.Pane{ID: w.ID, Session: w.Session, Workspace: strconv.Itoa(w.Workspace), Name: w.DisplayName}
	summary := inbox.NoticeStalled(ip.Name)
	q.mu.Lock()
	e.notice = inbox.CleanSummary(summary)
	q.mu.Unlock()
	q.h.Log().About(id, "").Warnf("queue: %s typed into %s was not taken within %v: stalled", e.id, shortID(id), QueueGate)
	if q.inbox != nil {
		q.inbox.Do(func(iq *inbox.Queue) ([]inbox.Event, error) { return iq.Notice(ip, summary), nil })
	}
}

// closeNotice closes the Inbox question a stalled entry opened, when that
// question is still the one on the pane's blocking key.
func (q *Queue) closeNotice(window, summary string) {
	if summary == "" || q.inbox == nil {
		return
	}
	q.inbox.Do(func(iq *inbox.Queue) ([]inbox.Event, error) {
		k := inbox.BlockingKey(window)
		if it, ok := iq.Find(k); !ok || it.Kind != inbox.KindQuestion || it.Summary != summary {
			return nil, nil
		}
		evs, _ := iq.Close(k, inbox.ReasonResolved)
		return evs, nil
	})
}

// dropPaneLocked forgets a pane and every entry on it. Called with q.mu
// held.
func (q *Queue) dropPaneLocked(p *paneQueue, why string) {
	if n := len(p.entries); n > 0 {
		q.h.Log().About(p.window, "").Warnf("queue: %d entr(ies) for %s dropped: %s", n, shortID(p.window), why)
	}
	q.endGateLocked(p)
	q.stopQuietLocked(p)
	p.entries = nil
	delete(q.panes, p.window)
	q.railLocked()
}

// windowClosed drops the pane's entries and the entries it queued
// elsewhere (an entry being typed finishes its gate first).
func (q *Queue) windowClosed(id string) {
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
func (q *Queue) sweep() {
	q.mu.Lock()
	var ids []string
	for id := range q.panes {
		ids = append(ids, id)
	}
	q.mu.Unlock()
	var gone []string
	for _, id := range ids {
		if _, ok := q.h.Find(id); !ok {
			gone = append(gone, id)
		}
	}
	for _, id := range gone {
		q.windowClosed(id)
	}
}

// stopAll disarms every timer as the daemon stops.
func (q *Queue) stopAll() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, p := range q.panes {
		q.endGateLocked(p)
		q.stopQuietLocked(p)
	}
}

// Len is how many entries wait for a pane (get-agent-state, list-agents,
// window rows, the rail). It takes only the queue's lock, so the core may
// call it under its own.
func (q *Queue) Len(window string) int {
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

// Panes is how many panes the queue keeps a record of (tests: a pane
// that closed leaves none).
func (q *Queue) Panes() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.panes)
}

// ArmedFor says when the pane's timer is due (tests).
func (q *Queue) ArmedFor(window string) (time.Time, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if p := q.panes[window]; p != nil && p.timer != nil {
		return p.timerAt, true
	}
	return time.Time{}, false
}

// Watching says whether the queue watches the pane's output for a quiet
// rest, and whether the pane holds a timer (tests).
func (q *Queue) Watching(window string) (output, timer bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if p := q.panes[window]; p != nil {
		return p.quietDone != nil, p.timer != nil
	}
	return false, false
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

// railLocked tells the attached clients that a pane's count of queued
// replies changed: the rail's agent row and the Inbox row say "1 queued"
// until the entry is typed (seed 003), and the layout carries the count
// (proto.AttachAgent.Queued, filled from Len). It only marks the
// streams (Host.RailChanged takes the attach streams' locks, never
// q.mu), so it is safe under q.mu. Called with q.mu held.
func (q *Queue) railLocked() {
	q.h.RailChanged()
}
