package agentstate_test

import (
	"testing"

	as "github.com/tuios/tuios/agentstate"
)

var codexRuns = as.Sighting{Agent: true, Harness: "codex", Identity: as.IdentityManifest, Foreground: as.ForegroundProgram}

// `tuios set-agent-state none` ("clear it") gives the pane back: after an
// explicit report of none no claim is left, so the sources ranked below a
// report (osc, screen, stall, detect) report on the pane again, and the
// harness and meta the pane reported are dropped with it.
func TestAReportOfNoneGivesThePaneBack(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.a.Detected("w", codexRuns)
	r.want("w", as.Working, "detect")
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport})
	r.apply("w", as.Report{State: as.None, Source: as.SourceReport})
	if g := r.want("w", as.None, ""); g.Claimed || g.Harness != "" {
		t.Fatalf("after none: claimed %v harness %q", g.Claimed, g.Harness)
	}
	// Codex's title rule ("Action Required") is heard again.
	r.paint("w")
	wantResult(t, r.look("w", as.SourceOSC, as.NeedsInput, "Action Required"), true, "")
	r.want("w", as.NeedsInput, "osc")

	// So is an OSC 9;4 error, and a caller reporting at osc rank.
	r.apply("v", as.Report{State: as.Working, Source: as.SourceReport})
	r.apply("v", as.Report{State: as.None, Source: as.SourceReport})
	wantResult(t, r.apply("v", as.Report{State: as.Errored, Source: as.SourceOSC}), true, "")
	r.want("v", as.Errored, "osc")
}

// The detector takes a cleared pane whose agent still runs back to
// working (it promotes only from none, and only while it sees an agent),
// and clears it once the agent has gone: a hook's none sent on the way
// out is never pinned to working.
func TestTheDetectorAfterAReportOfNone(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.a.Detected("w", codexRuns)
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceReport, Harness: "codex"})
	r.apply("w", as.Report{State: as.None, Source: as.SourceReport}) // the agent's hook, as it quits

	// Still in the foreground for one more tick: working again, with the
	// detector's lifecycle claim.
	r.a.Detected("w", codexRuns)
	if g := r.want("w", as.Working, "detect"); !g.Auto {
		t.Fatal("re-promoted without the detector's lifecycle claim")
	}
	// The shell is back: cleared at once.
	r.a.Detected("w", as.Sighting{Foreground: as.ForegroundShell})
	r.want("w", as.None, "")

	// Gone before the next tick: it stays none.
	r.a.Detected("x", codexRuns)
	r.apply("x", as.Report{State: as.None, Source: as.SourceReport})
	r.a.Detected("x", as.Sighting{Foreground: as.ForegroundShell})
	if g := r.want("x", as.None, ""); g.Claimed {
		t.Fatal("a pane at its shell holds a claim")
	}
}

// An agent whose own hook said it left (a none naming its harness, as
// Gemini CLI's SessionEnd sends on Ctrl+C) and whose process is read once
// more while it exits is not promoted back to working: the pane stays
// none. A new agent (another process group) in the same pane is, and so
// is the same group again after the shell came back.
func TestAnAgentThatSaidItLeftIsNotPromotedWhileItExits(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	gemini := as.Sighting{Agent: true, Harness: "gemini-cli", Identity: as.IdentityManifest, Foreground: as.ForegroundProgram, Group: 4100}
	r.a.Detected("w", gemini)
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceReport, Harness: "gemini-cli", SessionID: "s1"})
	r.apply("w", as.Report{State: as.None, Source: as.SourceReport, Harness: "gemini-cli", SessionID: "s1"})

	r.a.Detected("w", gemini)
	if g := r.want("w", as.None, ""); g.Claimed {
		t.Fatal("an exiting agent's pane holds a claim")
	}
	// Another agent started in the pane: its own group, promoted.
	next := gemini
	next.Group = 4200
	r.a.Detected("w", next)
	r.want("w", as.Working, "detect")

	// The same group after the shell: the goodbye is forgotten.
	r.apply("x", as.Report{State: as.Idle, Source: as.SourceReport, Harness: "gemini-cli"})
	r.a.Detected("x", gemini)
	r.apply("x", as.Report{State: as.None, Source: as.SourceReport, Harness: "gemini-cli"})
	r.a.Detected("x", as.Sighting{Foreground: as.ForegroundShell})
	r.a.Detected("x", gemini)
	r.want("x", as.Working, "detect")

	// A report after the goodbye (a /clear's SessionStart) is heard.
	r.a.Detected("y", gemini)
	r.apply("y", as.Report{State: as.None, Source: as.SourceReport, Harness: "gemini-cli"})
	r.apply("y", as.Report{State: as.Idle, Source: as.SourceReport, Harness: "gemini-cli"})
	r.want("y", as.Idle, "report")
}

// A program status that ends (its records cleared, or a full reset) on a
// pane whose agent the detector saw gives the pane back to the detector:
// the next tick that still sees the agent marks it working again, with
// its harness, instead of leaving it none while the agent runs.
func TestTheDetectorAfterProgramStatusEnds(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.a.Detected("w", codexRuns)
	r.want("w", as.Working, "detect")
	r.apply("w", as.Report{State: as.Working, Source: as.SourceProgram, Harness: "codex"})
	r.want("w", as.Working, "program")
	r.apply("w", as.Report{State: as.None, Source: as.SourceProgram})
	r.a.Yield("w", as.SourceProgram)
	r.want("w", as.None, "detect") // the detector's lifecycle claim stays

	r.a.Detected("w", codexRuns)
	if g := r.want("w", as.Working, "detect"); g.Harness != "codex" || !g.Auto {
		t.Fatalf("after the program status ended: harness %q, auto %v", g.Harness, g.Auto)
	}
	// The agent leaves: the pane clears as any detected one does.
	r.a.Detected("w", as.Sighting{Foreground: as.ForegroundShell})
	r.want("w", as.None, "")
}
