package agentstate_test

import (
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
)

func progress(s as.State) as.Report { return as.Report{State: s, Source: as.SourceOSC, Hold: true} }

// Scenario 39.
func TestAgentHoldCollapsesAFlap(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", progress(as.Working))
	v := r.a.Get("w").Version
	r.advance(50 * time.Millisecond)
	wantResult(t, r.apply("w", progress(as.Idle)), false, as.ReasonHeld)
	r.advance(70 * time.Millisecond)
	r.apply("w", progress(as.Working))
	r.advance(2 * time.Second)
	if got := r.want("w", as.Working, "osc"); got.Version != v {
		t.Fatalf("a flap moved the version %d → %d", v, got.Version)
	}
	if n := r.clock.Pending(); n != 0 {
		t.Fatalf("%d timers left after the flap settled", n)
	}
}

// Scenario 40.
func TestAgentHoldPublishesItselfWithNoOneToCallIt(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", progress(as.Working))
	r.apply("w", progress(as.Idle))
	r.advance(699 * time.Millisecond)
	r.want("w", as.Working, "osc")
	r.advance(time.Millisecond)
	r.want("w", as.Idle, "osc")
	if n := r.clock.Pending(); n != 0 {
		t.Fatalf("%d timers after the hold published", n)
	}
}

func TestAgentHoldPublishesOnALaterSample(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", progress(as.Working))
	r.apply("w", progress(as.Idle))
	r.advance(300 * time.Millisecond)
	wantResult(t, r.apply("w", progress(as.Idle)), false, as.ReasonHeld)
	r.advance(400 * time.Millisecond)
	// The timer has fired by now; a sample after that is the same state.
	r.want("w", as.Idle, "osc")
}

// Scenario 41.
func TestAgentHoldNeverDelaysAStateThatWantsAHuman(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", progress(as.Idle))
	wantResult(t, r.apply("w", progress(as.NeedsInput)), true, "")
	r.want("w", as.NeedsInput, "osc")
	r.apply("x", progress(as.Idle))
	wantResult(t, r.apply("x", progress(as.Errored)), true, "")
	// Equal loudness is immediate too: idle → done.
	r.apply("y", progress(as.Idle))
	wantResult(t, r.apply("y", progress(as.Done)), true, "")
}

// Scenario 43.
func TestAgentProgressOutranksDetectorAndYieldsToReport(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", claude)
	wantResult(t, r.apply("w", progress(as.NeedsInput)), true, "")
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	wantResult(t, r.apply("w", progress(as.Errored)), false, as.ReasonOutranked)
}

func TestAHeldStateNeverPublishesOverAPromptTheScreenFound(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.a.Detected("w", claude)
	// OSC working over the detector's working takes the claim (a higher
	// source saying the shown state): the prompt must then wait out the
	// blocker grace over it, as over any fresh osc claim.
	r.apply("w", progress(as.Working))
	r.want("w", as.Working, "osc")
	r.advance(3 * time.Second)
	r.apply("w", progress(as.Idle)) // held
	r.advance(100 * time.Millisecond)
	r.paint("w")
	r.look("w", as.SourceScreen, as.NeedsInput, "Do you want to proceed?")
	r.advance(time.Second)
	r.want("w", as.NeedsInput, "screen")
}

// Scenario 46, with a look.
func TestStallTimerLooksAtTheScreenBeforeCallingAPaneIdle(t *testing.T) {
	var r *rig
	looks := 0
	r = newRig(t, as.Options{Look: func(pane string, why as.LookReason) as.LookResult {
		looks++
		if why != as.LookStall {
			t.Errorf("look reason %v", why)
		}
		r.a.Output(pane, r.now())
		res := r.a.Apply(pane, as.Report{State: as.NeedsInput, Source: as.SourceScreen, Observed: r.now(), Message: "Do you want to proceed?"})
		return as.LookResult{Screen: true, Answered: res.Applied}
	}})
	r.a.Detected("w", claude)
	r.advance(31 * time.Second)
	r.want("w", as.NeedsInput, "screen")
	if looks != 1 {
		t.Fatalf("%d looks", looks)
	}
}

// Scenario 46, without a look; and the deadline is exact, not a tick.
func TestStallWithoutAScreenTierGoesIdleAtTheExactDeadline(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: 30 * time.Second})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.advance(29*time.Second + 999*time.Millisecond)
	r.want("w", as.Working, "report")
	r.advance(time.Millisecond)
	r.want("w", as.Idle, "stall") // scenario 49: it demotes a report too
}

// Scenario 47.
func TestStallTimerStillDemotesAPaneWithNothingOnItsScreen(t *testing.T) {
	r := newRig(t, as.Options{Look: func(string, as.LookReason) as.LookResult { return as.LookResult{Screen: true} }})
	r.a.Detected("w", claude)
	r.advance(31 * time.Second)
	r.want("w", as.Unknown, "stall")
}

// Scenario 48.
func TestStallHeuristicLeavesWhatItMustNotTouch(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: 30 * time.Second})
	r.apply("busy", as.Report{State: as.Working, Source: as.SourceReport})
	for _, s := range []as.State{as.NeedsInput, as.Done, as.Errored} {
		r.apply(s.String(), as.Report{State: s, Source: as.SourceReport})
	}
	for i := 0; i < 8; i++ {
		r.advance(10 * time.Second)
		r.paint("busy")
	}
	r.want("busy", as.Working, "report")
	for _, s := range []as.State{as.NeedsInput, as.Done, as.Errored} {
		r.want(s.String(), s, "report")
	}
	off := newRig(t, as.Options{StallAfter: -1})
	off.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	off.advance(time.Hour)
	off.want("w", as.Working, "report")
	if off.clock.Pending() != 0 {
		t.Fatal("a disabled stall armed a timer")
	}
}

// Scenario 50, and the 1,000 idle panes.
func TestIdlePanesArmNoTimers(t *testing.T) {
	r := newRig(t, as.Options{})
	for i := 0; i < 1000; i++ {
		id := string(rune('a'+i%26)) + string(rune('0'+i/26%10)) + string(rune('0'+i/260))
		r.apply(id, as.Report{State: as.Idle, Source: as.SourceReport})
		r.paint(id)
	}
	r.advance(800 * time.Millisecond)
	if n := r.clock.Pending(); n != 0 {
		t.Fatalf("%d timers held by idle panes", n)
	}
}

func TestOneTimerServesManyPanes(t *testing.T) {
	r := newRig(t, as.Options{})
	for _, id := range []string{"a", "b", "c"} {
		r.apply(id, as.Report{State: as.Working, Source: as.SourceReport})
		r.apply(id+"o", progress(as.Working))
		r.apply(id+"o", progress(as.Idle))
	}
	if n := r.clock.Pending(); n != 1 {
		t.Fatalf("%d timers, want the arbiter's one", n)
	}
}

func TestIdleConfirmationGateWithLooks(t *testing.T) {
	var r *rig
	idle := true
	r = newRig(t, as.Options{Look: func(pane string, why as.LookReason) as.LookResult {
		if idle {
			r.a.Apply(pane, as.Report{State: as.Idle, Source: as.SourceScreen, Observed: r.now(), Harness: "claude-code"})
		}
		return as.LookResult{Screen: true, Answered: idle}
	}})
	r.a.Detected("w", claude)
	r.advance(4 * time.Second) // past the new-harness grace
	r.paint("w")
	wantResult(t, r.look("w", as.SourceScreen, as.Idle, ""), false, as.ReasonConfirming)
	r.advance(250 * time.Millisecond)
	r.want("w", as.Working, "detect")
	r.advance(60 * time.Millisecond) // third re-look at +300 ms
	r.want("w", as.Idle, "screen")
}

func TestIdleConfirmationIsCancelledByAnyOtherReading(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", claude)
	r.advance(4 * time.Second)
	r.paint("w")
	r.look("w", as.SourceScreen, as.Idle, "")
	r.advance(200 * time.Millisecond)
	r.look("w", as.SourceScreen, as.Working, "thinking")
	r.advance(time.Second)
	r.want("w", as.Working, "screen")
}

func TestIdleConfirmationWithoutLooksEndsByTheWindow(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", claude)
	r.advance(4 * time.Second)
	r.look("w", as.SourceOSC, as.Idle, "✳ Claude Code")
	r.advance(699 * time.Millisecond)
	r.want("w", as.Working, "detect")
	r.advance(time.Millisecond)
	r.want("w", as.Idle, "osc")
}

func TestIdleReadingsDoNotCountJustAfterAHarnessAppears(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", claude)
	r.advance(time.Second)
	wantResult(t, r.look("w", as.SourceScreen, as.Idle, ""), false, as.ReasonConfirming)
	r.advance(2 * time.Second)
	r.want("w", as.Working, "detect")
}

func TestAnIdleLookOverARestingPaneAppliesAtOnce(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Done, Source: as.SourceOSC})
	wantResult(t, r.look("w", as.SourceOSC, as.Idle, ""), true, "")
}

// An agent already at rest when its harness is first seen (its turn
// ended before the detector's first look) is looked at again when the
// harness grace ends, although it prints nothing more, and reads idle
// then rather than working until the stall.
func TestAnIdleReadingRefusedByTheGraceIsLookedAtAgain(t *testing.T) {
	var looks []as.LookReason
	var r *rig
	r = newRig(t, as.Options{Look: func(id string, why as.LookReason) as.LookResult {
		looks = append(looks, why)
		r.a.Apply(id, as.Report{State: as.Idle, Source: as.SourceOSC, Harness: "claude-code", Message: "✳ pretend-agent", Observed: r.clock.Now()})
		return as.LookResult{Screen: true, Answered: true}
	}})
	r.a.Detected("w", claude)
	r.advance(200 * time.Millisecond)
	wantResult(t, r.look("w", as.SourceOSC, as.Idle, "✳ pretend-agent"), false, as.ReasonConfirming)
	r.advance(2799 * time.Millisecond)
	if len(looks) != 0 {
		t.Fatalf("looked during the grace: %v", looks)
	}
	r.want("w", as.Working, "detect")
	r.advance(time.Millisecond)
	if len(looks) == 0 || looks[0] != as.LookConfirmIdle {
		t.Fatalf("no look when the grace ended: %v", looks)
	}
	r.advance(time.Second) // the confirming looks
	r.want("w", as.Idle, "osc")
}

func TestLookRepeatingItsClaimWritesNothing(t *testing.T) {
	r := newRig(t, as.Options{})
	r.look("w", as.SourceOSC, as.NeedsInput, "Codex says an action is required")
	before := r.a.Get("w")
	r.advance(5 * time.Second)
	res := r.look("w", as.SourceOSC, as.NeedsInput, "Codex says an action is required")
	after := r.a.Get("w")
	if res.Changed || after.Version != before.Version || !after.StateAt.Equal(before.StateAt) {
		t.Fatal("a repeating look restamped the pane")
	}
	// Scenario 60: it does not reset the evidence age either.
	if after.EvidenceAge != 5*time.Second {
		t.Fatalf("evidence age %v", after.EvidenceAge)
	}
	// A hook repeating itself is not a look: it restamps.
	r.apply("h", as.Report{State: as.Working, Source: as.SourceReport})
	v := r.a.Get("h").Version
	r.advance(time.Second)
	r.apply("h", as.Report{State: as.Working, Source: as.SourceReport})
	if r.a.Get("h").Version == v {
		t.Fatal("a repeated report must restamp")
	}
}

// Scenario 60.
func TestEvidenceAge(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	if g := r.a.Get("never"); g.HasEvidence {
		t.Fatal("a pane never set must have no evidence age")
	}
	r.a.Detected("d", claude)
	r.apply("rep", as.Report{State: as.Working, Source: as.SourceReport})
	for i := 0; i < 5; i++ {
		r.advance(time.Second)
		r.paint("d")
		r.paint("rep")
	}
	if g := r.a.Get("d"); !g.HasEvidence || g.EvidenceAge != 0 {
		t.Fatalf("a detected pane that keeps printing reads %v", g.EvidenceAge)
	}
	if g := r.a.Get("rep"); g.EvidenceAge != 5*time.Second {
		t.Fatalf("a report ages from its stamp: %v", g.EvidenceAge)
	}
}

func TestEventClaimGoesStaleOnTheNextWrite(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Apply("w", as.Report{State: as.NeedsInput, Source: as.SourceOSC, Event: true, Observed: r.now(), Message: "Claude needs your permission"})
	r.advance(time.Second)
	// Before the pane writes, a screen look is outranked...
	wantResult(t, r.look("w", as.SourceScreen, as.Working, ""), false, as.ReasonOutranked)
	r.paint("w")
	// ...after it, any look ranked at least screen replaces it.
	wantResult(t, r.look("w", as.SourceScreen, as.Working, ""), true, "")
	// The detector and the stall cannot use this path.
	r.a.Apply("x", as.Report{State: as.NeedsInput, Source: as.SourceOSC, Event: true, Observed: r.now()})
	r.advance(time.Second)
	r.paint("x")
	wantResult(t, r.a.Apply("x", as.Report{State: as.Idle, Source: as.SourceStall, Observed: r.now()}), false, as.ReasonOutranked)
}

func TestCompletionSeq(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.advance(2 * time.Second)
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceReport})
	if r.a.Get("w").CompletionSeq != 0 {
		t.Fatal("a 2 s turn is not a finished turn")
	}
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.advance(3 * time.Second)
	r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport}) // mid-turn
	r.advance(3 * time.Second)
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceReport})
	if g := r.a.Get("w"); g.CompletionSeq != 1 || !g.FinishedUnread {
		t.Fatalf("seq %d unread %v", g.CompletionSeq, g.FinishedUnread)
	}
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.apply("w", as.Report{State: as.Done, Source: as.SourceReport}) // explicit done counts however short
	if g := r.a.Get("w"); g.CompletionSeq != 2 || g.Glyph() != "■" {
		t.Fatalf("seq %d glyph %s", g.CompletionSeq, g.Glyph())
	}
	r.a.MarkSeen("w")
	if g := r.a.Get("w"); g.FinishedUnread || g.Glyph() != "○" {
		t.Fatal("a seen done must draw ○")
	}
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.apply("w", as.Report{State: as.Errored, Source: as.SourceReport})
	if r.a.Get("w").CompletionSeq != 2 {
		t.Fatal("errored is not a finished turn")
	}
}

func TestAStallEndedTurnIsMeasuredToTheLastOutput(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: 30 * time.Second})
	r.apply("short", as.Report{State: as.Working, Source: as.SourceReport})
	r.apply("long", as.Report{State: as.Working, Source: as.SourceReport})
	r.advance(3 * time.Second)
	r.paint("short")
	r.advance(4 * time.Second)
	r.paint("long")
	r.advance(40 * time.Second)
	if g := r.a.Get("short"); g.State != as.Idle || g.CompletionSeq != 0 {
		t.Fatalf("short: %s seq %d", g.State, g.CompletionSeq)
	}
	if g := r.a.Get("long"); g.State != as.Idle || g.CompletionSeq != 1 {
		t.Fatalf("long: %s seq %d", g.State, g.CompletionSeq)
	}
}
