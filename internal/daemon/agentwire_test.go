package agentstate_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
)

func TestSnapshotJSONCarriesTheGetAgentStateFields(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	b, _ := json.Marshal(r.a.Get("w"))
	for _, want := range []string{`"state":"none"`, `"evidence_age_ms":null`, `"source":""`, `"needs_you":false`, `"subagent_list":[]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("never-set pane JSON %s lacks %s", b, want)
		}
	}
	r.apply("w", as.Report{State: as.NeedsInput, Harness: "codex", Message: "Allow command?", SessionID: "s1"})
	r.advance(1500 * time.Millisecond)
	b, _ = json.Marshal(r.a.Get("w"))
	for _, want := range []string{
		`"window_id":"w"`, `"state":"needs_input"`, `"source":"report"`, `"harness_id":"codex"`,
		`"identity":"report"`, `"confidence":"certain"`, `"evidence_age_ms":1500`, `"needs_you":true`,
		`"activity":"waiting"`, `"ready":false`, `"blocked_by":"approval"`, `"agent_session_id":"s1"`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON %s lacks %s", b, want)
		}
	}
}

func TestProgramStatusIsHeardOverAHarnessThatSaidItLeft(t *testing.T) {
	r := newRig(t, as.Options{StallAfter: -1})
	r.apply("w", as.Report{State: as.None})
	wantResult(t, r.apply("w", as.Report{State: as.NeedsInput, Source: as.SourceProgram, Kind: as.KindAuth}), true, "")
	if g := r.want("w", as.NeedsInput, "program"); g.BlockedBy() != as.KindAuth {
		t.Fatalf("blocked_by %q", g.BlockedBy())
	}
	// Any other stronger claim refuses it.
	r.apply("x", as.Report{State: as.Working})
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
