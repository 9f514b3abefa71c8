package cli_test

import (
	"os"
	"path/filepath"
	"testing"
)

// An agent in the foreground that sent an OSC 7501 report and then a full
// reset (which ends its program status records) is working again at the
// detector's next look, with its harness: the pane is not left at none
// while the agent runs.
func TestADetectedAgentIsWorkingAgainAfterItsProgramStatusEnds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// A program named claude (the Claude Code manifest reads its comm)
	// that prints each line it reads as a printf format.
	bin := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nwhile IFS= read -r l; do printf \"$l\"; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "agent", "--", bin)
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "working", "--timeout", "15000")

	e.ok("send-text", "-s", "work", "-w", "agent", `\033]7501;state=idle:app=x\007`+"\n")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "idle", "--timeout", "15000")
	e.ok("send-text", "-s", "work", "-w", "agent", `\033c`+"\n") // RIS
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "working", "--timeout", "15000")
	var st struct {
		State   string `json:"state"`
		Source  string `json:"source"`
		Harness string `json:"harness_id"`
	}
	e.json(&st, "get-agent-state", "-s", "work", "-w", "agent")
	if st.State != "working" || st.Source != "detect" || st.Harness != "claude-code" {
		t.Fatalf("after the reset: %+v", st)
	}
}
