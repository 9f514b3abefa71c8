package agentstate_test

import (
	"context"
	"sync"
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
)

// The steady path: a screen look that reads back its own claim, as every
// output-driven look on an unchanged screen does.
func BenchmarkApplySteadyLook(b *testing.B) {
	c := fakeclock.New(t0)
	a := as.New(as.Options{Clock: c, StallAfter: -1})
	rep := as.Report{State: as.NeedsInput, Source: as.SourceScreen, Harness: "claude-code", Message: "approval: Do you want to proceed?", Observed: t0}
	a.Apply("w", rep)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.Apply("w", rep)
	}
}

// A lower source refused by the rank gate.
func BenchmarkApplyOutranked(b *testing.B) {
	c := fakeclock.New(t0)
	a := as.New(as.Options{Clock: c, StallAfter: -1})
	a.Apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	rep := as.Report{State: as.Idle, Source: as.SourceOSC, Hold: true}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.Apply("w", rep)
	}
}

// A hook flipping between two states: every report writes and notifies.
func BenchmarkApplyChanging(b *testing.B) {
	c := fakeclock.New(t0)
	a := as.New(as.Options{Clock: c, StallAfter: -1})
	reps := [2]as.Report{{State: as.Working, Source: as.SourceReport, Message: "running tests"}, {State: as.NeedsInput, Source: as.SourceReport, Message: "approve push?"}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.Apply("w", reps[i&1])
	}
}

func BenchmarkOutput(b *testing.B) {
	a := as.New(as.Options{StallAfter: -1})
	now := time.Now()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		a.Output("w", now)
	}
}

// Fan-out: one pane changing with 100 subscribers draining on their own
// goroutines.
func BenchmarkSubscribeFanout100(b *testing.B) {
	a := as.New(as.Options{StallAfter: -1})
	var wg sync.WaitGroup
	subs := make([]*as.Subscription, 100)
	stop := make(chan struct{})
	for i := range subs {
		subs[i] = a.Subscribe(as.SubscribeOptions{Pane: "w", Buffer: 256})
		wg.Add(1)
		go func(s *as.Subscription) {
			defer wg.Done()
			for {
				select {
				case <-s.C:
				case <-stop:
					return
				}
			}
		}(subs[i])
	}
	reps := [2]as.Report{{State: as.Working, Source: as.SourceReport}, {State: as.NeedsInput, Source: as.SourceReport}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.Apply("w", reps[i&1])
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
	for _, s := range subs {
		s.Close()
	}
}

// Fan-out: 100 waiters blocked on one pane, all woken by one report.
func BenchmarkWait100(b *testing.B) {
	a := as.New(as.Options{StallAfter: -1})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		a.Apply("w", as.Report{State: as.Working, Source: as.SourceReport})
		var ready, done sync.WaitGroup
		for j := 0; j < 100; j++ {
			ready.Add(1)
			done.Add(1)
			go func() {
				defer done.Done()
				ready.Done()
				a.Wait(context.Background(), "w", as.SetOf(as.NeedsInput))
			}()
		}
		ready.Wait()
		a.Apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport})
		done.Wait()
	}
}

// The steady look with the real clock, as a daemon runs it.
func BenchmarkApplySteadyLookRealClock(b *testing.B) {
	a := as.New(as.Options{StallAfter: -1})
	rep := as.Report{State: as.NeedsInput, Source: as.SourceScreen, Harness: "claude-code", Message: "approval: Do you want to proceed?", Observed: time.Now()}
	a.Apply("w", rep)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.Apply("w", rep)
	}
}
