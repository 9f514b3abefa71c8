package agentstate_test

import (
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
)

var (
	claude = as.Sighting{Agent: true, Harness: "claude-code", Identity: as.IdentityManifest, Foreground: as.ForegroundProgram}
	shell  = as.Sighting{Foreground: as.ForegroundShell}
	vim    = as.Sighting{Foreground: as.ForegroundProgram}
)

// Scenario 25.
func TestAgentDetectionPromotesAndClears(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", claude)
	got := r.want("w", as.Working, "detect")
	if !got.Auto || got.Harness != "claude-code" {
		t.Fatalf("%+v", got)
	}
	r.a.Detected("w", shell)
	r.want("w", as.None, "")

	// The output probe clears at once too.
	r.a.Detected("w", claude)
	r.a.Reconcile("w", shell)
	r.want("w", as.None, "")
}

// Scenario 26.
func TestAgentDetectionNeverClobbersManual(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", shell)
	r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport, Message: "look at me"})
	r.a.Detected("w", claude)
	got := r.want("w", as.NeedsInput, "report")
	if got.Auto {
		t.Fatal("the detector took ownership of a manual note")
	}
	r.a.Detected("w", shell)
	r.want("w", as.NeedsInput, "report") // ClearExitedAgentRespectsManual
}

// Scenario 27.
func TestMissesCountWhileAnotherProgramHoldsTheForeground(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", claude)
	for i := 1; i <= 5; i++ {
		r.a.Detected("w", vim)
		if got := r.want("w", as.Working, "detect"); got.Misses != i {
			t.Fatalf("tick %d: misses %d", i, got.Misses)
		}
	}
	r.a.Detected("w", claude)
	if r.a.Get("w").Misses != 0 {
		t.Fatal("the agent coming back must reset the misses")
	}
	for i := 0; i < 5; i++ {
		r.a.Detected("w", vim)
	}
	r.want("w", as.Working, "detect")
	r.a.Detected("w", vim)
	r.want("w", as.None, "")
}

// Scenario 28.
func TestAgentResumesAfterStall(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: 30 * time.Second, Look: func(string, as.LookReason) as.LookResult {
		return as.LookResult{Screen: true}
	}})
	r.a.Detected("w", claude)
	r.advance(31 * time.Second)
	r.want("w", as.Unknown, "stall")
	r.paint("w")
	r.a.Reconcile("w", claude)
	r.want("w", as.Working, "detect")
}

func TestAgentResumeRespectsHigherSource(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", claude)
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceReport})
	r.paint("w")
	r.a.Reconcile("w", claude)
	r.want("w", as.Idle, "report")
}

// A hook-first pane whose agent crashes to
// its shell clears, because the report was made by a live agent.
func TestAHookFirstPaneClearsWhenItsAgentCrashes(t *testing.T) {
	for name, rep := range map[string]as.Report{
		"harness pid":                  {State: as.Working, Source: as.SourceReport, Harness: "claude-code", HarnessPID: 4242},
		"named the harness it runs as": {State: as.Working, Source: as.SourceReport, Harness: "claude-code"},
	} {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, as.Options{})
			r.apply("w", rep) // before the detector's first tick
			r.a.Detected("w", claude)
			got := r.want("w", as.Working, "report")
			if !got.Auto {
				t.Fatal("the detector did not adopt the live agent's report")
			}
			r.a.Detected("w", shell)
			r.want("w", as.None, "")
		})
	}
	t.Run("report while the agent was seen", func(t *testing.T) {
		r := newRig(t, as.Options{})
		r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "claude-code"})
		r.a.Detected("w", claude)
		r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport, Message: "approve?"})
		r.a.Detected("w", as.Sighting{Foreground: as.ForegroundExited})
		r.want("w", as.None, "")
	})
}

// A person's note on a plain shell pane is never swept.
func TestAPersonsNoteOnAPlainShellPaneStays(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", shell)
	r.apply("w", as.Report{State: as.Done, Source: as.SourceReport, Message: "deploy checked"})
	for i := 0; i < 10; i++ {
		r.a.Detected("w", shell)
	}
	r.want("w", as.Done, "report")
}

// Scenario 30.
func TestAScreenClaimClearsWhereAnAgentWasSeen(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", claude)
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceOSC})
	r.a.Yield("w", as.SourceDetect) // not the owner: nothing
	r.a.Detected("w", shell)
	r.want("w", as.None, "")

	// Where no agent process was ever seen, it is left alone.
	r.apply("x", as.Report{State: as.NeedsInput, Source: as.SourceOSC})
	r.a.Detected("x", shell)
	r.want("x", as.NeedsInput, "osc")
}

func TestANonReportClaimIsSweptOnlyAtTheShell(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", claude)
	r.apply("w", as.Report{State: as.Working, Source: as.SourceTranscript})
	r.a.Yield("w", as.SourceTranscript) // auto survives as a detect claim
	r.a.Detected("w", vim)
	r.want("w", as.Working, "detect")
}

func TestDetectorPassThatChangesNothingBumpsNoVersion(t *testing.T) {
	r := newRig(t, as.Options{})
	r.a.Detected("w", claude)
	v := r.a.Get("w").Version
	for i := 0; i < 3; i++ {
		if res := r.a.Detected("w", claude); res.Changed {
			t.Fatal("a steady tick reported a change")
		}
	}
	if r.a.Get("w").Version != v {
		t.Fatal("a steady tick bumped the version")
	}
}

// The detector sees an agent the moment it starts, long before its hook's
// first report (SessionStart: idle) on a slow start. That idle is the
// agent saying it is at its prompt, not that it finished something: no
// turn is counted. A turn the agent itself said it worked on is counted
// as before, and so is one a stall ends.
func TestASlowStartIsNoFinishedTurn(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	agent := as.Sighting{Agent: true, Harness: "claude-code", Identity: as.IdentityManifest, Foreground: as.ForegroundProgram}
	r.a.Detected("w", agent)
	r.want("w", as.Working, "detect")
	r.advance(6 * time.Second)
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceReport, Harness: "claude-code"})
	if got := r.want("w", as.Idle, "report"); got.CompletionSeq != 0 || got.FinishedUnread {
		t.Fatalf("a slow start counted a turn: %+v", got)
	}
	// The same through the program's own status (OSC 7501).
	rp := newRig(t, as.Options{StallAfter: -1})
	rp.a.Detected("w", agent)
	rp.advance(6 * time.Second)
	rp.apply("w", as.Report{State: as.Idle, Source: as.SourceProgram, Harness: "codex"})
	if got := rp.want("w", as.Idle, "program"); got.CompletionSeq != 0 {
		t.Fatalf("a slow start counted a turn by its program status: %+v", got)
	}
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "claude-code"})
	r.advance(6 * time.Second)
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceReport, Harness: "claude-code"})
	if got := r.want("w", as.Idle, "report"); got.CompletionSeq != 1 {
		t.Fatalf("a real turn was not counted: %+v", got)
	}

	// The detector's appearance, then the hook's working on the same
	// state (no transition), then idle: the agent said it worked.
	r2 := newRig(t, as.Options{StallAfter: -1})
	r2.a.Detected("w", agent)
	r2.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "claude-code"})
	r2.advance(6 * time.Second)
	r2.apply("w", as.Report{State: as.Idle, Source: as.SourceReport, Harness: "claude-code"})
	if got := r2.want("w", as.Idle, "report"); got.CompletionSeq != 1 {
		t.Fatalf("a turn the hook said it worked on was not counted: %+v", got)
	}
}

// An agent that stays silent past the stall window while it starts
// (opencode installing its plugin's dependency, any agent on a busy
// machine) goes unknown without having finished anything: only a turn
// that began from rest, the agent printing again once the person typed,
// is finished by a stall.
func TestAStalledStartIsNoFinishedTurn(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: 30 * time.Second, Look: func(string, as.LookReason) as.LookResult {
		return as.LookResult{Screen: true}
	}})
	r.a.Detected("w", claude)
	r.advance(10 * time.Second) // it draws while it starts, then goes quiet
	r.paint("w")
	r.advance(31 * time.Second)
	if got := r.want("w", as.Unknown, "stall"); got.CompletionSeq != 0 || got.FinishedUnread {
		t.Fatalf("a silent start counted a turn: %+v", got)
	}
	// The person types; the agent prints and is working again, then
	// goes quiet: that turn is finished by the stall.
	r.paint("w")
	r.a.Reconcile("w", claude)
	r.want("w", as.Working, "detect")
	r.advance(10 * time.Second)
	r.paint("w")
	r.advance(31 * time.Second)
	if got := r.want("w", as.Unknown, "stall"); got.CompletionSeq != 1 {
		t.Fatalf("a turn from rest that a stall ended was not counted: %+v", got)
	}
	// A start the agent itself said it works through is a turn.
	r2 := newRig(t, as.Options{StallAfter: 30 * time.Second, Look: func(string, as.LookReason) as.LookResult {
		return as.LookResult{Screen: true}
	}})
	r2.a.Detected("w", claude)
	r2.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "claude-code"})
	r2.advance(6 * time.Second)
	r2.apply("w", as.Report{State: as.Idle, Source: as.SourceReport, Harness: "claude-code"})
	if got := r2.want("w", as.Idle, "report"); got.CompletionSeq != 1 {
		t.Fatalf("a turn the agent reported was not counted: %+v", got)
	}
}
