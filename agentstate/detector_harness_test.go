package agentstate_test

import (
	"testing"

	as "github.com/tuios/tuios/agentstate"
)

// A pane started as one harness (a caller's hint, its title read with that
// harness's rules) that the detector then finds running another names the
// harness it runs: the first look at the title may beat the first read of
// the process, and the pane must not stay on the wrong rules.
func TestASightingNamesAHarnessOnlyRulesGuessed(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceOSC, Harness: "codex", Observed: r.now()})
	r.a.Detected("w", as.Sighting{Agent: true, Harness: "claude-code", Identity: as.IdentityHint, Foreground: as.ForegroundProgram})
	if got := r.want("w", as.Working, "osc"); got.Harness != "claude-code" {
		t.Fatalf("harness %q, want the process's claude-code", got.Harness)
	}

	// On a screen loan, the harness the loan gives back is the process's.
	r.apply("l", as.Report{State: as.Working, Source: as.SourceOSC, Harness: "codex", Observed: r.now()})
	r.apply("l", as.Report{State: as.NeedsInput, Source: as.SourceScreen, Harness: "codex", Observed: r.now()})
	r.a.Detected("l", as.Sighting{Agent: true, Harness: "claude-code", Identity: as.IdentityHint, Foreground: as.ForegroundProgram})
	r.apply("l", as.Report{State: as.Idle, Source: as.SourceScreen, Harness: "claude-code", Observed: r.now()})
	if got := r.a.Get("l"); got.Harness != "claude-code" {
		t.Fatalf("after the loan: harness %q (%+v)", got.Harness, got)
	}
}

// An agent's own report names its harness: a sighting of another program
// does not rename it (a wrapper, a tool the agent runs in front).
func TestASightingLeavesAReportedHarness(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "codex"})
	r.a.Detected("w", as.Sighting{Agent: true, Harness: "claude-code", Identity: as.IdentityHint, Foreground: as.ForegroundProgram})
	if got := r.want("w", as.Working, "report"); got.Harness != "codex" {
		t.Fatalf("harness %q, want the reported codex", got.Harness)
	}
	r.apply("t", as.Report{State: as.Working, Source: as.SourceTranscript, Harness: "codex"})
	r.a.Detected("t", as.Sighting{Agent: true, Harness: "claude-code", Identity: as.IdentityHint, Foreground: as.ForegroundProgram})
	if got := r.a.Get("t"); got.Harness != "codex" {
		t.Fatalf("a transcript's harness was renamed to %q", got.Harness)
	}
}
