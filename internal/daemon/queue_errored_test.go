package daemon

import (
	"testing"
	"time"
)

// An errored agent is back at its prompt: a reply queued for it (the
// Inbox's r on an errored item) is typed after its second of rest, as for
// idle, and the entry leaves the list once the pane takes it.
func TestQueueTypesIntoAnErroredAgent(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "working")
	g.queue("try again", nil)
	rest := g.clk.Now()
	g.state("errored")
	g.waitArmed(rest.Add(queueRest))
	g.clk.Advance(queueRest)
	if got := g.waitGot(1); got[0] != "try again" {
		t.Fatalf("the pane got %q", got)
	}
	g.waitState("q1", "delivering")
	g.state("working")
	eventually(t, "the list empties", func() bool { return len(g.entries()) == 0 })
}

// Queued while the pane already shows errored: typed after a second.
func TestQueueTypesIntoAnAlreadyErroredAgent(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "errored")
	g.queue("try again", nil)
	g.clk.Advance(queueRest + time.Millisecond)
	if got := g.waitGot(1); got[0] != "try again" {
		t.Fatalf("the pane got %q", got)
	}
}

// An errored agent's turn on the reply can be short enough that working is
// never read: errored → idle after the Enter still shows it took it, so
// the entry leaves the list rather than stalling at the gate.
func TestQueueErroredToIdleIsTaken(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "errored")
	g.queue("try again", nil)
	g.clk.Advance(queueRest + time.Millisecond)
	g.waitGot(1)
	g.typed("q1")
	g.clk.Advance(time.Millisecond)
	g.state("idle")
	eventually(t, "the list empties", func() bool { return len(g.entries()) == 0 })
}
