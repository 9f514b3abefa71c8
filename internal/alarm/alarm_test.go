package alarm

import (
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
)

// One timer for the earliest deadline: a rearm for an earlier one moves
// it, a rearm for none disarms it, and it fires once its time comes
// (on the daemon's clock), disarmed by then.
func TestAlarmKeepsOneTimerForTheEarliest(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	clk := fakeclock.New(start)
	var a Alarm
	fired := make(chan bool, 4)
	fire := func() { _, armed := a.Armed(); fired <- armed }

	a.Rearm(clk, func() time.Time { return start.Add(time.Hour) }, fire)
	a.Rearm(clk, func() time.Time { return start.Add(time.Minute) }, fire)
	if at, ok := a.Armed(); !ok || !at.Equal(start.Add(time.Minute)) {
		t.Fatalf("armed for %v (%v), want the earlier minute", at, ok)
	}
	clk.Advance(time.Minute)
	if armed := <-fired; armed {
		t.Fatal("still armed as it fired")
	}

	a.Rearm(clk, func() time.Time { return start.Add(2 * time.Hour) }, fire)
	a.Rearm(clk, func() time.Time { return time.Time{} }, fire)
	if _, ok := a.Armed(); ok {
		t.Fatal("armed with nothing due")
	}
	clk.Advance(3 * time.Hour)
	// The next deadline fires once: a disarmed timer's fire, which would
	// have started before it, does not come with it.
	now := start.Add(3*time.Hour + time.Minute)
	a.Rearm(clk, func() time.Time { return now.Add(time.Second) }, fire)
	clk.Advance(2 * time.Second)
	<-fired
	if n := len(fired); n != 0 {
		t.Fatalf("%d more fires: a disarmed alarm fired", n)
	}
}
