package agents

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
)

func TestSnapshotJSONCarriesTheGetAgentStateFields(t *testing.T) {
	t.Parallel()
	clock := fakeclock.New(time.Unix(1_700_000_000, 0))
	a := as.New(as.Options{StallAfter: -1, Clock: clock})
	b, _ := json.Marshal(wireOf(a.Get("w")))
	for _, want := range []string{`"state":"none"`, `"evidence_age_ms":null`, `"source":""`, `"needs_you":false`, `"subagent_list":[]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("never-set pane JSON %s lacks %s", b, want)
		}
	}
	a.Apply("w", as.Report{State: as.NeedsInput, Source: as.SourceReport, Harness: "codex", Message: "Allow command?", SessionID: "s1"})
	clock.Advance(1500 * time.Millisecond)
	b, _ = json.Marshal(wireOf(a.Get("w")))
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
