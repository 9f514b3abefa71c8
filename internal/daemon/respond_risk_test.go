package daemon

import (
	"slices"
	"testing"

	"github.com/tuios/tuios/detect"
)

// A prompt's paths are judged from the pane's directory: a delete that
// climbs out of it is "outside the worktree", the same call inside is not.
func TestPromptRiskReadsPathsFromThePane(t *testing.T) {
	r := (&Server{}).newResponderForTest()
	p := func(cmd string) detect.Prompt {
		return detect.Prompt{Options: []detect.PromptOption{{N: 1, Label: "Yes"}, {N: 2, Label: "No"}},
			Lines: []string{"│   " + cmd + "   │", "│ ❯ 1. Yes │", "│   2. No │"}}
	}
	if got := r.riskAt("", p("rm ../notes.txt"), "/src/api", "/home/me"); !slices.Contains(got, "outside the worktree") {
		t.Fatalf("rm ../notes.txt from /src/api: %v", got)
	}
	if got := r.riskAt("", p("rm sub/notes.txt"), "/src/api", "/home/me"); len(got) != 0 {
		t.Fatalf("rm sub/notes.txt from /src/api: %v", got)
	}
	if got := r.riskOf("", p("rm ../notes.txt")); len(got) != 0 { // no pane directory known: the rule is off
		t.Fatalf("no root: %v", got)
	}
}
