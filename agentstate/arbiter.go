package agentstate

import (
	"sync"
	"time"
)

// Defaults for Options fields left zero.
const (
	DefaultHold         = 700 * time.Millisecond
	DefaultBlockerGrace = 2 * time.Second
	DefaultStallAfter   = 30 * time.Second
	DefaultMissLimit    = 6
	DefaultIdleLooks    = 3
	DefaultIdleLookGap  = 100 * time.Millisecond
	DefaultHarnessGrace = 3 * time.Second
	// MinTurn is how long a turn must work before going to rest counts as
	// a finished turn (an explicit done counts however short).
	MinTurn = 5 * time.Second
)

// Options configure an Arbiter. The zero value works: the real clock, the
// documented timings, and no screen tier.
type Options struct {
	// Clock supplies time and the one-shot timer. Nil is the real clock.
	Clock Clock

	// Hold is how long a quieter sampled state must stand before it is
	// published. Zero is 700 ms.
	Hold time.Duration

	// BlockerGrace is how long a claim must stand unrefreshed before a
	// visible prompt may take the pane over it. Zero is 2 s.
	BlockerGrace time.Duration

	// StallAfter is how long a working pane may stay silent before the
	// stall deadline demotes it. Zero is 30 s; negative turns the stall
	// deadline off.
	StallAfter time.Duration

	// MissLimit is how many consecutive detector ticks may find another
	// program in the foreground of an auto-owned pane before it clears.
	// Zero is 6.
	MissLimit int

	// Look runs one screen look (title and screen rules) for a pane and
	// applies what it reads through this arbiter. The arbiter calls it,
	// never with its lock held, before the stall deadline demotes a pane
	// and to re-read an idle reading that is being confirmed. Nil means
	// there is no screen tier: stalled panes become idle, not unknown.
	Look func(pane string, why LookReason) LookResult
}

// LookReason says why the arbiter asks for a look.
type LookReason uint8

const (
	// LookStall: the pane has been silent for the stall window. A working
	// title is a leftover frame here and must be ignored.
	LookStall LookReason = iota + 1
	// LookConfirmIdle: an idle reading is being confirmed.
	LookConfirmIdle
	// LookBlocker: a prompt was refused only because the claim it would
	// displace was fresh; the grace has ended, so look again.
	LookBlocker
)

// LookResult is what a look found.
type LookResult struct {
	// Screen is true when the pane has a screen that was looked at, with
	// or without rules to read it: a stalled pane whose screen answered
	// nothing becomes unknown. Without a screen (a tracker fed no
	// terminal), a stalled pane becomes idle.
	Screen bool
	// Answered is true when a rule matched and its verdict applied (or a
	// non-idle rule matched at all): the stall deadline then leaves the
	// pane alone.
	Answered bool
}

// Arbiter holds one claim per pane and decides, when sources disagree,
// which state is true. It is safe for concurrent use. It starts no
// goroutines; its one timer is armed only while a hold, an idle
// confirmation or a stall deadline is pending.
type Arbiter struct {
	mu    sync.Mutex
	opt   Options
	clock Clock
	panes map[string]*pane

	// pending holds the panes with a hold, an idle confirmation or a stall
	// deadline; the timer fires at the earliest of them.
	pending map[*pane]struct{}
	timer   Timer
	wakeAt  time.Time

	subs    map[*Subscription]struct{}
	version uint64
}

// New returns an arbiter with the options' defaults filled in.
func New(opt Options) *Arbiter {
	if opt.Clock == nil {
		opt.Clock = RealClock{}
	}
	if opt.Hold <= 0 {
		opt.Hold = DefaultHold
	}
	if opt.BlockerGrace <= 0 {
		opt.BlockerGrace = DefaultBlockerGrace
	}
	if opt.StallAfter == 0 {
		opt.StallAfter = DefaultStallAfter
	}
	if opt.MissLimit <= 0 {
		opt.MissLimit = DefaultMissLimit
	}
	return &Arbiter{
		opt:     opt,
		clock:   opt.Clock,
		panes:   make(map[string]*pane),
		pending: make(map[*pane]struct{}),
		subs:    make(map[*Subscription]struct{}),
	}
}

// pane is everything the engine keeps for one pane.
type pane struct {
	id      string
	state   State
	message string
	kind    Kind
	kindIn  Kind      // the explicit kind of the report that wrote kind
	stateAt time.Time // when a state was last stamped; zero: never
	harness string
	// harnessAt is when the current harness was first attributed; idle
	// readings do not count for a short while after it.
	harnessAt time.Time

	sessionID      string
	sessionHarness string
	harnessPID     int

	lastOutput time.Time
	claim      claim

	// sawAgent: the detector has seen an agent process in this pane since
	// the last report that was made with no agent in the foreground.
	sawAgent bool
	// agentNow is the detector's last reading: an agent is in the
	// foreground.
	agentNow bool
	// agentGroup is the process group of the agent the detector saw
	// last; leftGroup is that group once the agent's own report said it
	// left (a hook's none, naming its harness). An agent still exiting
	// after its goodbye is not promoted back to working; a new group, the
	// shell or any other report lifts it.
	agentGroup int
	leftGroup  int

	hold hold
	gate idleGate

	stallLookAt time.Time // the last stall look that the screen answered
	relookAt    time.Time // a look is due when a refused prompt's grace ends
	// graceLookAt: a look is due when the harness grace that refused an
	// idle reading ends (hold.go, confirmIdle).
	graceLookAt time.Time

	turnStart time.Time
	inTurn    bool
	// turnWorked: a source other than the detector said working during
	// the turn. Only the detector's appearance (or its take-back) began
	// it otherwise, and the agent's own word that it is at rest then
	// ends no turn (see turn).
	turnWorked bool
	// turnAtStart: the turn began with the agent appearing (none to
	// working), not from rest: its start-up, which nothing but a source
	// other than the detector makes a turn (see turn).
	turnAtStart bool
	seq         uint64 // completion_seq
	seenSeq     uint64

	subagents subagentSet
	now       string // what the agent said it is doing; see Report.Now
	meta      map[string]metaValue

	version uint64
	waiters []*waiter
	removed bool
}

// claim says which source owns a pane's state.
type claim struct {
	held     bool
	source   Source
	identity Identity
	auto     bool // the detector's lifecycle claim: it clears the pane when the agent leaves
	misses   int
	event    bool
	// bound: a report claim made by a live agent (it named the pid, or the
	// detector saw the agent when it came). The detector adopts such a
	// claim's lifecycle, so a crashed hooked agent does not pin its state.
	bound   bool
	boundTo string // the harness the report named

	loan  bool // a screen needs_input claim; prior is given back when the prompt leaves
	prior prior
}

// owner is the claim's source, SourceNone when no source holds it.
func (c *claim) owner() Source {
	if !c.held {
		return SourceNone
	}
	return c.source
}

// owner is the prior's source, SourceNone when it was unclaimed.
func (pr *prior) owner() Source {
	if !pr.held {
		return SourceNone
	}
	return pr.source
}

// prior is the claim a loan displaced, restored exactly on give-back:
// its owner, state, harness and lifecycle, the words it was written with
// (message, the kind stored for it and the explicit kind it came with)
// and whether it came from a one-off notification.
type prior struct {
	held     bool
	source   Source
	state    State
	message  string
	kind     Kind
	kindIn   Kind
	event    bool
	harness  string
	identity Identity
	auto     bool
	bound    bool
	boundTo  string
}

type hold struct {
	active bool
	since  time.Time
	report Report
}

type idleGate struct {
	active bool
	source Source
	first  time.Time
	last   time.Time
	asked  time.Time // when the arbiter last asked for a re-look
	looks  int
	report Report
}

func (a *Arbiter) get(id string) *pane {
	p := a.panes[id]
	if p == nil {
		p = &pane{id: id}
		a.panes[id] = p
	}
	return p
}

// Apply applies one report to a pane, in the documented order: a look that
// repeats its own claim writes nothing; the if_state guard; the session
// and harness guard; the rank gate with the visible-blocker exception;
// then the write. A pane named for the first time is created.
func (a *Arbiter) Apply(paneID string, r Report) Result {
	a.mu.Lock()
	res := a.apply(a.get(paneID), r)
	a.mu.Unlock()
	return res
}

// apply reads the clock only once it knows it needs the time: on some
// machines reading it costs more than the rest of a steady look.
func (a *Arbiter) apply(p *pane, r Report) Result {
	if !r.State.Valid() || !r.Source.Valid() {
		return Result{State: p.state, Reason: ReasonInvalid}
	}
	msg := p.message // stored messages are already clean
	if r.Message != msg {
		msg = cleanMessage(r.Message)
	}
	// Guessing a kind scans the message; a repeat of the stored message
	// and explicit kind reuses the stored verdict.
	var kind Kind
	if r.State == p.state && r.Kind == p.kindIn && msg == p.message {
		kind = p.kind
	} else {
		kind = kindFor(r.State, r.Kind, msg)
	}
	harness := p.harness
	if r.State == None {
		harness = ""
	} else if r.Harness != "" {
		harness = r.Harness
	}
	c := &p.claim
	look := !r.Observed.IsZero()

	// A look that reads back its own claim writes nothing: no stamp, so a
	// spinner frozen in a title ages like silence.
	if c.held && look && !r.Event && !c.event && c.source == r.Source &&
		p.state == r.State && p.message == msg && p.kind == kind && p.harness == harness {
		if p.gate.active && r.State != Idle {
			p.gate = idleGate{}
		}
		return Result{State: p.state, Applied: true}
	}

	if r.Hold {
		return a.applyHeld(p, r)
	}

	// A visible prompt holds the pane against a source that cannot see
	// prompts: its report waits behind the loan, as what comes back.
	if c.held && c.loan && !describesPrompts(r.Source) && r.Source.Rank() > SourceScreen.Rank() {
		a.behindLoan(p, r, msg, kind, harness)
		return Result{State: p.state, Reason: ReasonBehindPrompt}
	}

	if reason := a.admit(p, r); reason != ReasonNone {
		return Result{State: p.state, Reason: reason}
	}

	// Idle confirmation: a look that says idle over a working pane must
	// hold on further looks before it is believed.
	now := a.clock.Now()
	if look && r.State == Idle && p.state == Working && (r.Source == SourceScreen || r.Source == SourceOSC) {
		if res, wait := a.confirmIdle(p, r, now); wait {
			return res
		}
	} else if look && p.gate.active {
		p.gate = idleGate{}
	}

	a.write(p, r, msg, kind, harness, now)
	return Result{State: p.state, Applied: true, Changed: true}
}

// admit runs the guards and the rank gate (with the visible-blocker
// exception) and says why the report is refused, or ReasonNone.
func (a *Arbiter) admit(p *pane, r Report) Reason {
	c := &p.claim
	if !r.IfState.Empty() && !r.IfState.Has(p.state) {
		return ReasonIfState
	}
	// Mid-turn, a hook from another agent session (a nested agent, a
	// second agent started in the same pane) must not take the pane.
	if r.SessionID != "" && c.held && c.source == SourceReport && (p.state == Working || p.state == NeedsInput) {
		if p.sessionID != "" && r.SessionID != p.sessionID && !(r.HarnessPID > 1 && r.HarnessPID == p.harnessPID) {
			return ReasonForeignSession
		}
		if r.Harness != "" && p.harness != "" && r.Harness != p.harness {
			return ReasonForeignHarness
		}
	}
	if !c.held || r.Source.Rank() >= c.source.Rank() {
		return ReasonNone
	}
	// A program status report is heard over a harness that said it left.
	if r.Source == SourceProgram && p.state == None && !c.auto {
		*c = claim{}
		return ReasonNone
	}
	// An approval notification must not pin needs_input after the pane
	// moved on: once it writes, any look ranked at least screen replaces it.
	if c.event && !r.Observed.IsZero() && r.Source.Rank() >= SourceScreen.Rank() && p.lastOutput.After(p.stateAt) {
		return ReasonNone
	}
	if a.blockerOverrides(p, r) {
		return ReasonNone
	}
	return ReasonOutranked
}

// blockerOverrides is the one exception to the ranking: a screen rule that
// sees a prompt takes a claim from a source that cannot see prompts (the
// transcript) at once; a claim from one that can (a hook, a program
// status, a title or progress sequence) only if the pane painted after
// the claim was stamped and the claim has stood unrefreshed for the grace
// (at once over a resting claim), so the source has its chance to
// describe the prompt itself.
func (a *Arbiter) blockerOverrides(p *pane, r Report) bool {
	if r.Source != SourceScreen || r.State != NeedsInput || p.state == NeedsInput || r.Observed.IsZero() {
		return false
	}
	if !describesPrompts(p.claim.source) {
		return true
	}
	if !r.Observed.After(p.stateAt) {
		return false
	}
	if p.state == Idle || p.state == Unknown {
		return true
	}
	if a.clock.Now().Sub(p.stateAt) >= a.opt.BlockerGrace {
		return true
	}
	// Only the grace stands in the way. A prompt usually sits silent, so
	// no output will bring another look: ask for one when the grace ends.
	if a.opt.Look != nil {
		p.relookAt = p.stateAt.Add(a.opt.BlockerGrace)
		a.schedule(p, p.relookAt)
	}
	return false
}

// describesPrompts says whether a source can say that a pane waits on a
// prompt it shows: the agent itself, a program status, a title or
// progress sequence can, and get the grace to do it before the screen
// overrides them. The transcript never says needs_input (its records land
// at message boundaries; the one a permission dialog follows is a
// pending tool call, which reads working), so a prompt on screen is
// never something it is about to describe.
func describesPrompts(s Source) bool { return s != SourceTranscript }

// behindLoan keeps a report from a source that cannot see prompts, made
// while a screen loan stands, as the loan's prior: the prompt keeps the
// pane, and when it leaves the pane shows what that source said last,
// with the lifecycle the displaced claim had.
func (a *Arbiter) behindLoan(p *pane, r Report, msg string, kind Kind, harness string) {
	pr := &p.claim.prior
	id := pr.identity
	if harness == "" {
		id = IdentityNone
	}
	*pr = prior{
		held: true, source: r.Source, state: r.State, message: msg, kind: kind, kindIn: r.Kind, event: r.Event,
		harness: harness, identity: id, auto: pr.auto, bound: pr.bound, boundTo: pr.boundTo,
	}
}

// write stamps an admitted report onto the pane.
func (a *Arbiter) write(p *pane, r Report, msg string, kind Kind, harness string, now time.Time) {
	c := &p.claim
	old := p.state
	oldClaim := *c

	next := claim{
		held:    true,
		source:  r.Source,
		auto:    c.auto,
		misses:  c.misses,
		event:   r.Event,
		bound:   c.bound,
		boundTo: c.boundTo,
	}
	switch {
	case harness == "":
		next.identity = IdentityNone
	case r.Harness != "" && r.Source == SourceReport:
		next.identity = IdentityReport
	default:
		next.identity = c.identity
	}
	if r.Source == SourceReport {
		// The detector adopts the lifecycle of a report made by a live
		// agent; a person's note on a plain shell pane is never swept.
		next.bound = r.HarnessPID > 1 || p.agentNow
		next.boundTo = r.Harness
		p.sawAgent = p.agentNow
		if r.State == Working || r.State == NeedsInput {
			p.now = oneLine(r.Now)
		} else {
			p.now = ""
		}
	}
	// Every screen needs_input is a loan: what it displaced comes back as
	// soon as a look finds the prompt gone. A rule that re-matches keeps
	// the loan and its original prior.
	if r.Source == SourceScreen && r.State == NeedsInput {
		next.loan = true
		if oldClaim.loan {
			next.prior = oldClaim.prior
		} else {
			next.prior = prior{
				held: oldClaim.held, source: oldClaim.source, state: old,
				message: p.message, kind: p.kind, kindIn: p.kindIn, event: oldClaim.event,
				harness: p.harness, identity: oldClaim.identity, auto: oldClaim.auto,
				bound: oldClaim.bound, boundTo: oldClaim.boundTo,
			}
		}
	}
	*c = next

	if harness != p.harness {
		if harness != "" {
			p.harnessAt = now
		}
		p.harness = harness
	}
	p.message = msg
	p.kind = kind
	p.kindIn = r.Kind
	if r.State == Idle && r.SessionID != "" && r.SessionID != p.sessionID {
		// A session the pane did not have says it is at its prompt (a
		// hook's SessionStart: the agent's first word, /clear, a new
		// conversation): whatever the pane read as work before was no
		// turn of this session's, and it finishes none (turns.go).
		p.inTurn = false
	}
	if r.SessionID != "" {
		p.sessionID = r.SessionID
		p.sessionHarness = harness
		if r.HarnessPID > 1 {
			p.harnessPID = r.HarnessPID
		}
	}
	p.leftGroup = 0
	if r.State == None && r.Source == SourceReport && r.Harness != "" && p.agentNow {
		p.leftGroup = p.agentGroup
	}
	if r.State == None {
		p.subagents.forget()
		p.meta = nil
		p.claim.identity = IdentityNone
		if r.Source == SourceReport {
			// An explicit none gives the pane back, as the detector's
			// clear does: no claim is left, so
			// every source may report on it again. The detector promotes
			// it only while it still sees an agent, and clears it once
			// the agent has gone.
			p.claim = claim{}
		}
	}
	// A write from one source ends what another had pending: a held OSC
	// idle must not later publish over a prompt the screen just found.
	if p.hold.active && p.hold.report.Source != r.Source {
		p.hold = hold{}
	}
	p.gate = idleGate{}
	if r.State == Working && r.Source != SourceDetect {
		p.turnWorked = true
	}
	a.setState(p, r.State, now)
}

// setState stamps a new state, counts finished turns, arms the stall
// deadline and wakes waiters and subscribers.
func (a *Arbiter) setState(p *pane, s State, now time.Time) {
	old := p.state
	p.state = s
	p.stateAt = now
	a.turn(p, old, s, now, now)
	a.changed(p, old)
}

// changed bumps versions, schedules what the new state needs and notifies.
func (a *Arbiter) changed(p *pane, old State) {
	a.version++
	p.version = a.version
	if p.state == Working && a.opt.StallAfter > 0 {
		a.schedule(p, a.stallDeadline(p))
	}
	a.notify(p, old)
}

// Output records that the pane wrote at t. It is cheap enough for every
// chunk: it only stores the time. It feeds the stall deadline, evidence
// age of detector-inferred states and the staleness of event claims.
func (a *Arbiter) Output(paneID string, t time.Time) {
	a.mu.Lock()
	p := a.get(paneID)
	if t.After(p.lastOutput) {
		p.lastOutput = t
	}
	a.mu.Unlock()
}

// Remove drops a pane and everything kept for it (claim, hold, idle gate,
// subagents). Waiters on it return ErrPaneRemoved.
func (a *Arbiter) Remove(paneID string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.panes[paneID]
	if p == nil {
		return
	}
	delete(a.panes, paneID)
	delete(a.pending, p)
	p.removed = true
	for _, w := range p.waiters {
		w.finish(Snapshot{}, ErrPaneRemoved)
	}
	p.waiters = nil
}

// Panes lists the ids of the panes the arbiter knows, in no fixed order.
func (a *Arbiter) Panes() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]string, 0, len(a.panes))
	for id := range a.panes {
		out = append(out, id)
	}
	return out
}
