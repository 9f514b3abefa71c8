package agentstate_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
)

// The case that started it: the detector attributed the pane, then the
// agent printed OSC 9;4;1. The pane says working either way, but the
// source a person reads must be osc, with fresh evidence, while the
// detector's lifecycle stays so the pane still clears when the agent goes.
func TestOSCProgressTakesTheDetectorsWorking(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.a.Detected("w", claude)
	r.advance(5 * time.Second)
	r.a.Detected("w", vim) // one miss
	before := r.want("w", as.Working, "detect")
	sub := r.a.Subscribe(as.SubscribeOptions{Pane: "w"})
	defer sub.Close()

	res := r.apply("w", progress(as.Working))
	if !res.Applied || !res.Changed || res.Reason != "" {
		t.Fatalf("result %+v", res)
	}
	got := r.want("w", as.Working, "osc")
	if !got.Auto || got.Misses != 1 || got.EvidenceAge != 0 || !got.StateAt.Equal(r.now()) || got.CompletionSeq != before.CompletionSeq {
		t.Fatalf("after: %+v", got)
	}
	if c := <-sub.C; c.From != as.Working || c.To != as.Working || c.Source != as.SourceOSC || !c.Claimed {
		t.Fatalf("change %+v", c)
	}
	// The next sample is the holder repeating itself: nothing.
	v := got.Version
	wantResult(t, r.apply("w", progress(as.Working)), false, as.ReasonUnchanged)
	if r.a.Get("w").Version != v {
		t.Fatal("a repeat from the holder bumped the version")
	}
	r.a.Detected("w", shell)
	r.want("w", as.None, "")
}

// Taking the claim of the shown state is not a transition: no turn starts
// or ends, and no waiter for another state wakes.
func TestTakingTheShownStateCountsNoTurnAndWakesNoWaiter(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.a.Detected("w", claude)
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() {
		_, err := r.a.Wait(ctx, "w", as.SetOf(as.Idle, as.Done, as.NeedsInput, as.Errored, as.Unknown, as.None))
		errs <- err
	}()
	r.advance(3 * time.Second)
	for _, rep := range []as.Report{
		progress(as.Working),
		{State: as.Working, Source: as.SourceTranscript},
		{State: as.Working, Source: as.SourceProgram},
		{State: as.Working, Source: as.SourceReport, Message: "running tools"},
	} {
		if res := r.apply("w", rep); !res.Changed {
			t.Fatalf("%s did not take the claim: %+v", rep.Source, res)
		}
	}
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Fatalf("a waiter returned %v", err)
	}
	// The turn began when the detector saw the agent, not at a takeover:
	// 3 s then 3 s more is one 6 s turn.
	r.advance(3 * time.Second)
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceReport})
	if g := r.a.Get("w"); g.CompletionSeq != 1 {
		t.Fatalf("completion_seq %d: a takeover restarted the turn", g.CompletionSeq)
	}
}

// A held sample that falls due when a lower source already shows its
// state takes the claim when the hold's timer publishes it.
func TestADueHoldTakesTheShownStateFromALowerClaim(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: time.Second})
	r.a.Detected("w", claude)
	r.advance(500 * time.Millisecond)
	wantResult(t, r.apply("w", progress(as.Idle)), false, as.ReasonHeld)
	r.advance(500 * time.Millisecond) // the stall deadline: idle from stall
	r.want("w", as.Idle, "stall")
	r.advance(200 * time.Millisecond) // the hold falls due
	if g := r.want("w", as.Idle, "osc"); !g.Auto || !g.StateAt.Equal(r.now()) {
		t.Fatalf("%+v", g)
	}
}

// An unclaimed pane that shows a state is below every source; an unclaimed
// pane that shows nothing is not claimed by a sample of nothing.
func TestASampleOfTheShownStateClaimsAnUnclaimedPane(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceTranscript})
	r.a.Yield("w", as.SourceTranscript)
	if g := r.a.Get("w"); g.Claimed {
		t.Fatal("still claimed after the yield")
	}
	wantResult(t, r.apply("w", progress(as.Working)), true, "")
	r.want("w", as.Working, "osc")

	wantResult(t, r.apply("x", as.Report{State: as.None, Source: as.SourceOSC, Hold: true}), false, as.ReasonUnchanged)
	if g := r.a.Get("x"); g.Claimed {
		t.Fatal("a sample of none claimed a pane that shows none")
	}
}

// A repeat from the source that holds the claim stays what it was: nothing
// on the sampled path and on a look, a restamp for a hook.
func TestARepeatFromTheHolderOfTheShownState(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", progress(as.Working))
	r.advance(time.Second)
	v := r.a.Get("w").Version
	wantResult(t, r.apply("w", progress(as.Working)), false, as.ReasonUnchanged)
	if g := r.a.Get("w"); g.Version != v || g.EvidenceAge != time.Second {
		t.Fatalf("a held repeat wrote: %+v", g)
	}
	r.look("l", as.SourceOSC, as.Working, "spinner")
	r.advance(time.Second)
	v = r.a.Get("l").Version
	if res := r.look("l", as.SourceOSC, as.Working, "spinner"); res.Changed || r.a.Get("l").Version != v {
		t.Fatal("a look repeating its claim wrote")
	}
	r.apply("h", as.Report{State: as.Working, Source: as.SourceReport})
	r.advance(time.Second)
	if res := r.apply("h", as.Report{State: as.Working, Source: as.SourceReport}); !res.Changed || r.a.Get("h").EvidenceAge != 0 {
		t.Fatal("a hook repeating itself must restamp")
	}
}

// How a report arrives.
type arrival uint8

const (
	viaApply    arrival = iota // a plain report
	viaHold                    // a sampled report (Hold: true)
	viaLook                    // the engine's own look (Observed set)
	viaDetector                // a detector tick (the detector never reports)
)

func (a arrival) String() string {
	return [...]string{"apply", "hold", "look", "detector"}[a]
}

var (
	W, NI, I, D, E, U = as.Working, as.NeedsInput, as.Idle, as.Done, as.Errored, as.Unknown
)

// says lists the states each source can hold a claim on, by how it comes to
// hold one: the agent and callers say anything; OSC 7501 maps to five
// states; the transcript says only working and done (never needs_input,
// which needs a live check, nor idle, which a file cannot see); OSC 9;4,
// title and notification rules say working, needs_input, idle, done and
// errored; screen rules claim needs_input and idle; the detector only
// makes a pane appear (working); the stall deadline writes idle or unknown.
var says = map[as.Source][]as.State{
	as.SourceReport:     {W, NI, I, D, E, U},
	as.SourceProgram:    {W, NI, I, D, E},
	as.SourceTranscript: {W, D},
	as.SourceOSC:        {W, NI, I, D, E},
	as.SourceScreen:     {NI, I},
	as.SourceDetect:     {W},
	as.SourceStall:      {I, U},
}

// reportable is what src can say arriving this way, or why it cannot
// arrive this way at all.
func reportable(src as.Source, how arrival) ([]as.State, string) {
	switch how {
	case viaDetector:
		if src != as.SourceDetect {
			return nil, "only the detector ticks"
		}
		return says[src], ""
	case viaLook:
		switch src {
		case as.SourceOSC:
			return []as.State{W, NI, I}, "" // title rules (notifications are event claims)
		case as.SourceScreen:
			return says[src], ""
		}
		return nil, "only the engine's own looks (title, notification and screen rules) set Observed"
	case viaHold:
		switch src {
		case as.SourceDetect:
			return nil, "the detector never reports through Apply: it only makes a pane appear or leave"
		case as.SourceOSC:
			return []as.State{W, I, E, NI}, "" // OSC 9;4's four states
		}
		// Only OSC 9;4 is sampled in the binary, but Report.Hold is open
		// to any source of an SDK user, so the rule is checked for all.
		return says[src], ""
	}
	if src == as.SourceDetect {
		return nil, "the detector never reports through Apply: it only makes a pane appear or leave"
	}
	return says[src], ""
}

func both(a, b []as.State) []as.State {
	var out []as.State
	for _, x := range a {
		for _, y := range b {
			if x == y {
				out = append(out, x)
			}
		}
	}
	return out
}

// holdClaim gives pane w to src in state s the way src comes to hold a
// claim (after the detector attributed the pane, so every claim carries its
// lifecycle): the detector by a tick, the stall by its deadline, the
// screen by a look, every other source by a plain report.
func holdClaim(r *rig, src as.Source, s as.State) {
	r.t.Helper()
	r.a.Detected("w", claude)
	switch src {
	case as.SourceDetect:
	case as.SourceStall:
		r.advance(31 * time.Second)
	case as.SourceScreen:
		r.advance(4 * time.Second) // past the new-harness grace for idle
		r.paint("w")
		if res := r.look("w", src, s, "lower words"); res.Reason == as.ReasonConfirming {
			r.advance(700 * time.Millisecond) // the idle gate's window
		}
	default:
		r.advance(4 * time.Second)
		r.apply("w", as.Report{State: s, Source: src, Harness: "claude-code", Message: "lower words"})
	}
	if g := r.a.Get("w"); g.State != s || !g.Claimed || g.Source != src {
		r.t.Fatalf("setup: %s from %q, want %s from %s", g.State, g.SourceName(), s, src)
	}
}

func arrive(r *rig, src as.Source, s as.State, how arrival, msg string) as.Result {
	switch how {
	case viaDetector:
		return r.a.Detected("w", claude)
	case viaLook:
		r.paint("w")
		return r.a.Apply("w", as.Report{State: s, Source: src, Harness: "claude-code", Message: msg, Observed: r.now()})
	}
	return r.a.Apply("w", as.Report{State: s, Source: src, Message: msg, Hold: how == viaHold})
}

func drain(sub *as.Subscription) []as.Change {
	var out []as.Change
	for {
		select {
		case c := <-sub.C:
			out = append(out, c)
		default:
			return out
		}
	}
}

// For every ordered pair of sources (higher, lower), every state both can
// hold, and every way the higher one's report can arrive: the report that
// says the shown state takes the claim (source, message, kind, evidence
// age), keeps the detector's lifecycle and publishes no state change; and
// the lower one saying the state the higher one holds is refused and
// changes nothing.
func TestAHigherSourceSayingTheShownStateTakesTheClaim(t *testing.T) {
	srcs := as.Sources()
	for hi := 0; hi < len(srcs); hi++ {
		for lo := hi + 1; lo < len(srcs); lo++ {
			H, L := srcs[hi], srcs[lo]
			for _, how := range []arrival{viaApply, viaHold, viaLook, viaDetector} {
				name := fmt.Sprintf("%s>%s/%s", H, L, how)
				t.Run("takes/"+name, func(t *testing.T) {
					can, why := reportable(H, how)
					if why != "" {
						t.Skip(why)
					}
					states := both(can, says[L])
					if len(states) == 0 {
						t.Skipf("%s never says a state %s holds (%v, %v)", H, L, can, says[L])
					}
					for _, s := range states {
						checkTakes(t, H, L, s, how)
					}
				})
				t.Run("refused/"+name, func(t *testing.T) {
					can, why := reportable(L, how)
					if why != "" {
						t.Skip(why)
					}
					states := both(can, says[H])
					if len(states) == 0 {
						t.Skipf("%s never says a state %s holds (%v, %v)", L, H, can, says[H])
					}
					for _, s := range states {
						checkRefused(t, H, L, s, how)
					}
				})
			}
		}
	}
}

// rigFor is a rig on which holder can come to hold s.
func rigFor(t *testing.T, holder as.Source, s as.State) *rig {
	opt := as.Options{StallAfter: 30 * time.Second}
	if holder == as.SourceStall && s == as.Unknown {
		// A screen tier that read nothing: the stall writes unknown.
		opt.Look = func(string, as.LookReason) as.LookResult { return as.LookResult{Screen: true} }
	}
	return newRig(t, opt)
}

func checkTakes(t *testing.T, H, L as.Source, s as.State, how arrival) {
	t.Helper()
	r := rigFor(t, L, s)
	holdClaim(r, L, s)
	r.advance(5 * time.Second)
	r.a.Detected("w", vim) // a miss the takeover must keep
	before := r.a.Get("w")
	sub := r.a.Subscribe(as.SubscribeOptions{Pane: "w", Buffer: 16})
	defer sub.Close()

	const msg = "the higher source's words"
	res := arrive(r, H, s, how, msg)
	after := r.a.Get("w")
	where := fmt.Sprintf("%s %s over %s %s", how, H, L, s)
	if !res.Applied || !res.Changed || res.Reason != "" || res.State != s {
		t.Fatalf("%s: result %+v", where, res)
	}
	wantKind := as.KindNone
	if s == as.NeedsInput {
		wantKind = as.GuessKind(msg)
	}
	switch {
	case after.State != s || !after.Claimed || after.Source != H:
		t.Fatalf("%s: shows %s from %q", where, after.State, after.SourceName())
	case after.Message != msg || after.Kind != wantKind:
		t.Fatalf("%s: message %q kind %q", where, after.Message, after.Kind)
	case !after.Auto || after.Misses != before.Misses:
		t.Fatalf("%s: lifecycle lost: auto=%v misses %d → %d", where, after.Auto, before.Misses, after.Misses)
	case !after.StateAt.Equal(r.now()) || after.EvidenceAge != 0 || before.EvidenceAge == 0:
		t.Fatalf("%s: evidence %v (stamp %v) was %v", where, after.EvidenceAge, after.StateAt.Sub(t0), before.EvidenceAge)
	case after.CompletionSeq != before.CompletionSeq:
		t.Fatalf("%s: completion_seq %d → %d", where, before.CompletionSeq, after.CompletionSeq)
	case after.Loan:
		t.Fatalf("%s: still a loan", where)
	}
	changes := drain(sub)
	if len(changes) != 1 {
		t.Fatalf("%s: %d changes %+v", where, len(changes), changes)
	}
	if c := changes[0]; c.From != s || c.To != s || c.Source != H || c.Message != msg {
		t.Fatalf("%s: change %+v", where, c)
	}
	// The lifecycle still works: the agent leaving clears the pane.
	r.a.Detected("w", shell)
	if g := r.a.Get("w"); g.State != as.None {
		t.Fatalf("%s: the agent left and the pane shows %s", where, g.State)
	}
}

func checkRefused(t *testing.T, H, L as.Source, s as.State, how arrival) {
	t.Helper()
	r := rigFor(t, H, s)
	holdClaim(r, H, s)
	r.advance(5 * time.Second)
	before := r.a.Get("w")
	sub := r.a.Subscribe(as.SubscribeOptions{Pane: "w", Buffer: 16})
	defer sub.Close()

	res := arrive(r, L, s, how, "the lower source's words")
	after := r.a.Get("w")
	where := fmt.Sprintf("%s %s under %s %s", how, L, H, s)
	if how != viaDetector && (res.Applied || res.Reason != as.ReasonOutranked) {
		t.Fatalf("%s: result %+v", where, res)
	}
	if after.State != before.State || after.Source != before.Source || after.Message != before.Message ||
		after.Kind != before.Kind || !after.StateAt.Equal(before.StateAt) || after.Auto != before.Auto ||
		after.CompletionSeq != before.CompletionSeq || after.Version != before.Version {
		t.Fatalf("%s: changed %+v → %+v", where, before, after)
	}
	if changes := drain(sub); len(changes) != 0 {
		t.Fatalf("%s: published %+v", where, changes)
	}
}
