package attention

import (
	"slices"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/detect/hook"
	"github.com/tuios/tuios/internal/agentproto"
	"github.com/tuios/tuios/internal/daemon/core"
)

// When a queued pane counts as at rest (docs/agents.md, Queue a reply),
// beyond idle and done:
//
//   - A harness that can never show idle (nothing in its manifest or its
//     hooks says idle or done, and its screen tier turns a stalled turn
//     into unknown) is at rest on unknown: else its entries would wait
//     forever.
//   - A harness that cannot show working (nothing in its manifest or its
//     hooks says working) never leaves its rest when it takes a message,
//     so "a rest reached after the Enter" would never come. For it a rest
//     is also new output followed by 5 s of silence. Only such panes are
//     looked at on a timer: one output watcher while an entry waits, and
//     the pane's one timer armed at the last output plus 5 s.

// QueueQuiet is the silence after new output that counts as a rest on a
// pane whose harness cannot show working.
const QueueQuiet = 5 * time.Second

// restSigns is what a harness can show, read from its manifest and its
// hook map.
type restSigns struct {
	idle    bool // it can read idle or done
	working bool // it can read working
}

// hookStates caches hook.States per harness: the event map is fixed for
// the life of the binary.
var hookStates sync.Map // harness id → []agentstate.State

func hookStatesOf(harness string) []agentstate.State {
	if v, ok := hookStates.Load(harness); ok {
		return v.([]agentstate.State)
	}
	st := hook.States(harness)
	hookStates.Store(harness, st)
	return st
}

// signs reads what harness can show. The manifest is looked up each time
// (a person's manifest may replace a bundled one); a harness with no
// manifest, or none named, has no screen tier, so a stalled turn turns
// idle, and no rule that says working.
func (q *Queue) signs(harness string) restSigns {
	var sg restSigns
	if agentproto.IsHarness(harness) {
		// A protocol pane reports every state as the protocol says it.
		return restSigns{idle: true, working: true}
	}
	if harness != "" {
		st := hookStatesOf(harness)
		sg.idle = slices.Contains(st, agentstate.Idle) || slices.Contains(st, agentstate.Done)
		sg.working = slices.Contains(st, agentstate.Working)
	}
	var m *detect.Manifest
	if reg := q.h.Tracker().Detector().Registry(); reg != nil && harness != "" {
		m, _ = reg.Lookup(harness)
	}
	if m == nil || !m.Screen.Enabled && !m.Title.Enabled {
		// No screen tier: the arbiter's stall deadline demotes a silent
		// turn to idle (agentstate.Options.Look).
		sg.idle = true
		return sg
	}
	for _, rs := range []detect.RuleSet{m.Screen, m.Title, m.Notify} {
		if !rs.Enabled {
			continue
		}
		for _, r := range rs.Rules {
			switch r.State {
			case "idle", "done":
				sg.idle = true
			case "working":
				sg.working = true
			}
		}
	}
	return sg
}

// resting says whether state st counts as ready for a pane of harness: idle
// or done, errored, and unknown for a harness that can never show idle.
// Errored is a turn that ended badly with the agent back at its prompt: the
// Inbox's reply to an errored item ("try again") is queued for exactly that
// rest, and would otherwise wait until something else moved the pane
// (docs/agents.md: a failed turn leaves it back at its prompt, so a "try
// again" from the Inbox goes in). A pane that errors and keeps working
// reads working, not errored, so this never types into a turn.
func (q *Queue) resting(harness string, st agentstate.State) bool {
	if atRest(st) || st == agentstate.Errored {
		return true
	}
	return st == agentstate.Unknown && !q.signs(harness).idle
}

// quietDueLocked is when the silence after new output makes a rest on a
// pane whose harness cannot show working, and whether there is one to
// wait for: output heard after the last Enter (any output before the
// first one). It starts the pane's output watcher when it is not running.
// Called with q.mu held: it takes no other lock (the window is the one
// the pane record keeps).
func (q *Queue) quietDueLocked(p *paneQueue, harness string) (time.Time, bool) {
	if q.signs(harness).working {
		q.stopQuietLocked(p)
		return time.Time{}, false
	}
	if p.quietDone == nil && p.win != nil {
		p.quietDone = make(chan struct{})
		go q.watchQuiet(p.window, p.win, p.quietDone)
		// Output after the last Enter while nobody watched (the queue
		// was empty): when it came is not known, so the silence counts
		// from now.
		if closed(p.enterGen) && !p.heardAfterEnter {
			p.heardAfterEnter, p.outputAt = true, q.h.Clock().Now()
		}
	}
	if p.outputAt.IsZero() || !p.lastEnter.IsZero() && !p.heardAfterEnter {
		return time.Time{}, false
	}
	return p.outputAt.Add(QueueQuiet), true
}

// stopQuietLocked ends the pane's output watcher. Called with q.mu held.
func (q *Queue) stopQuietLocked(p *paneQueue) {
	if p.quietDone != nil {
		close(p.quietDone)
		p.quietDone = nil
	}
}

// noteEnterLocked records the Enter's output generation, so output after
// it (and only that) counts as new. Output may already have come before
// this runs. Called with q.mu held.
func (q *Queue) noteEnterLocked(p *paneQueue, gen <-chan struct{}) {
	p.enterGen, p.heardAfterEnter = gen, false
	if closed(gen) {
		p.heardAfterEnter, p.outputAt = true, q.h.Clock().Now()
	}
}

func closed(ch <-chan struct{}) bool {
	if ch == nil {
		return false
	}
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// watchQuiet follows one pane's output while an entry waits on it: each
// output stamps the pane by the daemon's clock. It arms nothing on each
// chunk: when a timer is already armed it fires, and the step it runs
// reads the latest output and re-arms (one timer, re-armed only when it
// fires); when none is, a step arms it.
func (q *Queue) watchQuiet(id string, pane core.Pane, done chan struct{}) {
	for {
		gen := pane.Output()
		select {
		case <-gen:
		case <-done:
			return
		case <-pane.Exited():
			return
		case <-q.h.Done():
			return
		}
		snap := q.arbiter().Get(id)
		q.mu.Lock()
		p := q.panes[id]
		if p == nil || p.quietDone != done {
			q.mu.Unlock()
			return
		}
		p.outputAt = q.h.Clock().Now()
		if closed(p.enterGen) {
			p.heardAfterEnter = true
		}
		if p.timer == nil {
			q.stepLocked(p, snap)
		}
		q.mu.Unlock()
	}
}

// Signs says what harness can show: idle (or done), and working (tests).
func (q *Queue) Signs(harness string) (idle, working bool) {
	sg := q.signs(harness)
	return sg.idle, sg.working
}
