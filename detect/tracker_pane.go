package detect

import (
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/vt"
)

// Pane is one tracked pane: its screen and what the tracker keeps for it.
// Feed it the PTY's output with Write, from the goroutine reading the PTY;
// tell it what happens to the terminal (Resize, Typed, Exited) and what
// the agent's hooks say (Hook). Its state is read from the tracker's
// arbiter under the pane's ID. Every method is safe to call from any
// goroutine, and none waits on another pane. After Tracker.Detach (or a
// second Attach of its id) every method is a no-op: the pane never
// reaches the arbiter again.
type Pane struct {
	// p.mu guards the fields below it. It is never held across blocking
	// work: a locked section only records the I/O it needs (p.work),
	// which runs after the lock is released (see unlock), and its result
	// is applied under the lock again only if the pane is still the one
	// that asked.
	t        *Tracker
	id       string
	shellPID int
	screen   *vt.Screen
	replies  *replyQueue // nil without PaneOptions.Reply
	onEv     func(vt.Event)
	given    string // PaneOptions.Harness: the attribution when none other stands
	fg       atomic.Pointer[Match]

	mu         sync.Mutex
	stopped    bool
	work       paneIO     // blocking work the locked section asked for
	events     []vt.Event // collected during screen.Write
	lastOutput time.Time
	lastLook   time.Time
	settle     agentstate.Timer
	settleDue  bool
	readSince  bool // printed since the detector last read it
	readOnce   bool
	harness    string
	m          *Manifest
	gen        uint64 // bumped when the attribution or the join changes
	progress   string // the last OSC 9;4 report, osc_progress text form
	program    programStatus
	join       *join
	lastSearch time.Time
	searching  bool // a transcript search is out
	det        detection
}

// Foreground is the detector's last reading of the pane's foreground
// (from the detection tick or the output probe), without reading /proc.
// It takes no lock, so listing many panes never waits for one of them.
// A detached pane reads as not running.
func (p *Pane) Foreground() Match {
	if m := p.fg.Load(); m != nil {
		return *m
	}
	return Match{}
}

// setForeground publishes a detection for Foreground. Called with p.mu
// held (so a detached pane is never given one again).
func (p *Pane) setForeground(m Match) { p.fg.Store(&m) }

// ID is the pane's id in the arbiter.
func (p *Pane) ID() string { return p.id }

// Screen is the pane's screen model, for reading. Feed it through Write:
// terminal replies produced by writing the screen directly reach the
// pane's Reply writer only with the next Write.
func (p *Pane) Screen() *vt.Screen { return p.screen }

// Write feeds a chunk of the PTY's output: it goes to the screen, then to
// the escape-sequence sources, then drives at most one screen look per
// LookInterval and re-arms the trailing look. It always consumes all of b.
//
// The screen's answers to the program's queries are collected while the
// chunk is written and handed to PaneOptions.Reply after the pane's lock
// is released, in order. A Reply writer that blocks therefore blocks only
// this call (and so the goroutine feeding this pane), never another
// method, another pane or the tracker. A concurrent Write on the same pane
// queues its answers behind the blocked ones rather than waiting.
func (p *Pane) Write(b []byte) (int, error) {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return len(b), nil
	}
	p.screen.Write(b) // events arrive through onEvent, replies in p.replies
	now := p.t.clock.Now()
	p.lastOutput = now
	p.readSince = true
	a := p.t.arb
	a.Output(p.id, now)
	if len(p.events) > 0 {
		p.handleEvents(now)
	}
	p.attribute(a.Brief(p.id).Harness)

	// A detection the output asks for reads /proc, so it runs unlocked
	// and the looks wait for its answer (it may attribute the pane).
	seq := p.detectOnOutput(now)
	if seq == 0 {
		p.afterOutput(now)
	}
	w := p.takeWork()
	p.mu.Unlock()
	if p.replies != nil {
		p.replies.flush()
	}
	p.run(w)
	if seq != 0 {
		p.detect(seq, detectOutput, func() { p.afterOutput(now) })
	}
	return len(b), nil
}

// afterOutput runs the output-driven look and arms the trailing one.
// Rules run only on a pane attributed to a harness, and only when it
// writes; an unwatched transcript join is read on output too.
func (p *Pane) afterOutput(now time.Time) {
	if p.m == nil && (p.join == nil || p.join.watched) {
		return
	}
	if now.Sub(p.lastLook) >= LookInterval {
		p.lookLocked(0, now)
	}
	p.armSettle()
}

// armSettle (re)arms the one trailing-look timer. It is created on the
// first arm and reset afterwards: no allocation per chunk.
func (p *Pane) armSettle() {
	p.settleDue = true
	if p.settle == nil {
		p.settle = p.t.clock.AfterFunc(SettleDelay, p.onSettle)
		return
	}
	p.settle.Reset(SettleDelay)
}

func (p *Pane) onSettle() {
	p.mu.Lock()
	if p.stopped || !p.settleDue {
		p.mu.Unlock()
		return
	}
	p.settleDue = false
	p.lookLocked(0, p.t.clock.Now())
	p.unlock()
}

// onEvent collects the screen's events; Write handles them after the
// screen has taken the whole chunk.
func (p *Pane) onEvent(ev vt.Event) {
	p.events = append(p.events, ev)
	if p.onEv != nil {
		p.onEv(ev)
	}
}

func (p *Pane) handleEvents(now time.Time) {
	a := p.t.arb
	for i := range p.events {
		ev := &p.events[i]
		switch ev.Kind {
		case vt.EventProgress:
			if !ev.Progress.Valid {
				continue
			}
			p.progress = ev.Progress.Text()
			if p.program.seen {
				continue // after OSC 7501, OSC 9;4 is not the pane's state
			}
			if p.given == "" && !a.Brief(p.id).Agent {
				continue // a plain shell's progress bar is not an agent
			}
			if p.m != nil && p.m.Title.ClassifyProgress(p.progress).Matched {
				p.lookLocked(0, now)
				continue
			}
			a.Apply(p.id, agentstate.Report{State: progressState(ev.Progress.State), Source: agentstate.SourceOSC, Harness: p.harness, Hold: true})
		case vt.EventProgramStatus:
			p.programReport(ev.ProgramStatus, now)
		case vt.EventNotification:
			if p.m == nil {
				continue
			}
			v := p.m.Notify.ClassifyNotify(ev.Notification.Title, ev.Notification.Body)
			if v.Matched {
				a.Apply(p.id, agentstate.Report{State: v.State, Source: agentstate.SourceOSC, Harness: p.m.ID,
					Message: v.Message, Kind: v.Kind, Event: true, Observed: now})
			}
		case vt.EventTitleChanged:
			// A spinner in the title changes it many times a second: the
			// look is throttled like any other, and the trailing look
			// armed by Write reads the final title.
			if p.m != nil && p.m.Title.Enabled && now.Sub(p.lastLook) >= LookInterval {
				p.lookLocked(0, now)
			}
		case vt.EventReset:
			p.program.reset(p)
		case vt.EventPromptMark:
			if ev.Text == "A" {
				p.program.prompt(p) // a new shell prompt ends live work records
			}
		}
	}
	clear(p.events)
	p.events = p.events[:0]
}

// progressState maps OSC 9;4 states: 0 clear → idle (a bar cannot claim
// success), 1 and 3 → working, 2 → errored, 4 (paused) → needs_input.
func progressState(code int) agentstate.State {
	switch code {
	case 1, 3:
		return agentstate.Working
	case 2:
		return agentstate.Errored
	case 4:
		return agentstate.NeedsInput
	}
	return agentstate.Idle
}

// attribute follows the arbiter's harness attribution to a manifest
// (PaneOptions.Harness while the arbiter names none). A pane that just
// became attributed is looked at once at once: the prompt may already be
// painted, and a silent prompt brings no more output.
func (p *Pane) attribute(harness string) {
	if harness == "" {
		harness = p.given
	}
	if harness == p.harness {
		return
	}
	p.harness = harness
	p.m = p.t.manifest(harness)
	p.gen++
	if p.join != nil && p.join.harness != harness {
		p.dropJoin(false) // joins end when the harness changes
	}
	if p.m != nil && !p.lastOutput.IsZero() {
		p.lookLocked(0, p.t.clock.Now())
	}
}

// look is the arbiter's Look for this pane.
func (p *Pane) look(why agentstate.LookReason) agentstate.LookResult {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return agentstate.LookResult{}
	}
	p.attribute(p.t.arb.Brief(p.id).Harness)
	res := p.lookLocked(why, p.t.clock.Now())
	p.unlock()
	return res
}

// lookLocked reads the title and the screen tail in one look, reconciles
// the two readings, and applies them. It reports whether the pane has a
// screen tier and whether the screen answered (any non-idle match, or an
// idle match that applied). An unwatched transcript join is read too,
// after the lock is released.
func (p *Pane) lookLocked(why agentstate.LookReason, now time.Time) agentstate.LookResult {
	p.lastLook = now
	if p.join != nil && !p.join.watched {
		p.work.read = p.join
	}
	m := p.m
	if m == nil {
		// No harness, so no rules: the screen was there to look at and
		// nothing on it answered, which the agents page calls unknown
		// ("If no rule matches, the pane becomes unknown"), not idle.
		return agentstate.LookResult{Screen: p.screen != nil}
	}
	res := agentstate.LookResult{Screen: p.screen != nil || m.Screen.Enabled || m.Title.Enabled}
	title := p.t.lookTitle(m, p.screen.Title(), why)
	screen := m.Screen.Classify(p.screen.Tail(m.Screen.ReadLines()))

	// One look, two tiers: idle yields to a louder reading of the other
	// tier; when both say idle the title wins; a working title is dropped
	// when the screen says needs_input.
	if title.Matched && screen.Matched {
		switch {
		case title.State == agentstate.Working && screen.State == agentstate.NeedsInput:
			title = Verdict{Rule: -1}
		case title.State == agentstate.Idle && screen.State != agentstate.Idle:
			title = Verdict{Rule: -1}
		case screen.State == agentstate.Idle && title.State != agentstate.Idle:
			screen = Verdict{Rule: -1}
		case title.State == agentstate.Idle && screen.State == agentstate.Idle:
			screen = Verdict{Rule: -1}
		}
	}
	a := p.t.arb
	observed := p.lastOutput
	if observed.IsZero() {
		observed = now
	}
	apply := func(v Verdict, src agentstate.Source) {
		r := a.Apply(p.id, agentstate.Report{State: v.State, Source: src, Harness: m.ID, Message: v.Message, Kind: v.Kind, Observed: observed})
		if v.State != agentstate.Idle || r.Applied {
			res.Answered = true
		}
	}
	if title.Matched {
		apply(title, agentstate.SourceOSC)
	}
	if screen.Matched {
		apply(screen, agentstate.SourceScreen)
	} else if m.Screen.Enabled {
		a.NoMatch(p.id, agentstate.SourceScreen)
	}
	return res
}

// lookTitle classifies the title; a stall look ignores a working title (a
// spinner that has not turned for the whole window is a leftover frame).
func (t *Tracker) lookTitle(m *Manifest, title string, why agentstate.LookReason) Verdict {
	v := m.Title.ClassifyTitle(title)
	if why == agentstate.LookStall && v.State == agentstate.Working {
		return Verdict{Rule: -1}
	}
	return v
}

// tick is one detection pass over this pane. The /proc read runs
// unlocked; a pane whose last read has not returned is skipped (the read
// out is applied as this tick when it returns), so one stuck read costs
// one pass, not every later one.
func (p *Pane) tick(n uint64) {
	p.mu.Lock()
	if p.stopped || p.shellPID <= 0 {
		p.mu.Unlock()
		return
	}
	if p.det.busy {
		p.det.tickOwed = true
		p.mu.Unlock()
		return
	}
	if !p.t.arb.Brief(p.id).Agent && p.readOnce && !p.readSince && n%quietEvery != 0 {
		p.mu.Unlock()
		return // a quiet plain pane: read on every 5th tick only
	}
	seq := p.startDetect(p.t.clock.Now())
	p.mu.Unlock()
	p.detect(seq, detectTick, nil)
}

// sighting turns a detector match into the arbiter's reading.
func sighting(m Match) agentstate.Sighting {
	s := agentstate.Sighting{Agent: m.Agent, Harness: m.HarnessID, Identity: m.Identity, Group: m.Process.PGID}
	switch {
	case !m.Running:
		s.Foreground = agentstate.ForegroundNone
	case m.AtShell:
		s.Foreground = agentstate.ForegroundShell
	default:
		s.Foreground = agentstate.ForegroundProgram
	}
	return s
}

// Report applies a report from the agent's hooks (or any caller) to this
// pane. A transcriptPath on an applied report joins the pane to that
// transcript exactly (replacing a searched join); the file is opened and
// read after the report is applied, never blocking (a path that is not a
// regular file is refused). On a detached pane Report applies nothing and
// returns the zero Result.
func (p *Pane) Report(r agentstate.Report, transcriptPath string) agentstate.Result {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return agentstate.Result{}
	}
	a := p.t.arb
	res := a.Apply(p.id, r)
	p.attribute(a.Brief(p.id).Harness)
	if res.Applied && transcriptPath != "" && p.m != nil && p.m.Transcript.Enabled() {
		p.joinExact(transcriptPath)
	}
	p.unlock()
	return res
}

// Activity records an event about the pane's subagents from the agent's
// hooks (see agentstate.Arbiter.Activity). On a detached pane it records
// nothing.
func (p *Pane) Activity(ev agentstate.Activity) agentstate.ActivityResult {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return agentstate.ActivityResult{}
	}
	return p.t.arb.Activity(p.id, ev)
}

// SetSession records the agent session without touching the state (see
// agentstate.Arbiter.SetSession). On a detached pane it records nothing.
func (p *Pane) SetSession(harness, sessionID string) agentstate.Result {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return agentstate.Result{}
	}
	return p.t.arb.SetSession(p.id, harness, sessionID)
}

// SetMeta writes the agent's metadata for this pane (see
// agentstate.Arbiter.SetMeta). On a detached pane it writes nothing.
func (p *Pane) SetMeta(u agentstate.MetaUpdate) (agentstate.MetaResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return agentstate.MetaResult{}, nil
	}
	return p.t.arb.SetMeta(p.id, u)
}

// Resize tells the pane its terminal's new size (after the PTY's own
// resize): the screen reflows as a terminal does, and once the program has
// repainted for the new size the rules read it again (the trailing look).
// A zero or negative size changes nothing.
func (p *Pane) Resize(cols, rows int) {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.screen.Resize(cols, rows)
	if p.m != nil && !p.lastOutput.IsZero() && cols > 0 && rows > 0 {
		p.armSettle()
	}
	p.mu.Unlock()
}

// Exited tells the tracker the pane's process exited. A claim tied to an
// agent the detector saw clears: the detector's own, and a hook's report
// it adopted on seeing that agent in the foreground (see
// agentstate.Arbiter.Detected). Program status records of live work end;
// a done or failed record stays until the person types (Typed). A claim
// the detector never tied to an agent (detection off, or a caller's note
// on a plain pane) stays: a report of none, or Detach, ends it.
func (p *Pane) Exited() {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.program.exited(p)
	p.t.arb.Detected(p.id, agentstate.Sighting{Foreground: agentstate.ForegroundExited})
	p.attribute(p.t.arb.Brief(p.id).Harness)
	p.unlock()
}

// Typed tells the tracker a person typed into the pane (not focus
// reports): finished and failed program status records end.
func (p *Pane) Typed() {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.program.typed(p)
	p.unlock()
}

// stop makes the pane inert. It returns the watch cancels the caller runs
// once no lock is held.
func (p *Pane) stop() []func() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	p.fg.Store(nil)
	if p.settle != nil {
		p.settle.Stop()
	}
	if p.det.timer != nil {
		p.det.timer.Stop()
	}
	p.dropJoin(false)
	cancels := p.work.cancels
	p.work = paneIO{}
	return cancels
}

// replyQueue stands between the screen and PaneOptions.Reply: the screen
// writes its answers into it under p.mu, and Write hands them on after
// p.mu is released. One flusher at a time writes, so answers keep their
// order across concurrent Writes; a Write that finds another flushing
// leaves its answers to it. While the writer is stuck, at most
// maxQueuedReplies bytes wait; later answers are dropped.
type replyQueue struct {
	w        io.Writer
	mu       sync.Mutex // never held across w.Write
	buf      []byte
	spare    []byte
	flushing bool
}

const maxQueuedReplies = 64 << 10

// Write is the screen's Reply: it only queues.
func (q *replyQueue) Write(b []byte) (int, error) {
	q.mu.Lock()
	if len(q.buf)+len(b) <= maxQueuedReplies {
		q.buf = append(q.buf, b...)
	}
	q.mu.Unlock()
	return len(b), nil
}

// flush writes what is queued, in order, unless another call already is.
func (q *replyQueue) flush() {
	q.mu.Lock()
	if q.flushing {
		q.mu.Unlock()
		return
	}
	q.flushing = true
	for len(q.buf) > 0 {
		out := q.buf
		q.buf = q.spare[:0]
		q.mu.Unlock()
		_, _ = q.w.Write(out)
		q.mu.Lock()
		q.spare = out[:0]
	}
	q.flushing = false
	q.mu.Unlock()
}
