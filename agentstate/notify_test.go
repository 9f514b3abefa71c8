package agentstate_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
)

// Scenario 59: a wait on a pane already in the state matches at once.
func TestWaitMatchesAtOnce(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport, Message: "approve?"})
	s, err := r.a.Wait(context.Background(), "w", as.SetOf(as.NeedsInput))
	if err != nil || s.State != as.NeedsInput || s.Message != "approve?" {
		t.Fatalf("%+v %v", s, err)
	}
}

func TestWaitWakesOnTheStateAndNotBefore(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	got := make(chan as.Snapshot, 1)
	go func() {
		s, _ := r.a.Wait(context.Background(), "w", as.SetOf(as.Idle, as.Done))
		got <- s
	}()
	r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport})
	select {
	case s := <-got:
		t.Fatalf("woke on %s", s.State)
	default:
	}
	r.apply("w", as.Report{State: as.Done, Source: as.SourceReport})
	if s := <-got; s.State != as.Done {
		t.Fatalf("woke with %s", s.State)
	}
}

func TestWaitEndsWhenThePaneIsRemovedOrTheContextEnds(t *testing.T) {
	r := newRig(t, as.Options{})
	errs := make(chan error, 1)
	go func() {
		_, err := r.a.Wait(context.Background(), "w", as.SetOf(as.Done))
		errs <- err
	}()
	for {
		// Wait until the waiter is registered: the pane exists then.
		if len(r.a.Panes()) == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	r.a.Remove("w")
	err := <-errs
	if !errors.Is(err, as.ErrPaneRemoved) {
		t.Fatalf("err %v", err)
	}
	// A program branches on the code, as on every error of the package.
	var coded interface {
		Code() as.Code
		Hint() string
	}
	if !errors.As(err, &coded) || coded.Code() != "window_not_found" || coded.Hint() == "" {
		t.Errorf("ErrPaneRemoved carries no window_not_found code and hint: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.a.Wait(ctx, "x", as.SetOf(as.Done)); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

// No lost wake-ups: many waiters, many concurrent reporters; every waiter
// for a state that the pane certainly reaches last returns.
func TestNoLostWakeUpsUnderConcurrentReports(t *testing.T) {
	a := as.New(as.Options{StallAfter: -1})
	const panes, waiters = 20, 10
	var wg sync.WaitGroup
	for p := 0; p < panes; p++ {
		id := fmt.Sprint("p", p)
		for w := 0; w < waiters; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				if _, err := a.Wait(ctx, id, as.SetOf(as.Done)); err != nil {
					t.Errorf("%s: %v", id, err)
				}
			}()
		}
	}
	var rep sync.WaitGroup
	for p := 0; p < panes; p++ {
		rep.Add(1)
		go func(id string) {
			defer rep.Done()
			for i := 0; i < 50; i++ {
				a.Apply(id, as.Report{State: as.Working, Source: as.SourceReport})
				a.Apply(id, as.Report{State: as.NeedsInput, Source: as.SourceReport})
			}
			a.Apply(id, as.Report{State: as.Done, Source: as.SourceReport})
		}(fmt.Sprint("p", p))
	}
	rep.Wait()
	wg.Wait()
}

// A subscriber that fell far behind learns how many changes it missed:
// the Dropped counts of what it reads add up to every change it did not
// get, however many times its buffer overflowed.
func TestSubscribeDroppedCountsEveryMissedChange(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	sub := r.a.Subscribe(as.SubscribeOptions{Buffer: 2})
	defer sub.Close()
	const made = 10
	for i := 0; i < made; i++ {
		r.apply("a", as.Report{State: as.Working, Source: as.SourceReport, Message: fmt.Sprint("step ", i)})
	}
	sub.Close()
	var got, dropped uint64
	var last as.Change
	for c := range sub.C {
		got++
		dropped += c.Dropped
		last = c
	}
	if last.Message != fmt.Sprint("step ", made-1) {
		t.Errorf("last change %q, want the newest", last.Message)
	}
	if got+dropped != made {
		t.Errorf("read %d changes and Dropped says %d were missed; %d were made", got, dropped, made)
	}
}

func TestSubscribeDeliversChangesAndNeverLosesTheNewest(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	all := r.a.Subscribe(as.SubscribeOptions{Buffer: 2})
	one := r.a.Subscribe(as.SubscribeOptions{Pane: "b"})
	defer all.Close()
	defer one.Close()
	r.apply("a", as.Report{State: as.Working, Source: as.SourceReport})
	r.apply("a", as.Report{State: as.NeedsInput, Source: as.SourceReport})
	r.apply("a", as.Report{State: as.Idle, Source: as.SourceReport})
	r.apply("b", as.Report{State: as.Done, Source: as.SourceReport})
	c1, c2 := <-all.C, <-all.C
	if c1.To != as.Idle || c2.To != as.Done || c1.Dropped+c2.Dropped != 2 {
		t.Fatalf("got %+v then %+v", c1, c2)
	}
	select {
	case c := <-all.C:
		t.Fatalf("extra change %+v", c)
	default:
	}
	if c := <-one.C; c.Pane != "b" || c.From != as.None || c.To != as.Done {
		t.Fatalf("pane subscription got %+v", c)
	}
	all.Close()
	r.apply("a", as.Report{State: as.Working, Source: as.SourceReport})
	if c, ok := <-all.C; ok {
		t.Fatalf("a closed subscription got %+v", c)
	}
	all.Close() // a second Close is harmless
}

// Close closes C, so a range over it ends, after the changes queued
// before Close.
func TestCloseEndsARangeOverC(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	sub := r.a.Subscribe(as.SubscribeOptions{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.apply("w", as.Report{State: as.Done, Source: as.SourceReport})
	sub.Close()
	var got []string
	for c := range sub.C { // ends: C is closed
		got = append(got, c.To.String())
	}
	if strings.Join(got, ",") != "working,done" {
		t.Fatalf("read %v before the range ended", got)
	}
}

func TestRefusalsAreNotChanges(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	sub := r.a.Subscribe(as.SubscribeOptions{})
	defer sub.Close()
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceScreen})
	select {
	case c := <-sub.C:
		t.Fatalf("a refusal notified %+v", c)
	default:
	}
}
