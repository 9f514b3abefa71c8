package tui_test

import (
	"encoding/json"
	"testing"
)

// A reply queued for a pane that is not at rest (it waits on a question)
// shows as "1 queued" on the pane's rail row and on its Inbox row until it
// leaves the queue; then the note goes.
func TestAttachQueuedReplyShowsOnTheRows(t *testing.T) {
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
