package agentstate_test

import (
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
)

// A loan is given back as it was: the hook's words come back with its
// working, not an empty message.
func TestAGiveBackRestoresTheMessage(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "claude-code", Message: "tidying the build directory"})
	r.advance(3 * time.Second) // past the 2 s grace
	r.paint("w")
	wantResult(t, r.look("w", as.SourceScreen, as.NeedsInput, "approval: Do you want to proceed?"), true, "")
	got := r.want("w", as.NeedsInput, "screen")
	if got.Message != "approval: Do you want to proceed?" || got.BlockedBy() != as.KindApproval {
		t.Fatalf("the loan shows %q (%s)", got.Message, got.BlockedBy())
	}
	if p := got.Prior; p.Message != "tidying the build directory" || p.Kind != as.KindNone {
		t.Fatalf("prior %+v", p)
	}
	r.advance(500 * time.Millisecond)
	r.paint("w")
	res := r.a.NoMatch("w", as.SourceScreen)
	if !res.Changed {
		t.Fatal("the loan was not given back")
	}
	got = r.want("w", as.Working, "report")
	if got.Message != "tidying the build directory" || got.Kind != as.KindNone || got.Loan || got.Harness != "claude-code" {
		t.Fatalf("after give-back: %+v", got)
	}
	if !got.StateAt.Equal(r.now()) {
		t.Fatalf("the give-back was not stamped now: %v", got.StateAt.Sub(t0))
	}
}

// A rule that re-matches while the loan stands keeps the original prior,
// words included: what comes back is the claim the first match displaced.
func TestARematchGivesBackTheOriginalMessage(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "claude-code", Message: "tidying the build directory"})
	r.advance(3 * time.Second)
	r.paint("w")
	r.look("w", as.SourceScreen, as.NeedsInput, "approval: Do you want to proceed?")
	r.advance(300 * time.Millisecond)
	r.paint("w")
	r.look("w", as.SourceScreen, as.NeedsInput, "approval: Do you want to make this edit?")
	got := r.want("w", as.NeedsInput, "screen")
	if got.Message != "approval: Do you want to make this edit?" || got.Prior.Message != "tidying the build directory" {
		t.Fatalf("re-match: message %q prior %+v", got.Message, got.Prior)
	}
	r.advance(300 * time.Millisecond)
	r.paint("w")
	r.a.NoMatch("w", as.SourceScreen)
	if got := r.want("w", as.Working, "report"); got.Message != "tidying the build directory" {
		t.Fatalf("message %q after give-back", got.Message)
	}
}

// Which needs_input priors can exist. A screen prompt never displaces a
// needs_input claim ranked above it (the blocker exception needs the pane
// to show another state), so a hook's own needs_input is never loaned
// directly. A loan's prior is needs_input only when the screen outranks
// or ignores the claim: the detector holding a needs_input a yielded
// report left behind, an unclaimed pane, or a stale notification claim.
// Each comes back with its message, its kind and the explicit kind it was
// written with, so a repeat of the same report guesses as it did before.
func TestAGiveBackRestoresANeedsInputPriorWithItsKind(t *testing.T) {
	const asked = "which branch should I push?" // the guess says question
	loan := func(r *rig) as.Snapshot {
		r.t.Helper()
		r.advance(time.Second)
		r.paint("w")
		wantResult(r.t, r.look("w", as.SourceScreen, as.NeedsInput, "approval: Do you want to proceed?"), true, "")
		got := r.want("w", as.NeedsInput, "screen")
		if !got.Loan {
			r.t.Fatal("no loan")
		}
		r.advance(time.Second)
		r.paint("w")
		r.a.NoMatch("w", as.SourceScreen)
		return got
	}

	t.Run("the detector's claim after a hook yielded", func(t *testing.T) {
		r := newRig(t, as.Options{StallAfter: -1})
		r.a.Detected("w", claude)
		r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport, Message: asked, Kind: as.KindApproval})
		r.a.Yield("w", as.SourceReport)
		r.want("w", as.NeedsInput, "detect")
		if l := loan(r); l.Prior.Message != asked || l.Prior.Kind != as.KindApproval || l.Prior.Source != as.SourceDetect {
			t.Fatalf("prior %+v", l.Prior)
		}
		got := r.want("w", as.NeedsInput, "detect")
		if got.Message != asked || got.BlockedBy() != as.KindApproval || !got.Auto {
			t.Fatalf("after give-back: %q %s auto=%v", got.Message, got.BlockedBy(), got.Auto)
		}
		// The explicit kind came back too: the same words without a kind
		// are guessed afresh, not read from the restored verdict.
		r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport, Message: asked})
		if got := r.a.Get("w"); got.BlockedBy() != as.KindQuestion {
			t.Fatalf("a repeat without a kind reads %s", got.BlockedBy())
		}
	})

	t.Run("an unclaimed pane", func(t *testing.T) {
		r := newRig(t, as.Options{StallAfter: -1})
		r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport, Message: asked, Kind: as.KindApproval})
		r.a.Yield("w", as.SourceReport) // no lifecycle: the pane is unclaimed
		if l := loan(r); l.Prior.Claimed || l.Prior.Message != asked {
			t.Fatalf("prior %+v", l.Prior)
		}
		got := r.a.Get("w")
		if got.Claimed || got.State != as.NeedsInput || got.Message != asked || got.BlockedBy() != as.KindApproval {
			t.Fatalf("after give-back: %+v", got)
		}
	})

	t.Run("a stale notification", func(t *testing.T) {
		r := newRig(t, as.Options{StallAfter: -1})
		const note = "Claude is waiting for your input"
		r.a.Apply("w", as.Report{State: as.NeedsInput, Source: as.SourceOSC, Harness: "claude-code",
			Message: note, Kind: as.KindApproval, Event: true, Observed: r.now()})
		if l := loan(r); l.Prior.Source != as.SourceOSC || l.Prior.Message != note || l.Prior.Kind != as.KindApproval {
			t.Fatalf("prior %+v", l.Prior)
		}
		got := r.want("w", as.NeedsInput, "osc")
		if got.Message != note || got.BlockedBy() != as.KindApproval {
			t.Fatalf("after give-back: %q %s", got.Message, got.BlockedBy())
		}
		// It comes back as a notification claim: stale once the pane
		// writes again, so it cannot pin needs_input against later looks.
		r.advance(100 * time.Millisecond)
		wantResult(t, r.look("w", as.SourceScreen, as.Idle, ""), false, as.ReasonOutranked)
		r.paint("w")
		wantResult(t, r.look("w", as.SourceScreen, as.Idle, ""), true, "")
		r.want("w", as.Idle, "screen")
	})
}

// The transcript cannot see prompts: its records land at message
// boundaries, and the one a permission dialog follows is a pending tool
// call, which reads working. So a visible prompt takes a transcript claim
// at once, with no grace, even when the record was read after the dialog
// was painted; and while the prompt stands, what the transcript says next
// waits behind the loan and is what comes back when the prompt leaves.
func TestAPromptTakesATranscriptClaimAtOnceAndKeepsIt(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceTranscript, Harness: "claude-code"})
	r.advance(50 * time.Millisecond)
	painted := r.now()
	r.paint("w")
	r.advance(100 * time.Millisecond)
	// The tool_use record is read after the paint: a fresh claim, stamped
	// after what the screen shows.
	r.apply("w", as.Report{State: as.Working, Source: as.SourceTranscript, Harness: "claude-code"})
	r.advance(250 * time.Millisecond)
	res := r.a.Apply("w", as.Report{State: as.NeedsInput, Source: as.SourceScreen, Harness: "claude-code",
		Message: "approval: Do you want to proceed?", Observed: painted})
	wantResult(t, res, true, "")
	got := r.want("w", as.NeedsInput, "screen")
	if !got.Loan || got.Prior.Source != as.SourceTranscript || got.Prior.State != as.Working {
		t.Fatalf("loan %v prior %+v", got.Loan, got.Prior)
	}

	// The transcript reads again while the dialog stands: the pane keeps
	// showing the prompt.
	v := got.Version
	wantResult(t, r.apply("w", as.Report{State: as.Working, Source: as.SourceTranscript, Harness: "claude-code"}), false, as.ReasonBehindPrompt)
	if got := r.want("w", as.NeedsInput, "screen"); got.Version != v || got.Prior.State != as.Working {
		t.Fatalf("a transcript read moved the prompt: %+v", got)
	}
	// The person answers; the turn ends before the next look; the prompt
	// goes and the transcript's last word comes back.
	wantResult(t, r.apply("w", as.Report{State: as.Done, Source: as.SourceTranscript, Harness: "claude-code"}), false, as.ReasonBehindPrompt)
	r.advance(100 * time.Millisecond)
	r.paint("w")
	r.a.NoMatch("w", as.SourceScreen)
	if got := r.want("w", as.Done, "transcript"); got.Loan || got.CompletionSeq != 1 {
		t.Fatalf("after the prompt left: %+v", got)
	}
}

// A hook keeps its rank and its grace: a fresh hook claim is not taken by
// a prompt on screen, a hook report made while a loan stands takes the
// pane (it speaks about now), and a transcript report does not.
func TestAHookKeepsItsGraceOverAPromptTheTranscriptDoesNot(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "claude-code"})
	r.advance(500 * time.Millisecond)
	r.paint("w")
	wantResult(t, r.look("w", as.SourceScreen, as.NeedsInput, "approval: Do you want to proceed?"), false, as.ReasonOutranked)
	r.want("w", as.Working, "report")
	r.advance(2 * time.Second)
	r.paint("w")
	wantResult(t, r.look("w", as.SourceScreen, as.NeedsInput, "approval: Do you want to proceed?"), true, "")
	r.want("w", as.NeedsInput, "screen")
	wantResult(t, r.apply("w", as.Report{State: as.Working, Source: as.SourceTranscript, Harness: "claude-code"}), false, as.ReasonBehindPrompt)
	r.want("w", as.NeedsInput, "screen")
	wantResult(t, r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "claude-code"}), true, "")
	if got := r.want("w", as.Working, "report"); got.Loan {
		t.Fatalf("the hook's report left a loan: %+v", got)
	}
}

// A transcript whose join ends while its claim is on loan yields the
// prior: when the prompt leaves, the pane keeps the state it had, held by
// the detector's lifecycle when the claim carried it, else unclaimed.
func TestATranscriptYieldsTheClaimItHasOnLoan(t *testing.T) {
	for _, auto := range []bool{false, true} {
		r := newRig(t, as.Options{StallAfter: -1})
		if auto {
			r.a.Detected("w", as.Sighting{Agent: true, Harness: "claude-code", Identity: as.IdentityManifest, Foreground: as.ForegroundProgram})
		}
		r.apply("w", as.Report{State: as.Working, Source: as.SourceTranscript, Harness: "claude-code"})
		r.advance(100 * time.Millisecond)
		r.paint("w")
		r.look("w", as.SourceScreen, as.NeedsInput, "approval: Do you want to proceed?")
		if !r.a.Yield("w", as.SourceTranscript) {
			t.Fatal("the transcript could not yield its claim on loan")
		}
		r.want("w", as.NeedsInput, "screen")
		r.advance(100 * time.Millisecond)
		r.paint("w")
		r.a.NoMatch("w", as.SourceScreen)
		got := r.a.Get("w")
		if got.State != as.Working || got.Loan || (auto && (!got.Claimed || got.Source != as.SourceDetect || !got.Auto)) || (!auto && got.Claimed) {
			t.Fatalf("auto=%v: after give-back %+v", auto, got)
		}
	}
}
