package inbox_test

import (
	"fmt"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/inbox"
)

// An embedder's own panes, no daemon: an agentstate arbiter decides each
// pane's state, the queue turns the states into Inbox items, and the
// embedder prints the events and keeps one timer for NextWake.
func Example() {
	clock := fakeclock.New(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	arb := agentstate.New(agentstate.Options{Clock: clock, StallAfter: -1})
	q := inbox.New(inbox.Options{Clock: clock, BootID: "example"})
	panes := map[string]inbox.Pane{
		"docs":  {ID: "docs", Session: "api", Name: "docs"},
		"build": {ID: "build", Session: "api", Name: "build"},
	}
	publish := func(evs []inbox.Event) {
		for _, ev := range evs {
			fmt.Printf("  %s %s #%s", ev.Op, ev.Item.Kind, ev.Item.ID)
			if ev.Item.Closed != "" {
				fmt.Print(" ", ev.Item.Closed)
			}
			fmt.Println()
		}
	}
	report := func(id string, r agentstate.Report) {
		r.Harness = "claude-code"
		arb.Apply(id, r)
		publish(q.Update(panes[id], arb.Get(id)))
	}

	fmt.Println("docs works and finishes:")
	report("docs", agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport})
	report("docs", agentstate.Report{State: agentstate.Done, Source: agentstate.SourceReport, Message: "README rewritten"})
	clock.Advance(25 * time.Second)
	fmt.Println("build asks, twice:")
	report("build", agentstate.Report{State: agentstate.NeedsInput, Source: agentstate.SourceReport, Message: "approve Bash: make deploy"})
	report("build", agentstate.Report{State: agentstate.NeedsInput, Source: agentstate.SourceReport, Message: "approve Bash: make deploy"})

	clock.Advance(10 * time.Second)
	for _, it := range q.List(inbox.ListOptions{}).Items {
		age := clock.Now().Sub(time.Unix(0, it.Since))
		fmt.Printf("%-9s %4s  %s/%s  %s\n", it.Kind.Group(), age, it.Session, it.Name, it.Summary)
	}

	fmt.Println("the person snoozes the finished turn for 15 minutes:")
	done, _ := q.Find(inbox.PaneKey(inbox.KindFinished, "docs"))
	evs, _ := q.Snooze(done.ID, inbox.Snooze{For: 15 * time.Minute})
	publish(evs)
	fmt.Println("timer at:", q.NextWake().UTC().Format("15:04:05"))

	clock.Advance(15 * time.Minute)
	fmt.Println("the timer fires:")
	publish(q.Tick(clock.Now()))
	fmt.Println("timer armed:", !q.NextWake().IsZero())

	fmt.Println("build is answered in its pane:")
	report("build", agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport})
	// Output:
	// docs works and finishes:
	//   open finished #1
	// build asks, twice:
	//   open approval #2
	// Approvals  10s  api/build  approve Bash: make deploy
	// Done       35s  api/docs  README rewritten
	// the person snoozes the finished turn for 15 minutes:
	//   close finished #1 snoozed
	// timer at: 09:15:35
	// the timer fires:
	//   open finished #1
	// timer armed: false
	// build is answered in its pane:
	//   close approval #2 resolved
}

// What a row shows of text an agent wrote.
func ExampleCleanSummary() {
	fmt.Println(inbox.CleanSummary("curl -H \"Authorization: Bearer abc.def\" \\\n\thttps://api.example.com?api_key=s3cr3t"))
	// Output:
	// curl -H "Authorization: Bearer [redacted]" \ https://api.example.com?api_key=[redacted]
}
