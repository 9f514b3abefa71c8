package agentlog

import (
	"testing"

	"github.com/tuios/tuios/agentstate"
)

func TestTestPattern(t *testing.T) {
	t.Parallel()
	for line, want := range map[string]string{
		"go test ./...": "go test", "cd api && go  test -run X": "go test", "pytest -q": "pytest",
		"go testing": "", "cargo test": "cargo test", "echo hi": "",
	} {
		if got := testPattern(line, nil); got != want {
			t.Errorf("testPattern(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestSubagentStopTextWithoutItsStart(t *testing.T) {
	t.Parallel()
	row := agentstate.Subagent{Type: "general-purpose", State: "stopped"}
	if got := SubagentStopText(row, 0, false); got != "a general-purpose subagent stopped, 0 tools" {
		t.Fatalf("%q", got)
	}
}
