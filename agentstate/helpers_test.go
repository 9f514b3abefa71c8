package agentstate_test

import (
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

type rig struct {
	t     *testing.T
	clock *fakeclock.Clock
	a     *agentstate.Arbiter
}

func newRig(t *testing.T, opt agentstate.Options) *rig {
	t.Helper()
	c := fakeclock.New(t0)
	opt.Clock = c
	return &rig{t: t, clock: c, a: agentstate.New(opt)}
}

func (r *rig) apply(pane string, rep agentstate.Report) agentstate.Result {
	return r.a.Apply(pane, rep)
}

func (r *rig) advance(d time.Duration) { r.clock.Advance(d) }

func (r *rig) now() time.Time { return r.clock.Now() }

// look is a report from the engine's own screen or title look: it carries
// the time the pane last painted.
func (r *rig) look(pane string, src agentstate.Source, s agentstate.State, msg string) agentstate.Result {
	return r.a.Apply(pane, agentstate.Report{State: s, Source: src, Message: msg, Observed: r.now(), Harness: "claude-code"})
}

// paint records output at the current time.
func (r *rig) paint(pane string) { r.a.Output(pane, r.now()) }

func (r *rig) want(pane string, s agentstate.State, src string) agentstate.Snapshot {
	r.t.Helper()
	got := r.a.Get(pane)
	if got.State != s || got.SourceName() != src {
		r.t.Fatalf("pane %s: got %s from %q, want %s from %q", pane, got.State, got.SourceName(), s, src)
	}
	return got
}

func wantResult(t *testing.T, got agentstate.Result, applied bool, reason agentstate.Reason) {
	t.Helper()
	if got.Applied != applied || got.Reason != reason {
		t.Fatalf("result %+v, want applied=%v reason=%q", got, applied, reason)
	}
}
