package fakeclock_test

import (
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
)

func TestTimersFireInDeadlineOrderAtTheirDeadline(t *testing.T) {
	start := time.Unix(1000, 0)
	c := fakeclock.New(start)
	var got []time.Duration
	record := func() { got = append(got, c.Now().Sub(start)) }
	c.AfterFunc(300*time.Millisecond, record)
	c.AfterFunc(100*time.Millisecond, record)
	stopped := c.AfterFunc(200*time.Millisecond, record)
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop must report whether it stopped an armed timer")
	}
	c.Advance(250 * time.Millisecond)
	if len(got) != 1 || got[0] != 100*time.Millisecond {
		t.Fatalf("after 250ms: %v", got)
	}
	c.Advance(time.Second)
	if len(got) != 2 || got[1] != 300*time.Millisecond || c.Now().Sub(start) != 1250*time.Millisecond {
		t.Fatalf("after 1.25s: %v, now %v", got, c.Now().Sub(start))
	}
	if c.Pending() != 0 {
		t.Fatal("fired timers still pending")
	}
}

func TestResetAndTimersArmedByCallbacks(t *testing.T) {
	c := fakeclock.New(time.Unix(0, 0))
	fired := 0
	var tm interface{ Reset(time.Duration) bool }
	tm = c.AfterFunc(time.Second, func() {
		fired++
		if fired < 3 {
			tm.Reset(time.Second) // re-arms from its own callback
		}
	})
	c.Advance(500 * time.Millisecond)
	tm.Reset(time.Second) // pushed back to 1.5 s
	c.Advance(900 * time.Millisecond)
	if fired != 0 {
		t.Fatal("a reset timer fired at its old deadline")
	}
	c.Advance(10 * time.Second)
	if fired != 3 || c.Pending() != 0 {
		t.Fatalf("fired %d pending %d", fired, c.Pending())
	}
}
