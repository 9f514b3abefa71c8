package inbox_test

import (
	"testing"

	"github.com/tuios/tuios/inbox"
)

// d.md 14: a dismissed approval stays closed while the agent asks for
// the same thing, but the agent's next, different request on the same
// needs_input is a new item, and a hook's new hold is one too.
func TestTheNextRequestAfterADismissOpensANewItem(t *testing.T) {
	r := newRig(t)
	r.approval("p", "approve Bash: echo one")
	r.q.Hold(inbox.Hold{Pane: "p", RequestID: "h1", Summary: "approve Bash: echo one"})
	if d, _, _ := r.q.Dismiss("1"); d.HeldID != "h1" {
		t.Fatalf("dismiss did not end the hold: %+v", d)
	}
	wantOps(t, r.approval("p", "approve Bash: echo one"), "")

	wantOps(t, r.approval("p", "approve Bash: echo two"), "open approval#2")
	evs, err := r.q.Hold(inbox.Hold{Pane: "p", RequestID: "h2", Summary: "approve Bash: echo two"})
	if err != nil || ops(evs) != "update approval#2" {
		t.Fatalf("the second request was not held: %s %v", ops(evs), err)
	}
	if it := r.find(inbox.KindApproval, "p"); it.HeldID != "h2" || it.Summary != "approve Bash: echo two" {
		t.Fatalf("%+v", it)
	}

	// Answered, then the hook asks again for the very same line: the
	// report alone repeats what was answered, the hold is a new request.
	if _, err := r.q.Answer("2", inbox.DecisionDeny, "human"); err != nil {
		t.Fatal(err)
	}
	wantOps(t, r.approval("p", "approve Bash: echo two"), "")
	evs, err = r.q.Hold(inbox.Hold{Pane: "p", RequestID: "h3", Summary: "approve Bash: echo two"})
	if err != nil || ops(evs) != "open approval#3" {
		t.Fatalf("the repeated request was not held: %s %v", ops(evs), err)
	}

	// A question on a dismissed approval's needs_input still waits for a
	// transition: only the agent asking for another approval is new.
	r.q.Dismiss("3")
	wantOps(t, r.question("p", "a new line on the same prompt"), "")
	_, err = r.q.Hold(inbox.Hold{Pane: "p", RequestID: "h4", Summary: "approve Bash: echo three"})
	wantRefusal(t, err, inbox.CodeNotBlocked, inbox.WhyNotBlocked)
}
