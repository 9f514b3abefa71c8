package daemon

import (
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
)

// subagentPane is where the subagent tests start: a daemon on a fake
// clock, and a cat pane in session api whose agent reported working.
func subagentPane(t *testing.T) (clk *fakeclock.Clock, sock string, r *rpc, w string) {
	t.Helper()
	clk = fakeclock.New(time.Date(2026, 5, 1, 14, 2, 0, 0, time.UTC))
	_, sock = serverWith(t, func(o *Options) { o.Tracker.Clock = clk })
	r = dialRPC(t, sock)
	w = catPane(t, r, "api")
	report(t, r, w, "working", "", "")
	return clk, sock, r, w
}

// recordActivity reports p (report-agent-activity) for window w, failing
// unless it is recorded.
func recordActivity(t *testing.T, r *rpc, w string, p map[string]any) {
	t.Helper()
	p["window"] = w
	if res := r.must("report-agent-activity", p); res["recorded"] != true {
		t.Fatalf("%v not recorded: %v", p, res)
	}
}

// A subagent's start and end in the agent log read like the agents page:
// the description the agent's Task call gave, its type, its end state,
// how long it ran and how many tools it called.
func TestAgentLogSubagentEntriesReadLikeTheAgentsPage(t *testing.T) {
	t.Parallel()
	clk, _, r, w := subagentPane(t)
	activity(t, r, w, "prompt", "", "look into tmux")
	ev := func(p map[string]any) {
		t.Helper()
		recordActivity(t, r, w, p)
	}
	ev(map[string]any{"event": "subagent_intent", "subagent_type": "general-purpose", "description": "Research tmux"})
	ev(map[string]any{"event": "subagent_start", "id": "ab34", "subagent_type": "general-purpose"})
	for range 14 {
		ev(map[string]any{"event": "subagent_tool", "id": "ab34", "tool": "Bash: go test ./..."})
	}
	ev(map[string]any{"event": "subagent_start", "id": "cd56", "subagent_type": "Explore", "description": "Find the rail"})
	clk.Advance(3*time.Minute + 10*time.Second)
	ev(map[string]any{"event": "subagent_stop", "id": "ab34", "result": "The rail is fine.\nmore"})
	ev(map[string]any{"event": "subagent_tool", "id": "cd56", "tool": "Read: rail.go"})
	ev(map[string]any{"event": "subagent_stop", "id": "cd56", "result": "no such file", "failed": true})

	var got []string
	for _, e := range readLog(t, r, map[string]any{"window": w}).Entries {
		if strings.HasPrefix(e.Kind, "subagent_") {
			got = append(got, e.Kind+" "+e.Text)
		}
	}
	want := []string{
		"subagent_start Research tmux (general-purpose) started",
		"subagent_start Find the rail (Explore) started",
		"subagent_stop Research tmux (general-purpose) done after 3m, 14 tools",
		"subagent_stop Find the rail (Explore) failed after 3m, 1 tool: no such file",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("subagent entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
