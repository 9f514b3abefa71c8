package cli_test

import (
	"strings"
	"testing"
	"time"
)

// The reply queue from a shell: queue while the agent works, list it (by
// shell), see it typed once the agent rests, drop entries, and the
// refusals (ls/rm text without --, human).
func TestQueueFromAShell(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	// The pane prints each line it reads, its echo off: the screen shows
	// exactly what was submitted.
	e.ok("new-window", "-s", "work", "worker", "--no-focus", "--", "sh", "-c", `stty -echo; echo ready; while IFS= read -r l; do printf 'got:%s\n' "$l"; done`)
	e.ok("wait-for", "window-output", "-s", "work", "-w", "worker", "--pattern", "ready", "--timeout", "10000")
	e.ok("set-agent-state", "working", "-s", "work", "-w", "worker", "--harness", "claude-code")

	out := e.ok("queue", "-s", "work", "-w", "worker", "add", "tests")
	if !strings.Contains(out, "Queued q1 for worker") {
		t.Fatalf("queue: %s", out)
	}
	e.ok("queue", "-s", "work", "-w", "worker", "--", "rm", "-rf", "the old fixtures")
	if r := e.run("queue", "-s", "work", "-w", "worker", "ls", "x"); r.code != 1 || !strings.Contains(r.err, "invalid_params") {
		t.Fatalf("ls as text without --: %+v", r)
	}
	ls := e.ok("queue", "ls", "-s", "work")
	lines := strings.Split(strings.TrimSpace(ls), "\n")
	if len(lines) != 3 || strings.Join(strings.Fields(lines[0]), " ") != "ID STATE BY AGE PANE MESSAGE" ||
		strings.Join(strings.Fields(lines[1]), " ") != "q1 waiting shell just now worker add tests" ||
		!strings.HasSuffix(lines[2], "rm -rf the old fixtures") {
		t.Fatalf("queue ls:\n%s", ls)
	}
	var agents struct {
		Agents []struct {
			Name   string `json:"name"`
			Queued int    `json:"queued"`
		} `json:"agents"`
	}
	e.json(&agents, "list-agents", "-s", "work")
	if len(agents.Agents) != 1 || agents.Agents[0].Queued != 2 {
		t.Fatalf("list-agents queued: %+v", agents)
	}
	if r := e.run("queue", "-s", "work", "-w", "human", "hi"); r.code != 1 || !strings.Contains(r.err, "no_keyboard") {
		t.Fatalf("human: %+v", r)
	}
	if out := e.ok("queue", "rm", "q2"); !strings.Contains(out, "Dropped q2; 1 still queued") {
		t.Fatalf("rm: %s", out)
	}

	// At rest: typed a second later, measured on the wall clock.
	start := time.Now()
	e.ok("set-agent-state", "idle", "-s", "work", "-w", "worker", "--harness", "claude-code")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "worker", "--pattern", "got:add tests", "--timeout", "10000")
	took := time.Since(start)
	t.Logf("queued message typed and submitted %v after the agent reported idle (rule: 1 s of rest)", took.Round(time.Millisecond))
	if took < time.Second {
		t.Fatalf("typed after %v, before a second of rest", took)
	}
	e.ok("set-agent-state", "working", "-s", "work", "-w", "worker", "--harness", "claude-code")
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(e.ok("queue", "ls", "-s", "work"), "Nothing queued.") {
		if time.Now().After(deadline) {
			t.Fatal("the taken entry stayed listed")
		}
		time.Sleep(20 * time.Millisecond)
	}

	e.ok("queue", "-s", "work", "-w", "worker", "one")
	e.ok("queue", "-s", "work", "-w", "worker", "two")
	if out := e.ok("queue", "rm", "--all", "-s", "work", "-w", "worker"); !strings.Contains(out, "Dropped q3, q4; 0 still queued") {
		t.Fatalf("rm --all: %s", out)
	}
	if r := e.run("queue", "rm", "q4"); r.code != 1 || !strings.Contains(r.err, "invalid_params") {
		t.Fatalf("rm of a dropped entry: %+v", r)
	}
}
