package attention

import (
	"testing"

	"github.com/tuios/tuios/detect"
)

func TestChoiceDeniesReadsTheLabel(t *testing.T) {
	t.Parallel()
	ans := &detect.Answers{Approve: &detect.Answer{Option: "yes"}, ApproveAlways: &detect.Answer{Option: "yes, "},
		Deny: &detect.Answer{Keys: []string{"esc"}}, Choose: "digit"}
	opts := []detect.PromptOption{{N: 1, Label: "Yes"}, {N: 2, Label: "Yes, and don't ask again"},
		{N: 3, Label: "No, and tell Claude what to do differently (esc)"}, {N: 4, Label: "Nothing else"},
		{N: 5, Label: "Don't allow"}, {N: 6, Label: "Do not run it"}, {N: 7, Label: "Reject"}, {N: 8, Label: "Now"}, {N: 9, Label: "Not sure"}}
	p := detect.Prompt{Options: opts, Answers: ans}
	want := map[int]bool{1: false, 2: false, 3: true, 4: false, 5: true, 6: true, 7: true, 8: false, 9: false}
	for _, o := range opts {
		if got := choiceDenies(p, o); got != want[o.N] {
			t.Errorf("%d %q: denies = %v, want %v", o.N, o.Label, got, want[o.N])
		}
	}
	// The manifest's deny answer names an option: that one denies whatever
	// its label says; an approve answer's option never does.
	p.Answers = &detect.Answers{Approve: &detect.Answer{Option: "no problem"}, Deny: &detect.Answer{Option: "stop"}, Choose: "digit"}
	p.Options = []detect.PromptOption{{N: 1, Label: "No problem, go ahead"}, {N: 2, Label: "Stop here"}}
	if choiceDenies(p, p.Options[0]) || !choiceDenies(p, p.Options[1]) {
		t.Fatal("the manifest's answers do not bind the labels")
	}
	// Numbers with a gap are listed one by one.
	p.Options = []detect.PromptOption{{N: 1, Label: "a"}, {N: 3, Label: "b"}}
	if _, err := chooseOption(p, 2); err == nil || err.Message != "option 2 is not offered; this prompt has options 1, 3" {
		t.Fatalf("gap: %v", err)
	}
}
