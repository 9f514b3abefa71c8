package detect

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect/transcript"
	"github.com/tuios/tuios/vt"
)

// Tracker timings.
const (
	// LookInterval throttles output-driven screen looks per pane.
	LookInterval = 250 * time.Millisecond
	// SettleDelay is when the trailing look runs after a pane's last
	// chunk, so the prompt painted by the final chunk is always read.
	SettleDelay = 400 * time.Millisecond
	// ReconcileInterval throttles output-driven foreground reads of a
	// pane whose foreground is settled (see DetectGap for the others).
	ReconcileInterval = 250 * time.Millisecond
	// DefaultDetectInterval is the detection tick.
	DefaultDetectInterval = 2 * time.Second
	// quietEvery: a quiet pane with no agent is read on every 5th tick.
	quietEvery = 5
	// joinRetry spaces searched transcript joins per pane.
	joinRetry = 10 * time.Second
	// transcriptMissingLimit: consecutive missing reads that end a join.
	transcriptMissingLimit = 3
	// SessionFileWait is how long a hookless pane whose manifest names a
	// session file waits for the agent to write it before it searches for
	// a transcript by verification instead (an older release writes
	// none). A search earlier could take an earlier session's transcript,
	// which verifies as well, for the new one's.
	SessionFileWait = 3 * time.Second
)

// TrackerOptions configure a Tracker. The zero value works: the real
// clock, the shipped and user manifests, a 2 s detection tick, the 30 s
// stall window, and transcripts read on output.
type TrackerOptions struct {
	Clock agentstate.Clock

	// Detector reads panes' foreground processes. Nil builds one over
	// Registry (nil: Load with default options).
	Detector *Detector
	Registry *Registry

	// DetectInterval is the detection tick. Zero is 2 s; negative turns
	// detection off (hook reports, OSC and screen rules still work).
	DetectInterval time.Duration

	// StallAfter is the stall window (agentstate.Options.StallAfter).
	StallAfter time.Duration

	// Watcher watches transcript directories; one serves the whole
	// process. Nil reads joined transcripts on the pane's output instead.
	Watcher *transcript.Watcher

	// Home is the user's home for transcript locations. Empty is
	// os.UserHomeDir.
	Home string

	// OnLoadError is called, from NewTracker and with no lock held, once
	// for each manifest file the tracker could not load when it loads the
	// manifests itself (Detector and Registry both nil). The tracker also
	// keeps them: see LoadErrors.
	OnLoadError func(LoadError)
}

// Tracker keeps the agent state of a set of panes true from every source:
// hooks (Pane.Hook), OSC 9;4 and OSC 7501 sequences, window titles and
// notifications, screen rules, the foreground process and the harness's
// transcript. It owns one agentstate.Arbiter, which readers use directly
// (Get, Subscribe, Wait).
//
// When states come, with the default options:
//
//   - A pane started on an agent shows working before Attach returns: its
//     foreground is read there. An agent started later in the pane (typed
//     at its shell) shows within about DetectGap (25 ms) of reaching the
//     foreground, found by the reads that follow the pane's output; one
//     that prints nothing at all is found by the detection tick
//     (DetectInterval, 2 s), which is also what clears a pane whose agent
//     has left for another program.
//   - A hook's report (Pane.Hook) applies at once, at the top rank.
//   - The screen and title rules read a pane attributed to a harness at
//     most every LookInterval (250 ms) while it prints, and once more
//     SettleDelay (400 ms) after its last output, so a prompt painted
//     before a silence reads needs_input within 450 ms. Over a claim from
//     a source that could describe the prompt itself (a hook's report, an
//     OSC 9;4 or title reading) the screen waits until that claim has
//     stood agentstate.DefaultBlockerGrace (2 s) unrefreshed.
//   - A working pane that stays silent for the stall window (30 s) is
//     looked at once more, then demoted to unknown.
//
// A silent pane costs nothing: no per-pane timer is armed unless a
// trailing screen look is due, and the tracker's only standing timer is
// the detection tick, shared by every pane.
//
// No lock of the tracker or of a pane is held across blocking I/O or a
// caller's callback (see the package doc, Concurrency): one pane whose
// PTY, process or transcript is stuck never stops the others.
type Tracker struct {
	opt     TrackerOptions
	clock   agentstate.Clock
	arb     *agentstate.Arbiter
	det     *Detector
	reg     *Registry
	loadErr []LoadError // set by NewTracker, read-only after

	mu     sync.Mutex
	panes  map[string]*Pane
	tick   agentstate.Timer
	ticks  uint64
	closed bool
}

// NewTracker returns a tracker with no panes.
func NewTracker(opt TrackerOptions) *Tracker {
	if opt.Clock == nil {
		opt.Clock = agentstate.RealClock{}
	}
	if opt.DetectInterval == 0 {
		opt.DetectInterval = DefaultDetectInterval
	}
	if opt.Home == "" {
		opt.Home, _ = os.UserHomeDir()
	}
	t := &Tracker{opt: opt, clock: opt.Clock, panes: map[string]*Pane{}}
	t.det = opt.Detector
	if t.det == nil {
		reg := opt.Registry
		if reg == nil {
			reg, t.loadErr = Load(LoadOptions{})
		}
		t.det = NewDetector(DetectorOptions{Registry: reg})
	}
	t.reg = t.det.Registry()
	t.arb = agentstate.New(agentstate.Options{Clock: opt.Clock, StallAfter: opt.StallAfter, Look: t.lookFor})
	if opt.OnLoadError != nil {
		for _, e := range t.loadErr {
			opt.OnLoadError(e)
		}
	}
	return t
}

// LoadErrors returns a copy of the load errors OnLoadError was given, so a
// caller can show them later. It is empty when the caller supplied the
// Detector or the Registry: the tracker then loaded nothing itself.
func (t *Tracker) LoadErrors() []LoadError {
	if len(t.loadErr) == 0 {
		return nil
	}
	return append([]LoadError(nil), t.loadErr...)
}

// Arbiter is the tracker's arbiter: read states, subscribe, wait.
func (t *Tracker) Arbiter() *agentstate.Arbiter { return t.arb }

// Detector is the tracker's detector (for Explain).
func (t *Tracker) Detector() *Detector { return t.det }

// PaneOptions describe a pane to track.
type PaneOptions struct {
	// ShellPID is the pid of the process started on the pane's PTY (the
	// shell); its foreground process group is the pane's foreground.
	// Zero: no process detection for this pane.
	ShellPID int
	// Cols and Rows size the screen (80x24 when zero).
	Cols, Rows int
	// Reply receives the screen's answers to the program's queries
	// (cursor position, device attributes, colours): the PTY. Set it when
	// nothing else answers (a daemon, a recorder with no terminal), or a
	// program that asks and waits hangs. Leave it nil when the output
	// also goes to a real terminal that shows it and whose answers reach
	// the program as input (examples/embed on a terminal): that terminal
	// already answers, and with Reply set each query is answered twice.
	// It is written by Pane.Write after the pane's lock is released, in
	// order; if it blocks, only that Write waits.
	Reply io.Writer
	// Scrollback is vt.Options.Scrollback.
	Scrollback int
	// Harness is the harness the pane runs, when the caller knows it (a
	// pane it started on that agent, a replay of a recording): that
	// manifest's screen, title and notification rules read the pane from
	// its first output, and its OSC 9;4 progress counts, with no wait for
	// the detector or a report. A harness the detector or a report
	// attributes later takes over while it holds the pane. An id no
	// loaded manifest has runs no rules.
	Harness string
	// OnEvent, when set, also sees every typed screen event (a bell, a
	// notification), synchronously from Write with the pane's lock held:
	// it must not block or call the pane (an owner that forwards events
	// to a client does a non-blocking send).
	OnEvent func(vt.Event)
}

// Attach starts tracking a pane under id and returns it. Feed it the
// PTY's output with Write. Attaching an id twice replaces the first pane.
// A pane with a ShellPID has its foreground read before Attach returns
// (no lock held), so a pane started on an agent shows it at once.
func (t *Tracker) Attach(id string, opt PaneOptions) *Pane {
	p := &Pane{t: t, id: id, shellPID: opt.ShellPID, onEv: opt.OnEvent, given: opt.Harness}
	p.harness, p.m = opt.Harness, t.manifest(opt.Harness)
	vo := vt.Options{Cols: opt.Cols, Rows: opt.Rows, Scrollback: opt.Scrollback, OnEvent: p.onEvent}
	if opt.Reply != nil {
		p.replies = &replyQueue{w: opt.Reply}
		vo.Reply = p.replies
	}
	p.screen = vt.New(vo)
	var cancels []func()
	t.mu.Lock()
	if old := t.panes[id]; old != nil {
		cancels = old.stop()
	}
	t.panes[id] = p
	t.armTick()
	t.mu.Unlock()
	for _, c := range cancels {
		c()
	}
	p.detectAtAttach()
	return p
}

// Pane returns the tracked pane with id, or nil.
func (t *Tracker) Pane(id string) *Pane {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.panes[id]
}

// Detach stops tracking a pane and drops its state. The old *Pane stays
// safe to call; every method on it is then a no-op. Detach never waits
// for the pane's I/O: a stuck Reply write, detection or transcript read
// finishes on its own goroutine and is discarded.
func (t *Tracker) Detach(id string) {
	var cancels []func()
	t.mu.Lock()
	p := t.panes[id]
	delete(t.panes, id)
	if len(t.panes) == 0 && t.tick != nil {
		t.tick.Stop()
	}
	if p != nil {
		cancels = p.stop()
	}
	// Under t.mu, so an Attach of the same id cannot slip in between and
	// lose its new state.
	t.arb.Remove(id)
	t.mu.Unlock()
	for _, c := range cancels {
		c()
	}
	if p != nil && p.shellPID > 0 {
		t.det.Forget(p.shellPID)
	}
}

// Close stops every timer and drops every pane.
func (t *Tracker) Close() {
	t.mu.Lock()
	t.closed = true
	ids := make([]string, 0, len(t.panes))
	for id := range t.panes {
		ids = append(ids, id)
	}
	t.mu.Unlock()
	for _, id := range ids {
		t.Detach(id)
	}
	t.mu.Lock()
	if t.tick != nil {
		t.tick.Stop()
	}
	t.mu.Unlock()
}

// armTick keeps the one detection tick running while panes exist.
// Called with t.mu held.
func (t *Tracker) armTick() {
	if t.opt.DetectInterval < 0 || t.closed || len(t.panes) == 0 {
		return
	}
	if t.tick == nil {
		t.tick = t.clock.AfterFunc(t.opt.DetectInterval, t.onTick)
		return
	}
	t.tick.Reset(t.opt.DetectInterval)
}

// onTick is the detection pass: every pane holding an agent is read;
// a quiet pane with no agent only when it printed since its last read,
// was never read, or on every 5th tick. The next tick is armed before the
// pass, so a pass held up by one pane's /proc read does not stop later
// passes (which skip that pane until its read returns).
func (t *Tracker) onTick() {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return
	}
	t.ticks++
	n := t.ticks
	panes := make([]*Pane, 0, len(t.panes))
	for _, p := range t.panes {
		panes = append(panes, p)
	}
	t.armTick()
	t.mu.Unlock()
	for _, p := range panes {
		p.tick(n)
	}
}

// lookFor is the arbiter's Look: the stall deadline and the idle gate ask
// for a fresh look at a pane.
func (t *Tracker) lookFor(id string, why agentstate.LookReason) agentstate.LookResult {
	p := t.Pane(id)
	if p == nil {
		return agentstate.LookResult{}
	}
	return p.look(why)
}

// manifest resolves a harness id to its manifest.
func (t *Tracker) manifest(id string) *Manifest {
	if id == "" {
		return nil
	}
	m, _ := t.reg.Lookup(id)
	return m
}
