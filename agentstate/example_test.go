package agentstate_test

import (
	"context"
	"fmt"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
)

// A hook's report outranks a screen rule: the screen cannot say "idle"
// over what the agent said about itself.
func ExampleArbiter_Apply() {
	a := agentstate.New(agentstate.Options{})

	a.Apply("build", agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport, Harness: "claude-code", Message: "running the test suite"})
	res := a.Apply("build", agentstate.Report{State: agentstate.Idle, Source: agentstate.SourceScreen})

	s := a.Get("build")
	fmt.Println("applied:", res.Applied, "reason:", res.Reason)
	fmt.Printf("%s %s from %s (rank %d): %s\n", s.Glyph(), s.State, s.Source, s.Source.Rank(), s.Message)
	// Output:
	// applied: false reason: outranked
	// ● working from report (rank 40): running the test suite
}

// The visible-blocker loan: a hooked agent said "working" and then sat on
// a permission prompt, silent. The screen rule takes the pane over the
// stale claim, and gives it back when the prompt is painted over.
func ExampleArbiter_NoMatch() {
	clock := fakeclock.New(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	a := agentstate.New(agentstate.Options{Clock: clock})

	a.Apply("build", agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport, Harness: "claude-code"})

	// Three seconds later the pane paints the prompt and a screen look runs.
	clock.Advance(3 * time.Second)
	a.Output("build", clock.Now())
	a.Apply("build", agentstate.Report{
		State: agentstate.NeedsInput, Source: agentstate.SourceScreen,
		Message: "approval: Do you want to proceed?", Observed: clock.Now(),
	})
	s := a.Get("build")
	fmt.Printf("%s %s from %s, loan of %s %s\n", s.Glyph(), s.State, s.Source, s.Prior.Source, s.Prior.State)

	// The person answers; the agent paints over the prompt; the next look
	// finds no rule matching.
	clock.Advance(time.Second)
	a.Output("build", clock.Now())
	a.NoMatch("build", agentstate.SourceScreen)
	s = a.Get("build")
	fmt.Printf("%s %s from %s\n", s.Glyph(), s.State, s.Source)
	// Output:
	// ▲ needs_input from screen, loan of report working
	// ● working from report
}

// Waiting until an agent needs a person, as `tuios wait-for agent-state
// --until needs_input` does. A pane already in the state matches at once.
func ExampleArbiter_Wait() {
	a := agentstate.New(agentstate.Options{})
	a.Apply("build", agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport})

	go a.Apply("build", agentstate.Report{State: agentstate.NeedsInput, Source: agentstate.SourceReport, Message: "approve the push to main?"})

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := a.Wait(ctx, "build", agentstate.SetOf(agentstate.NeedsInput, agentstate.Errored))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s needs you: %s (%s)\n", s.Pane, s.Message, s.BlockedBy())
	// Output:
	// build needs you: approve the push to main? (approval)
}

// A subscriber that prints transitions skips changes that kept the state
// (From == To: another source took the claim, the message changed) and
// prints the source only when one holds the pane. Closing the subscription
// closes C, so the range ends once the queued changes are read.
func ExampleArbiter_Subscribe() {
	a := agentstate.New(agentstate.Options{})
	changes := a.Subscribe(agentstate.SubscribeOptions{Pane: "build"})

	a.Apply("build", agentstate.Report{State: agentstate.Working, Source: agentstate.SourceDetect, Harness: "claude-code"})
	a.Apply("build", agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport, Message: "running tests"})
	a.Apply("build", agentstate.Report{State: agentstate.Done, Source: agentstate.SourceReport})
	a.Apply("build", agentstate.Report{State: agentstate.None, Source: agentstate.SourceReport})
	changes.Close()

	for c := range changes.C {
		if c.From == c.To {
			continue
		}
		line := fmt.Sprintf("%s -> %s", c.From, c.To)
		if c.Claimed {
			line += " (source " + c.SourceName() + ")"
		}
		fmt.Println(line)
	}
	// Output:
	// none -> working (source detect)
	// working -> done (source report)
	// done -> none
}
