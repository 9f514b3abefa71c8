package tui_test

import (
	"encoding/json"
	"testing"
	"time"
)

// A reply queued for a pane that is not at rest (it waits on a question)
// shows as "1 queued" on the pane's rail row and on its Inbox row until it
// leaves the queue; then the note goes.
func TestAttachQueuedReplyShowsOnTheRows(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s1")
	w.ok("new-window", "-s", "s1", "st", "--no-focus", "--", "sleep", "600")
	w.ok("set-agent-state", "needs_input", "-s", "s1", "-w", "st", "-m", "which backoff?", "--kind", "question")
	var q struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(w.ok("queue", "-s", "s1", "-w", "st", "--json", "use exponential")), &q); err != nil || q.ID == "" {
		t.Fatalf("queue: %v %+v", err, q)
	}
	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", ` st 1 queued`) // the rail's agent row
	w.keys("c", "C-b", "i")
	w.waitFor("c", `s1/st  1 queued  .*which backoff\?`) // the Inbox row
	// A second reply: the count follows.
	w.ok("queue", "-s", "s1", "-w", "st", "and cap it at 30s")
	w.waitFor("c", `s1/st  2 queued`)
	w.ok("queue", "rm", q.ID)
	w.waitFor("c", `s1/st  1 queued`)
	w.ok("queue", "rm", "--all", "-w", "st")
	w.waitGone("c", `queued`)
}

// r on an errored row (seed 003): the reply is queued and, the agent being
// at rest (errored, back at its prompt), typed into the pane within a
// second or so.
func TestAttachReplyToAnErroredAgentIsTyped(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s1")
	w.ok("new-window", "-s", "s1", "er", "--no-focus", "--", "sh", "-c", `stty -echo; echo ready; IFS= read -r l; echo "got:[$l]"; sleep 600`)
	w.ok("wait-for", "window-output", "-s", "s1", "-w", "er", "--pattern", "ready")
	w.ok("set-agent-state", "errored", "-s", "s1", "-w", "er", "-m", "the build broke", "--harness", "claude-code")
	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", `\[s1\]`)
	w.keys("c", "C-b", "i")
	w.waitFor("c", `s1/er  the build broke`)
	w.waitFor("c", `r reply`)
	w.steady("c", 600*time.Millisecond) // the dwell: keys act 0.4 s after the row stood still
	w.keys("c", "r")
	w.waitFor("c", `Reply to er`)
	w.keys("c", "-l", "try again")
	w.keys("c", "Enter")
	w.ok("wait-for", "window-output", "-s", "s1", "-w", "er", "--pattern", `got:\[try again\]`, "--timeout", "10000")
}
