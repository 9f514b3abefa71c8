package attention

import (
	"slices"
	"strings"
	"testing"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/review"
)

// newPromptsForTest is Prompts with the shipped risk rules and no daemon:
// what reads a prompt without a pane.
func newPromptsForTest() *Prompts {
	chk, _ := review.NewChecker(review.RiskConfig{})
	return NewPrompts(PromptsOptions{Risk: chk})
}

// A prompt's paths are judged from the pane's directory: a delete that
// climbs out of it is "outside the worktree", the same call inside is not.
func TestPromptRiskReadsPathsFromThePane(t *testing.T) {
	t.Parallel()
	r := newPromptsForTest()
	p := func(cmd string) detect.Prompt {
		return detect.Prompt{Options: []detect.PromptOption{{N: 1, Label: "Yes"}, {N: 2, Label: "No"}},
			Lines: []string{"│   " + cmd + "   │", "│ ❯ 1. Yes │", "│   2. No │"}}
	}
	if got := riskNames(r, "", p("rm ../notes.txt"), "/src/api", "/home/me"); !slices.Contains(got, "outside the worktree") {
		t.Fatalf("rm ../notes.txt from /src/api: %v", got)
	}
	if got := riskNames(r, "", p("rm sub/notes.txt"), "/src/api", "/home/me"); len(got) != 0 {
		t.Fatalf("rm sub/notes.txt from /src/api: %v", got)
	}
	if got := riskNames(r, "", p("rm ../notes.txt"), "", ""); len(got) != 0 { // no pane directory known: the rule is off
		t.Fatalf("no root: %v", got)
	}
}

// riskNames is the rule names promptHits gives a prompt read from its
// own lines.
func riskNames(r *Prompts, line string, p detect.Prompt, root, home string) []string {
	hits, _ := r.promptHits(line, p, detect.ReadDialog(p, p.Lines, true), root, home)
	return ruleNames(hits)
}

// What a prompt asks is judged from its dialog read whole; an approval
// whose dialog was not read whole is "cut short" unless its line names
// the call whole, and a question never is.
func TestPromptHitsOfADialogReadWholeOrNot(t *testing.T) {
	t.Parallel()
	r := newPromptsForTest()
	opts := []detect.PromptOption{{N: 1, Label: "Yes"}, {N: 2, Label: "No"}}
	cut := detect.Prompt{Kind: agentstate.KindApproval, Options: opts, Lines: []string{" Do you want to proceed?", " ❯ 1. Yes", "   2. No"}}
	partial := detect.ReadDialog(cut, cut.Lines, false) // an alternate screen: its top may be gone
	for _, c := range []struct {
		line, want string
	}{
		{"approval: Do you want to proceed?", "cut short"},
		{"approve Bash: ls", ""},                                                // the hook's line names the call
		{"approve Bash: rm -rf build/", "recursive delete"},                     // and is judged
		{"approve Bash: git status && rm -rf b…", "recursive delete,cut short"}, // a clipped line names nothing whole
	} {
		hits, notWhole := r.promptHits(c.line, cut, partial, "", "")
		if got := strings.Join(ruleNames(hits), ","); got != c.want {
			t.Errorf("%q on a cut dialog: %q, want %q", c.line, got, c.want)
		}
		if notWhole != (c.line == "approval: Do you want to proceed?") {
			t.Errorf("%q: notWhole %v", c.line, notWhole)
		}
		if c.want == "cut short" && (len(hits) != 1 || hits[0].Why != whyNotWhole) {
			t.Errorf("the cut short hit does not say why: %+v", hits)
		}
	}
	q := cut
	q.Kind = agentstate.KindQuestion
	if hits, _ := r.promptHits("which one?", q, partial, "", ""); len(hits) != 0 {
		t.Errorf("a question that was not read whole: %+v", hits)
	}
	// A command the agent wrapped over two rows is read as one.
	text := []string{"────────", " Bash command", "", "   git push origin main", "   --force", "", " Do you want to proceed?", " ❯ 1. Yes", "   2. No"}
	p := detect.Prompt{Kind: agentstate.KindApproval, Options: opts, Lines: text[6:]}
	d := detect.ReadDialog(p, text, true)
	if hits, notWhole := r.promptHits("approval: Do you want to proceed?", p, d, "", ""); !d.Whole || notWhole || strings.Join(ruleNames(hits), ",") != "force push" {
		t.Errorf("a wrapped command: whole %v, %+v", d.Whole, hits)
	}
}
