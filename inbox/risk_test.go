package inbox_test

import (
	"strings"
	"testing"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/review"
)

func ruleList(hits []review.Hit) string {
	var names []string
	for _, h := range hits {
		names = append(names, h.Rule)
	}
	return strings.Join(names, ",")
}

// The risk the daemon read in a prompt's dialog (Pane.Risk) marks the
// approval even when its line names no command, merges with what the line
// says in rule order, follows each report, and never marks a question.
func TestApprovalCarriesTheRiskReadFromThePrompt(t *testing.T) {
	ck, err := review.NewChecker(review.RiskConfig{})
	if err != nil {
		t.Fatal(err)
	}
	r := newRigWith(t, inbox.Options{Risk: ck})
	read := []review.Hit{{Rule: "cut short", Why: "not on screen whole"}, {Rule: "recursive delete", Why: "deletes a tree", Text: "rm -rf build/"}}
	feed := func(id, msg string, kind agentstate.Kind, risk []review.Hit) []inbox.Event {
		r.a.Apply(id, agentstate.Report{State: agentstate.NeedsInput, Source: agentstate.SourceReport, Message: msg, Kind: kind, Harness: "claude-code"})
		p := pane(id)
		p.Risk = risk
		return r.q.Update(p, r.a.Get(id))
	}
	wantOps(t, feed("p", "approval: Do you want to proceed?", agentstate.KindApproval, read), "open approval#1")
	if it := r.find(inbox.KindApproval, "p"); ruleList(it.Risk) != "recursive delete,cut short" || it.Risk[0].Text != "rm -rf build/" {
		t.Fatalf("risk %+v", it.Risk)
	}
	// The line's own rule joins in hit order.
	wantOps(t, feed("p", "approve Bash: sudo rm -rf build/", agentstate.KindApproval, read), "update approval#1")
	if got := ruleList(r.find(inbox.KindApproval, "p").Risk); got != "recursive delete,sudo,cut short" {
		t.Fatalf("merged: %s", got)
	}
	// The same report with nothing read: only the line's rules.
	wantOps(t, feed("p", "approve Bash: sudo rm -rf build/", agentstate.KindApproval, nil), "update approval#1")
	if got := ruleList(r.find(inbox.KindApproval, "p").Risk); got != "recursive delete,sudo" {
		t.Fatalf("after nothing read: %s", got)
	}
	feed("q", "which one?", agentstate.KindQuestion, read)
	if it := r.find(inbox.KindQuestion, "q"); it.Risk != nil {
		t.Fatalf("a question carries risk: %+v", it.Risk)
	}
	// Without a checker (the daemon reads the line itself): given as is.
	r2 := newRig(t)
	r2.a.Apply("p", agentstate.Report{State: agentstate.NeedsInput, Source: agentstate.SourceReport, Message: "approval: Do you want to proceed?", Kind: agentstate.KindApproval})
	p := pane("p")
	p.Risk = read
	r2.q.Update(p, r2.a.Get("p"))
	if got := ruleList(r2.find(inbox.KindApproval, "p").Risk); got != "cut short,recursive delete" {
		t.Fatalf("no checker: %s", got)
	}
}
