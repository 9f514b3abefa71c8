package detect

import (
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/vt"
)

// Pane is one tracked pane: its screen and what the tracker keeps for it.
// Write is called by the goroutine reading the PTY; the other methods are
// safe to call from any goroutine.
type Pane struct {
	t        *Tracker
	id       string
	shellPID int
	screen   *vt.Screen

	mu         sync.Mutex
	events     []vt.Event // collected during screen.Write
	lastOutput time.Time
	lastLook   time.Time
	settle     agentstate.Timer
	settleDue  bool
	lastProbe  time.Time
	readSince  bool // printed since the detector last read it
	readOnce   bool
	harness    string
	m          *Manifest
	progress   string // the last OSC 9;4 report, osc_progress text form
	program    programStatus
	join       *join
	lastSearch time.Time
	lastMatch  Match // the detector's last reading of this pane
	stopped    bool
}

// Foreground is the detector's last reading of the pane's foreground
// (from the detection tick or the output probe), without reading /proc.
func (p *Pane) Foreground() Match {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastMatch
}

// ID is the pane's id in the arbiter.
func (p *Pane) ID() string { return p.id }

// Screen is the pane's screen model.
func (p *Pane) Screen() *vt.Screen { return p.screen }

// Write feeds a chunk of the PTY's output: it goes to the screen, then to
// the escape-sequence sources, then drives at most one screen look per
// LookInterval and re-arms the trailing look. It always consumes all of b.
func (p *Pane) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return len(b), nil
	}
	p.screen.Write(b) // events arrive through onEvent, synchronously
	now := p.t.clock.Now()
	p.lastOutput = now
	p.readSince = true
	a := p.t.arb
	a.Output(p.id, now)
	if len(p.events) > 0 {
		p.handleEvents(now)
	}
	brief := a.Brief(p.id)
	p.attribute(brief.Harness)

	// The exit/resume probe: an auto-owned pane that printed.
	if brief.Auto && p.shellPID > 0 && now.Sub(p.lastProbe) >= ReconcileInterval {
		p.lastProbe = now
		if m, err := p.t.det.Detect(p.shellPID); err == nil {
			p.lastMatch = m
			a.Reconcile(p.id, sighting(m))
			p.attribute(a.Brief(p.id).Harness)
		}
	}
	// Rules run only on a pane attributed to a harness, and only when it
	// writes; an unwatched transcript join is read on output too.
	if p.m == nil && (p.join == nil || p.join.watched) {
		return len(b), nil
	}
	if now.Sub(p.lastLook) >= LookInterval {
		p.lookLocked(0, now)
	}
	p.armSettle()
	return len(b), nil
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
	defer p.mu.Unlock()
	if p.stopped || !p.settleDue {
		return
	}
	p.settleDue = false
	p.lookLocked(0, p.t.clock.Now())
}

// onEvent collects the screen's events; Write handles them after the
// screen has taken the whole chunk.
func (p *Pane) onEvent(ev vt.Event) { p.events = append(p.events, ev) }

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
			if !a.Brief(p.id).Agent {
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

// attribute follows the arbiter's harness attribution to a manifest. A
// pane that just became attributed is looked at once at once: the prompt
// may already be painted, and a silent prompt brings no more output.
func (p *Pane) attribute(harness string) {
	if harness == p.harness {
		return
	}
	p.harness = harness
	p.m = p.t.manifest(harness)
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
	defer p.mu.Unlock()
	if p.stopped {
		return agentstate.LookResult{}
	}
	p.attribute(p.t.arb.Brief(p.id).Harness)
	return p.lookLocked(why, p.t.clock.Now())
}

// lookLocked reads the title and the screen tail in one look, reconciles
// the two readings, and applies them. It reports whether the pane has a
// screen tier and whether the screen answered (any non-idle match, or an
// idle match that applied).
func (p *Pane) lookLocked(why agentstate.LookReason, now time.Time) agentstate.LookResult {
	p.lastLook = now
	if p.join != nil && !p.join.watched {
		p.readJoin()
	}
	m := p.m
	if m == nil {
		return agentstate.LookResult{}
	}
	res := agentstate.LookResult{Screen: m.Screen.Enabled || m.Title.Enabled}
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

// tick is one detection pass over this pane.
func (p *Pane) tick(n uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || p.shellPID <= 0 {
		return
	}
	a := p.t.arb
	brief := a.Brief(p.id)
	if !brief.Agent && p.readOnce && !p.readSince && n%quietEvery != 0 {
		return // a quiet plain pane: read on every 5th tick only
	}
	p.readOnce, p.readSince = true, false
	m, err := p.t.det.Detect(p.shellPID)
	if err != nil {
		return
	}
	p.lastMatch = m
	a.Detected(p.id, sighting(m))
	p.attribute(a.Brief(p.id).Harness)
	p.program.sweepGroups(p)
	if p.join != nil && p.join.r.Missing() > 0 {
		p.readJoin() // a deleted file sends no more events: count on the tick
	}
	p.maintainJoin(m)
}

// sighting turns a detector match into the arbiter's reading.
func sighting(m Match) agentstate.Sighting {
	s := agentstate.Sighting{Agent: m.Agent, Harness: m.HarnessID, Identity: m.Identity}
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
// transcript exactly (replacing a searched join).
func (p *Pane) Report(r agentstate.Report, transcriptPath string) agentstate.Result {
	res := p.t.arb.Apply(p.id, r)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.attribute(p.t.arb.Brief(p.id).Harness)
	if res.Applied && transcriptPath != "" && p.m != nil && p.m.Transcript.Enabled() {
		p.joinExact(transcriptPath)
	}
	return res
}

// Exited tells the tracker the pane's process exited: the pane clears and
// program status records of live work end.
func (p *Pane) Exited() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.program.exited(p)
	p.t.arb.Detected(p.id, agentstate.Sighting{Foreground: agentstate.ForegroundExited})
	p.attribute(p.t.arb.Brief(p.id).Harness)
}

// Typed tells the tracker a person typed into the pane (not focus
// reports): finished and failed program status records end.
func (p *Pane) Typed() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.program.typed(p)
}

func (p *Pane) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	if p.settle != nil {
		p.settle.Stop()
	}
	p.dropJoin(false)
}
