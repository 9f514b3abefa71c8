package attention

import (
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
)

// Actions on offer follow the rule's answers and the options on screen.
func TestOfferedActionsAndRisk(t *testing.T) {
	t.Parallel()
	cc := detect.Prompt{
		Options: []detect.PromptOption{{N: 1, Label: "Yes"}, {N: 2, Label: "No"}},
		Answers: &detect.Answers{Approve: &detect.Answer{Option: "yes"}, ApproveAlways: &detect.Answer{Option: "yes, "},
			Deny: &detect.Answer{Keys: []string{"esc"}}, Choose: "digit"},
		Lines: []string{"│   rm -rf build/   │", "│ ❯ 1. Yes │", "│   2. No │"},
	}
	if got := strings.Join(offered(cc), ","); got != "approve,deny,choose" {
		t.Fatalf("offered: %s", got)
	}
	if k, ok := answerKeys(cc, cc.Answers.Approve); !ok || strings.Join(k, " ") != "1" {
		t.Fatalf("approve keys: %v", k)
	}
	r := newPromptsForTest()
	if got := riskNames(r, "approval: Do you want to proceed?", cc, "", ""); strings.Join(got, ",") != "recursive delete" {
		t.Fatalf("risk: %v", got)
	}
	if !Acknowledged([]string{" recursive delete", "sudo"}, []string{"sudo", "recursive delete"}) || Acknowledged([]string{"sudo"}, []string{"sudo", "recursive delete"}) {
		t.Fatal("Acknowledged")
	}
}

// A prompt stays answered while its answer settles and for answeredGrace
// after: a slow program still shows it, and a second answer must not be
// pressed. Past that, a retry goes through.
func TestAnsweredMarkHoldsThroughTheGrace(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	flying := answeredMark{prompt: "p1", inFlight: true}
	if !flying.holds("p1", now.Add(time.Hour)) || flying.holds("p2", now) {
		t.Fatal("an answer in flight marks its prompt, and only it")
	}
	done := answeredMark{prompt: "p1", until: now.Add(answeredGrace)}
	if !done.holds("p1", now.Add(answeredGrace-time.Millisecond)) || done.holds("p1", now.Add(answeredGrace)) {
		t.Fatal("a returned answer marks its prompt for the grace, then not")
	}
}

// A closed window leaves nothing behind: its answer lock, when it entered
// needs_input and the prompt it answered last all go (forget, which the
// Init hooks to the hub's window-closed).
func TestForgetLeavesNothing(t *testing.T) {
	t.Parallel()
	r := newPromptsForTest()
	unlock, ok := r.lock(t.Context(), "w1")
	if !ok {
		t.Fatal("no lock")
	}
	unlock()
	r.enteredAt("w1", agentstate.Snapshot{})
	r.answered["w1"] = answeredMark{prompt: "p1", until: time.Now().Add(answeredGrace)}
	r.enteredAt("w2", agentstate.Snapshot{})
	if n := r.Kept(); n != 4 {
		t.Fatalf("kept %d, want 4", n)
	}
	r.forget("w1")
	if n := r.Kept(); n != 1 {
		t.Fatalf("after forget: kept %d, want only w2's", n)
	}
	// A lock held by an answer in flight stays until it lets go.
	unlock, _ = r.lock(t.Context(), "w3")
	r.forget("w3")
	if n := r.Kept(); n != 2 {
		t.Fatalf("an answer in flight lost its lock: kept %d", n)
	}
	unlock()
}
