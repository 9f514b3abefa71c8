package cli_test

import (
	"strings"
	"testing"
	"time"
)

// The pretend agent's turn fails (Error: the build failed) and it waits at
// its prompt, errored. A reply queued for it is typed within a second or
// so, the agent runs it, and the entry leaves the queue (not stalled).
func TestQueueTypesIntoAnErroredPretendAgent(t *testing.T) {
	t.Parallel()
	e := shellRespondEnv(t) // respond_e2e_test.go: respond from this shell
	e.ok("new-window", "-s", "work", "ph", "--no-focus", "--", e.bin, "pretend-agent", "-error", "-steps", "1", "-step", "100ms")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "ph", "--until", "needs_input", "--timeout", "20000")
	e.ok("respond", "-s", "work", "-w", "ph", "--risk-ack", "recursive delete", "approve")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "ph", "--until", "errored", "--timeout", "20000")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "ph", "--pattern", "exit status 2", "--timeout", "10000")
	start := time.Now()
	e.ok("queue", "-s", "work", "-w", "ph", "try again")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "ph", "--pattern", "read 9 bytes of prompt", "--timeout", "10000")
	t.Logf("figure: a reply to an errored agent was typed and run %v after it was queued", time.Since(start).Round(time.Millisecond))
	deadline := time.Now().Add(10 * time.Second)
	for {
		out := e.ok("queue", "ls", "-s", "work", "-w", "ph")
		if !strings.Contains(out, "try again") {
			break
		}
		if strings.Contains(out, "stalled") || time.Now().After(deadline) {
			t.Fatalf("the entry did not leave the queue:\n%s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
