package hook_test

import (
	"slices"
	"testing"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect/hook"
)

// States reads what each harness's hooks can report: the reply queue tells
// from it whether a pane can ever read idle or working.
func TestStatesPerHarness(t *testing.T) {
	for h, want := range map[string][]agentstate.State{
		"claude-code": {agentstate.Idle, agentstate.Working, agentstate.Done},
		"qwen":        {agentstate.Idle, agentstate.Working, agentstate.Done},
		"opencode":    {agentstate.Working, agentstate.Done},
	} {
		got := hook.States(h)
		for _, s := range want {
			if !slices.Contains(got, s) {
				t.Errorf("%s: %v lacks %v", h, got, s)
			}
		}
	}
	// Session-only hooks report no state; an unknown harness none either.
	for _, h := range []string{"droid", "qoder", "goose", ""} {
		if got := hook.States(h); len(got) != 0 {
			t.Errorf("%s: %v", h, got)
		}
	}
}
