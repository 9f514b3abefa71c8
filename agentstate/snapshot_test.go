package agentstate_test

import (
	"testing"

	as "github.com/tuios/tuios/agentstate"
)

func TestProgramStatusIsHeardOverAHarnessThatSaidItLeft(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.None, Source: as.SourceReport})
	wantResult(t, r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceProgram, Kind: as.KindAuth}), true, "")
	if g := r.want("w", as.NeedsInput, "program"); g.BlockedBy() != as.KindAuth {
		t.Fatalf("blocked_by %q", g.BlockedBy())
	}
	// Any other stronger claim refuses it.
	r.apply("x", as.Report{State: as.Working, Source: as.SourceReport})
	wantResult(t, r.apply("x", as.Report{State: as.Done, Source: as.SourceProgram}), false, as.ReasonOutranked)
}

func FuzzParseStateSet(f *testing.F) {
	for _, s := range []string{"idle,done", "needs_input", "", ",", "working, ,idle", "nope"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		set, err := as.ParseStateSet(in)
		if err != nil {
			return
		}
		again, err := as.ParseStateSet(set.String())
		if err != nil || again != set {
			t.Fatalf("round trip of %q: %v %v", in, again, err)
		}
	})
}
