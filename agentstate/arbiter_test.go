package agentstate_test

import (
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
)

// Scenario 1.
func TestAnUnclaimedWindowIsOpenToAnySource(t *testing.T) {
	r := newRig(t, as.Options{})
	wantResult(t, r.apply("w", as.Report{State: as.Idle, Source: as.SourceStall}), true, "")
	r.want("w", as.Idle, "stall")
}

// Scenario 2.
func TestLowerSourceCannotOverwriteHigher(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	v := r.a.Get("w").Version
	for _, src := range []as.Source{as.SourceScreen, as.SourceOSC, as.SourceStall} {
		res := r.apply("w", as.Report{State: as.Idle, Source: src})
		wantResult(t, res, false, as.ReasonOutranked)
		if res.State != as.Working {
			t.Fatalf("%s: effective state %s", src, res.State)
		}
	}
	if got := r.want("w", as.Working, "report"); got.Version != v {
		t.Fatalf("a refusal bumped the version: %d → %d", v, got.Version)
	}
}

// Scenario 3.
func TestHigherSourceOverwritesLower(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", as.Sighting{Agent: true, Harness: "claude-code", Identity: as.IdentityManifest, Foreground: as.ForegroundProgram})
	r.want("w", as.Working, "detect")
	wantResult(t, r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceOSC}), true, "")
	r.want("w", as.NeedsInput, "osc")
	wantResult(t, r.apply("w", as.Report{State: as.Done, Source: as.SourceReport}), true, "")
	r.want("w", as.Done, "report")
}

// Scenario 4, and report vs report.
func TestSameRankAlwaysWrites(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceOSC})
	wantResult(t, r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceOSC, Message: "Action Required"}), true, "")
	r.want("w", as.NeedsInput, "osc")
	r.apply("h", as.Report{State: as.Working, Source: as.SourceReport})
	wantResult(t, r.apply("h", as.Report{State: as.NeedsInput, Source: as.SourceReport}), true, "")
}

// Scenario 6.
func TestTranscriptOutranksTheWeakerTiers(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceTranscript})
	for _, src := range []as.Source{as.SourceOSC, as.SourceScreen, as.SourceStall} {
		wantResult(t, r.apply("w", as.Report{State: as.Idle, Source: src}), false, as.ReasonOutranked)
	}
	wantResult(t, r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport}), true, "")
}

// Scenario 7.
func TestYieldingReopensThePaneToWeakerTiers(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceTranscript})
	if !r.a.Yield("w", as.SourceTranscript) {
		t.Fatal("the owner could not yield")
	}
	got := r.a.Get("w")
	if got.State != as.Working || got.Claimed {
		t.Fatalf("after yield: %s claimed=%v", got.State, got.Claimed)
	}
	wantResult(t, r.apply("w", as.Report{State: as.Idle, Source: as.SourceStall}), true, "")
}

// Scenario 8.
func TestYieldingKeepsTheDetectorsLifecycleClaim(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", as.Sighting{Agent: true, Harness: "claude-code", Identity: as.IdentityManifest, Foreground: as.ForegroundProgram})
	r.apply("w", as.Report{State: as.Done, Source: as.SourceTranscript})
	r.a.Yield("w", as.SourceTranscript)
	got := r.want("w", as.Done, "detect")
	if !got.Auto || got.Harness != "claude-code" {
		t.Fatalf("auto=%v harness=%q", got.Auto, got.Harness)
	}
	r.a.Detected("w", as.Sighting{Foreground: as.ForegroundShell})
	r.want("w", as.None, "")
}

// Scenario 9.
func TestYieldOnlyDropsYourOwnClaim(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceTranscript})
	if r.a.Yield("w", as.SourceScreen) {
		t.Fatal("screen yielded the transcript's claim")
	}
	r.want("w", as.Working, "transcript")
}

// Scenario 10.
func TestSetAgentStateWithoutSourceIsAReport(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Message: "running the test suite"})
	r.want("w", as.Working, "report")
}

// Scenario 11.
func TestAgentClaimDroppedWithTheWindow(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceOSC})
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceOSC, Hold: true})
	r.a.Remove("w")
	if got := r.a.Get("w"); got.State != as.None || got.Claimed {
		t.Fatalf("a removed pane still reads %s", got.State)
	}
	r.advance(time.Second)
	if got := r.a.Get("w"); got.State != as.None {
		t.Fatalf("the hold of a removed pane published %s", got.State)
	}
}

// Scenario 12.
func TestIfStateGuard(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Done, Source: as.SourceReport})
	res := r.apply("w", as.Report{State: as.Idle, Source: as.SourceReport, IfState: as.SetOf(as.NeedsInput)})
	wantResult(t, res, false, as.ReasonIfState)
	r.want("w", as.Done, "report")
	wantResult(t, r.apply("w", as.Report{State: as.Idle, Source: as.SourceReport, IfState: as.SetOf(as.NeedsInput, as.Done)}), true, "")
}

// Scenario 13.
func TestForeignSessionMidTurn(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, SessionID: "A", HarnessPID: 100, Harness: "claude-code"})
	wantResult(t, r.apply("w", as.Report{State: as.Done, Source: as.SourceReport, SessionID: "B", HarnessPID: 200}), false, as.ReasonForeignSession)
	wantResult(t, r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, SessionID: "B", HarnessPID: 100}), true, "")
	if got := r.a.Get("w"); got.SessionID != "B" {
		t.Fatalf("session id %q, want B", got.SessionID)
	}
	wantResult(t, r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, SessionID: "B", Harness: "codex"}), false, as.ReasonForeignHarness)
	r.apply("w", as.Report{State: as.Done, Source: as.SourceReport, SessionID: "B"})
	wantResult(t, r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, SessionID: "C", HarnessPID: 300}), true, "")
}

// Scenario 14.
func TestAVisibleBlockerBeatsAClaimThatWentQuiet(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "claude-code"})
	r.advance(4 * time.Second)
	r.paint("w")
	res := r.look("w", as.SourceScreen, as.NeedsInput, "approval: Do you want to proceed?")
	wantResult(t, res, true, "")
	got := r.want("w", as.NeedsInput, "screen")
	if !got.Loan || got.Prior.Source != as.SourceReport || got.Prior.State != as.Working || !got.Prior.Claimed {
		t.Fatalf("loan %+v prior %+v", got.Loan, got.Prior)
	}
	if got.BlockedBy() != as.KindApproval {
		t.Fatalf("blocked_by %q", got.BlockedBy())
	}
}

// Scenario 15.
func TestAFreshReportIsNotSecondGuessedByARule(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.advance(time.Second)
	r.paint("w")
	wantResult(t, r.look("w", as.SourceScreen, as.NeedsInput, "Do you want to proceed?"), false, as.ReasonOutranked)
	r.want("w", as.Working, "report")
	r.advance(1500 * time.Millisecond)
	wantResult(t, r.look("w", as.SourceScreen, as.NeedsInput, "Do you want to proceed?"), true, "")
	r.want("w", as.NeedsInput, "screen")
}

// Scenario 16.
func TestAClaimTheScreenHasNotPaintedOverIsNotStale(t *testing.T) {
	r := newRig(t, as.Options{})
	painted := r.now()
	r.advance(time.Second)
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.advance(5 * time.Second)
	res := r.a.Apply("w", as.Report{State: as.NeedsInput, Source: as.SourceScreen, Observed: painted})
	wantResult(t, res, false, as.ReasonOutranked)
}

// Scenario 17.
func TestOnlyABlockingRuleMayOverride(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceReport})
	r.advance(10 * time.Second)
	r.paint("w")
	wantResult(t, r.look("w", as.SourceScreen, as.Working, "thinking"), false, as.ReasonOutranked)
	r.want("w", as.Idle, "report")
}

// Scenario 18.
func TestTheOverrideIsHandedBackWhenThePromptLeaves(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: 30 * time.Second})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "claude-code"})
	r.advance(3 * time.Second)
	r.paint("w")
	r.look("w", as.SourceScreen, as.NeedsInput, "Do you want to proceed?")
	r.advance(500 * time.Millisecond)
	r.paint("w")
	res := r.a.NoMatch("w", as.SourceScreen)
	if !res.Changed {
		t.Fatal("the loan was not given back")
	}
	got := r.want("w", as.Working, "report")
	if got.Loan || got.Message != "" || got.Harness != "claude-code" {
		t.Fatalf("after give-back: %+v", got)
	}
	// The restored claim is fully normal: the stall deadline demotes it.
	r.advance(31 * time.Second)
	r.want("w", as.Idle, "stall")
}

// Scenario 19.
func TestARematchKeepsTheLoanAndItsPrior(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.advance(3 * time.Second)
	r.paint("w")
	r.look("w", as.SourceScreen, as.NeedsInput, "Do you want to proceed?")
	r.advance(300 * time.Millisecond)
	r.paint("w")
	r.look("w", as.SourceScreen, as.NeedsInput, "Do you want to make this edit?")
	got := r.want("w", as.NeedsInput, "screen")
	if got.Prior.Source != as.SourceReport || got.Prior.State != as.Working {
		t.Fatalf("prior lost on re-match: %+v", got.Prior)
	}
	r.a.NoMatch("w", as.SourceScreen)
	r.want("w", as.Working, "report")
}

// Scenario 20.
func TestARestClaimGivesWayToAPromptAtOnce(t *testing.T) {
	for _, rest := range []as.State{as.Idle, as.Unknown} {
		r := newRig(t, as.Options{})
		r.apply("w", as.Report{State: rest, Source: as.SourceOSC})
		r.advance(400 * time.Millisecond)
		r.paint("w")
		wantResult(t, r.look("w", as.SourceScreen, as.NeedsInput, "Do you want to proceed?"), true, "")
		r.want("w", as.NeedsInput, "screen")
	}
}

// Scenario 21.
func TestACallersScreenReportHasLookedAtNothing(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.advance(time.Hour)
	r.paint("w")
	wantResult(t, r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceScreen}), false, as.ReasonOutranked)
}

// Every screen needs_input is a loan, even one that outranked its claim.
func TestAScreenClaimOverTheDetectorIsALoanToo(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", as.Sighting{Agent: true, Harness: "claude-code", Identity: as.IdentityManifest, Foreground: as.ForegroundProgram})
	r.paint("w")
	r.look("w", as.SourceScreen, as.NeedsInput, "Do you want to proceed?")
	r.a.NoMatch("w", as.SourceScreen)
	got := r.want("w", as.Working, "detect")
	if !got.Auto {
		t.Fatal("the lifecycle claim did not come back")
	}
	// A look that found nothing on a pane holding no loan writes nothing.
	v := got.Version
	if res := r.a.NoMatch("w", as.SourceScreen); res.Changed || r.a.Get("w").Version != v {
		t.Fatal("a no-match look without a loan wrote something")
	}
}

func TestTheScreenYieldsAnIdleItHolds(t *testing.T) {
	r := newRig(t, as.Options{})
	r.look("w", as.SourceScreen, as.Idle, "")
	r.want("w", as.Idle, "screen")
	r.a.NoMatch("w", as.SourceScreen)
	if got := r.a.Get("w"); got.State != as.Idle || got.Claimed {
		t.Fatalf("screen idle not yielded: %+v", got)
	}
}

// Scenario 22.
func TestAReportThatNamesNoHarnessLeavesTheAttributionAlone(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", as.Sighting{Agent: true, Harness: "claude-code", Identity: as.IdentityManifest, Foreground: as.ForegroundProgram})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	got := r.want("w", as.Working, "report")
	if got.Harness != "claude-code" || got.Identity != as.IdentityManifest {
		t.Fatalf("harness %q identity %q", got.Harness, got.Identity)
	}
}

// Scenario 23.
func TestAReportOfNoneClearsTheAttribution(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "codex"})
	r.apply("w", as.Report{State: as.None, Source: as.SourceReport})
	got := r.a.Get("w")
	if got.Harness != "" || got.Identity != as.IdentityNone || got.State != as.None {
		t.Fatalf("%+v", got)
	}
}

// Scenario 24.
func TestIdentityTiers(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("a", as.Report{State: as.Working, Source: as.SourceReport, Harness: "codex"})
	if g := r.a.Get("a"); g.Identity != as.IdentityReport || g.Confidence != as.ConfidenceCertain {
		t.Errorf("report: %s/%s", g.Identity, g.Confidence)
	}
	r.a.Detected("b", as.Sighting{Agent: true, Harness: "claude-code", Identity: as.IdentityManifest, Foreground: as.ForegroundProgram})
	if g := r.a.Get("b"); g.Identity != as.IdentityManifest || g.Confidence != as.ConfidenceStrong {
		t.Errorf("manifest: %s/%s", g.Identity, g.Confidence)
	}
	r.a.Detected("c", as.Sighting{Agent: true, Identity: as.IdentityList, Foreground: as.ForegroundProgram})
	if g := r.a.Get("c"); g.Identity != as.IdentityList || g.Confidence != as.ConfidenceStrong || g.Harness != "" {
		t.Errorf("list: %s/%s %q", g.Identity, g.Confidence, g.Harness)
	}
	if g := r.a.Get("d"); g.Identity != as.IdentityNone || g.Confidence != as.ConfidenceNone {
		t.Errorf("nothing: %s/%s", g.Identity, g.Confidence)
	}
}

func TestKindIsGuessedAndOnlyNeedsInputCarriesIt(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport, Message: "waiting for approval to push"})
	if g := r.a.Get("w"); g.BlockedBy() != as.KindApproval {
		t.Fatalf("blocked_by %q", g.BlockedBy())
	}
	r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport, Message: "which branch?"})
	if g := r.a.Get("w"); g.BlockedBy() != as.KindQuestion {
		t.Fatalf("blocked_by %q", g.BlockedBy())
	}
	r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport, Message: "which branch?", Kind: as.KindApproval})
	if g := r.a.Get("w"); g.BlockedBy() != as.KindApproval {
		t.Fatal("an explicit kind must win over the guess")
	}
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Message: "approve the plan"})
	if g := r.a.Get("w"); g.BlockedBy() != as.KindNone || g.Kind != as.KindNone {
		t.Fatal("working carries no kind")
	}
}

func TestMessagesAreCleanedForDisplay(t *testing.T) {
	r := newRig(t, as.Options{})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Message: "run\x1b[2J tests\x07\nnow"})
	if g := r.a.Get("w"); g.Message != "run[2J tests now" {
		t.Fatalf("message %q", g.Message)
	}
}

// A prompt refused only for the grace is looked at again when the grace
// ends, because a silent prompt brings no further output to trigger a look.
func TestARefusedPromptIsLookedAtAgainWhenTheGraceEnds(t *testing.T) {
	var r *rig
	prompt := true
	r = newRig(t, as.Options{Look: func(pane string, why as.LookReason) as.LookResult {
		if why != as.LookBlocker {
			return as.LookResult{Screen: true}
		}
		if prompt {
			r.a.Apply(pane, as.Report{State: as.NeedsInput, Source: as.SourceScreen, Observed: r.a.Get(pane).StateAt.Add(time.Millisecond), Message: "Do you want to proceed?"})
		}
		return as.LookResult{Screen: true, Answered: prompt}
	}})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "claude-code"})
	r.advance(100 * time.Millisecond)
	r.paint("w")
	wantResult(t, r.look("w", as.SourceScreen, as.NeedsInput, "Do you want to proceed?"), false, as.ReasonOutranked)
	r.advance(1899 * time.Millisecond)
	r.want("w", as.Working, "report")
	r.advance(time.Millisecond) // 2 s after the claim
	r.want("w", as.NeedsInput, "screen")
}
