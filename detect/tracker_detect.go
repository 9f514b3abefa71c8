package detect

import (
	"time"

	"github.com/tuios/tuios/agentstate"
)

// When a pane's foreground is read. The detection tick reads every pane
// holding an agent (and the others now and then), but an agent must not
// wait for it: a pane is also read when it is attached, when it prints,
// and shortly after it printed while its foreground is unsettled.
//
// An agent reaches the foreground when the shell, having echoed the
// Enter that started it, hands the terminal to a new process group and
// that process execs the agent; the agent itself may then print nothing
// for a while (Claude Code 2.1.197: about 0.6 s). So the Enter's echo is
// the last output before the agent is in front (often before the shell
// has even read the line: the terminal echoes it), and a pane whose
// reading is unsettled (the shell in front, nothing readable, a process
// caught in its exec, a wrapper) is read again every DetectGap after its
// last output, 8 times (200 ms), then not until it prints again; a
// settled reading (an agent, or a program that neither wraps nor is one)
// is not. Output reads a pane at most once per DetectGap, or once per
// ReconcileInterval while an agent is in front (the agent's own output is
// most of it), and a skipped chunk arms one trailing read, so the last
// change before a silence is always read. A pane that prints nothing is
// read only by the tick and arms nothing.

// DetectGap is the least time between two output-driven reads of a pane
// with no agent in front, and between the re-reads after its output.
const DetectGap = 25 * time.Millisecond

// detectRechecks is how many times an unsettled pane is read again after
// its last output, DetectGap apart.
const detectRechecks = 8

// detection is what a pane keeps about reading its foreground. Reads run
// unlocked; one is out at a time (busy), and each is numbered so a result
// older than one already applied is dropped.
type detection struct {
	seq      uint64
	applied  uint64
	busy     bool
	tickOwed bool // a tick came while a read was out: apply that read as the tick
	last     time.Time
	settled  bool // the last reading will not change without output
	agent    bool // the last reading found an agent
	rechecks int  // re-reads since the last output
	timer    agentstate.Timer
	armed    bool
	at       time.Time // when the armed timer fires
}

// detectKind says what asked for a read; it decides how the reading is
// applied.
type detectKind uint8

const (
	detectTick   detectKind = iota // the detection tick: counts misses, keeps the join
	detectOutput                   // output, a trailing read, a re-read, Attach
)

// startDetect numbers a read and marks it out. Called with p.mu held.
func (p *Pane) startDetect(now time.Time) uint64 {
	p.det.busy = true
	p.det.last = now
	p.det.seq++
	p.readOnce, p.readSince = true, false
	return p.det.seq
}

// detectOnOutput decides whether the output just written reads the
// foreground now (it returns the read's number), later (it arms the
// trailing read), or not at all (0). Called with p.mu held.
func (p *Pane) detectOnOutput(now time.Time) uint64 {
	if p.shellPID <= 0 || p.t.opt.DetectInterval < 0 {
		return 0
	}
	p.det.rechecks = 0
	gap := DetectGap
	if p.det.agent {
		gap = ReconcileInterval
	}
	due := p.det.last.Add(gap)
	if p.det.busy || now.Before(due) {
		p.armDetect(max(due.Sub(now), DetectGap/5))
		return 0
	}
	return p.startDetect(now)
}

// armDetect arms the pane's one read timer to fire d from now, unless it
// is armed to fire sooner. Called with p.mu held.
func (p *Pane) armDetect(d time.Duration) {
	at := p.t.clock.Now().Add(d)
	if p.det.armed && !at.Before(p.det.at) {
		return
	}
	p.det.armed, p.det.at = true, at
	if p.det.timer == nil {
		p.det.timer = p.t.clock.AfterFunc(d, p.onDetectTimer)
		return
	}
	p.det.timer.Reset(d)
}

// onDetectTimer runs a trailing read or a re-read.
func (p *Pane) onDetectTimer() {
	p.mu.Lock()
	if p.stopped || !p.det.armed {
		p.mu.Unlock()
		return
	}
	p.det.armed = false
	if p.det.busy {
		p.mu.Unlock()
		return // the read out re-arms when it returns
	}
	seq := p.startDetect(p.t.clock.Now())
	p.mu.Unlock()
	p.detect(seq, detectOutput, nil)
}

// detectAtAttach reads a new pane's foreground at once: a pane started
// on an agent shows it without waiting for output or the tick.
func (p *Pane) detectAtAttach() {
	p.mu.Lock()
	if p.stopped || p.shellPID <= 0 || p.t.opt.DetectInterval < 0 || p.det.busy {
		p.mu.Unlock()
		return
	}
	p.det.rechecks = detectRechecks // not output: nothing to re-read after
	seq := p.startDetect(p.t.clock.Now())
	p.mu.Unlock()
	p.detect(seq, detectOutput, nil)
}

// ReadForeground reads the pane's foreground now, applies the reading as
// a read after output would (an agent that appeared shows, one that left
// for the shell or another program clears), and returns it. Readings
// otherwise follow output at most every ReconcileInterval while an agent
// is in front, so a pane whose agent just quit can still show it for that
// long; a caller about to act on the state (a save as it stops, say)
// reads first. It blocks for one /proc read and holds no lock across it.
// On a detached pane, one with no shell process, or with detection off
// (TrackerOptions.DetectInterval negative), it reads nothing and returns
// the last reading.
func (p *Pane) ReadForeground() Match {
	p.mu.Lock()
	if p.stopped || p.shellPID <= 0 || p.t.opt.DetectInterval < 0 {
		p.mu.Unlock()
		return p.Foreground()
	}
	// A read already out is older than this one: numbered, it is dropped
	// if it returns after this one applied.
	seq := p.startDetect(p.t.clock.Now())
	p.mu.Unlock()
	p.detect(seq, detectOutput, nil)
	return p.Foreground()
}

// detect reads the foreground (unlocked), then applies the reading under
// p.mu and runs then (if any) before the queued work goes. Called without
// p.mu, with the read marked out by startDetect.
func (p *Pane) detect(seq uint64, kind detectKind, then func()) {
	m, err := p.t.det.Detect(p.shellPID)
	p.mu.Lock()
	p.det.busy = false
	if p.det.tickOwed {
		p.det.tickOwed = false
		kind = detectTick
	}
	if !p.stopped && err == nil && seq > p.det.applied {
		p.det.applied = seq
		p.applyDetection(m, kind)
	}
	if !p.stopped && then != nil {
		then()
	}
	p.unlock()
}

// applyDetection hands a reading to the arbiter. The tick's reading is
// the detector's lifecycle in full (a miss is counted while another
// program holds an agent's pane); any other reading makes an agent appear
// or clears a pane whose agent left, takes a resting agent's pane back to
// working (Reconcile), and counts no miss, since reads off the tick come
// as often as output does. An unsettled reading off the tick is read
// again shortly. Called with p.mu held.
func (p *Pane) applyDetection(m Match, kind detectKind) {
	a := p.t.arb
	p.setForeground(m)
	s := sighting(m)
	p.det.settled, p.det.agent = settled(m), m.Agent
	if kind == detectTick {
		a.Detected(p.id, s)
	} else {
		if m.Agent || s.Foreground != agentstate.ForegroundProgram {
			a.Detected(p.id, s)
		}
		a.Reconcile(p.id, s)
		if !p.det.settled && p.det.rechecks < detectRechecks {
			p.armDetect(DetectGap)
			p.det.rechecks++
		}
	}
	p.attribute(a.Brief(p.id).Harness)
	if kind == detectTick {
		p.program.sweepGroups(p)
		if p.join != nil && p.join.missing > 0 {
			p.work.read = p.join // a deleted file sends no more events: count on the tick
		}
	}
	p.maintainJoin(m)
}

// settled says a reading will not change until the pane prints: an agent,
// or a program in front that is neither the shell, a wrapper (what runs
// behind it may change) nor caught inside its exec (no argv yet).
func settled(m Match) bool {
	switch {
	case !m.Running || m.AtShell:
		return false
	case m.Agent:
		return true
	}
	return len(m.Process.Argv) > 0 && !wraps(m.Process)
}
