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
