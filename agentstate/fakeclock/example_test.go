package fakeclock_test

import (
	"fmt"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
)

// The 700 ms hold, checked without sleeping: a quieter state from a
// sampled source (OSC 9;4) is published only once time has moved past
// the hold.
func Example() {
	clock := fakeclock.New(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	a := agentstate.New(agentstate.Options{Clock: clock})
	a.Apply("build", agentstate.Report{State: agentstate.Working, Source: agentstate.SourceOSC, Hold: true})

	res := a.Apply("build", agentstate.Report{State: agentstate.Idle, Source: agentstate.SourceOSC, Hold: true})
	fmt.Println(a.Get("build").State, res.Reason)

	clock.Advance(agentstate.DefaultHold)
	fmt.Println(a.Get("build").State, "timers pending:", clock.Pending())
	// Output:
	// working held
	// idle timers pending: 0
}
