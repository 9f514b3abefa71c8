package agentstate_test

import (
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
)

// Codex runs its SessionStart hook only as the first turn begins, after
// its own program status said working; on a loaded machine the hook's
// idle comes more than MinTurn later. A session the pane did not have
// saying idle finishes no turn: the turn that follows is the first one
// counted. A turn of the same session that ends in idle is counted.
func TestANewSessionsIdleFinishesNoTurn(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceProgram, Harness: "codex"})
	r.advance(6 * time.Second)
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceReport, Harness: "codex", SessionID: "s1"})
	if got := r.want("w", as.Idle, "report"); got.CompletionSeq != 0 || got.FinishedUnread {
		t.Fatalf("a session's start counted a turn: %+v", got)
	}
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "codex", SessionID: "s1"})
	r.advance(6 * time.Second)
	r.apply("w", as.Report{State: as.Done, Source: as.SourceReport, Harness: "codex", SessionID: "s1"})
	if got := r.want("w", as.Done, "report"); got.CompletionSeq != 1 {
		t.Fatalf("after the first real turn: %+v", got)
	}
	// The same session: a long turn stopped (Interrupt says idle) counts.
	r.apply("w", as.Report{State: as.Working, Source: as.SourceReport, Harness: "codex", SessionID: "s1"})
	r.advance(6 * time.Second)
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceReport, Harness: "codex", SessionID: "s1"})
	if got := r.want("w", as.Idle, "report"); got.CompletionSeq != 2 {
		t.Fatalf("a long turn of the same session that ended idle: %+v", got)
	}
}

// An agent that takes longer than MinTurn to draw its prompt (opencode
// installs its plugin's dependency first; any agent on a busy machine)
// has done no turn when its screen at last reads idle: only the detector
// said it worked, because it saw it appear. A turn that something else
// saw working, ended idle by the screen, counts.
func TestASlowStartFinishesNoTurn(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.Working, Source: as.SourceDetect, Harness: "opencode"})
	r.advance(40 * time.Second)
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceScreen, Harness: "opencode"})
	if got := r.want("w", as.Idle, "screen"); got.CompletionSeq != 0 || got.FinishedUnread {
		t.Fatalf("a slow start counted a turn: %+v", got)
	}
	r.apply("w", as.Report{State: as.Working, Source: as.SourceScreen, Harness: "opencode"})
	r.advance(6 * time.Second)
	r.apply("w", as.Report{State: as.Idle, Source: as.SourceScreen, Harness: "opencode"})
	if got := r.want("w", as.Idle, "screen"); got.CompletionSeq != 1 {
		t.Fatalf("a turn the screen saw, ended idle: %+v", got)
	}
}
