package cli_test

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/client"
)

// verbCall sends one verb to the env's daemon, as a harness's hook does.
func (e *env) verbCall(verb, params string) {
	e.t.Helper()
	sock := ""
	filepath.WalkDir(e.dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSocket != 0 && sock == "" {
			sock = p
		}
		return nil
	})
	c, err := client.Dial(client.Options{Socket: sock})
	if err != nil {
		e.t.Fatal(err)
	}
	defer c.Close()
	var res map[string]any
	if err := c.Call(verb, json.RawMessage(params), &res); err != nil {
		e.t.Fatalf("%s: %v", verb, err)
	}
}

// The agent log and resume from a shell: activity reported through the
// daemon's verb, read back with agent-log (text, --json, --recap, the
// limit's bound), and resume-agent's refusals and dry run.
func TestAgentLogAndResumeFromAShell(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "worker", "--no-focus", "--", "cat")
	e.ok("set-agent-state", "working", "-s", "work", "-w", "worker", "--harness", "claude-code")
	e.verbCall("report-agent-activity", `{"session":"work","window":"worker","event":"tool","tool":"Bash: go test ./..."}`)
	e.verbCall("report-agent-activity", `{"session":"work","window":"worker","event":"tool_done","tool":"Bash: go test ./..."}`)
	e.verbCall("report-agent-activity", `{"session":"work","window":"worker","event":"turn_end","text":"All green."}`)
	out := e.ok("agent-log", "-s", "work", "-w", "worker")
	if !strings.Contains(out, "tool      Bash: go test ./...") || !strings.Contains(out, "turn_end  All green.") {
		t.Fatalf("agent-log:\n%s", out)
	}
	var l struct {
		LastSeq int `json:"last_seq"`
		Entries []struct {
			Kind string `json:"kind"`
		} `json:"entries"`
	}
	e.json(&l, "agent-log", "-s", "work", "-w", "worker")
	if l.LastSeq != 3 || len(l.Entries) != 3 {
		t.Fatalf("--json: %+v", l)
	}
	recap := e.ok("agent-log", "-s", "work", "-w", "worker", "--since", "30m", "--recap")
	if !strings.Contains(recap, "1 turn.") || !strings.Contains(recap, "Tests: go test ./... passed") || !strings.Contains(recap, "Last said: All green.\n") {
		t.Fatalf("--recap:\n%s", recap)
	}
	if r := e.run("agent-log", "-s", "work", "-w", "worker", "--limit", "257"); r.code == 0 || !strings.Contains(r.err, "invalid_params") {
		t.Fatalf("--limit 257: %+v", r)
	}
	if r := e.run("resume-agent", "-s", "work", "-w", "worker"); r.code == 0 || !strings.Contains(r.err, "not_resumable") {
		t.Fatalf("no id: %+v", r)
	}
	e.verbCall("set-agent-session", `{"session":"work","window":"worker","harness":"claude-code","agent_session_id":"abc-123"}`)
	if out := e.ok("resume-agent", "-s", "work", "-w", "worker", "--dry-run"); strings.TrimSpace(out) != "claude --resume abc-123" {
		t.Fatalf("dry run: %q", out)
	}
	if r := e.run("resume-agent", "-s", "work", "-w", "worker"); r.code == 0 || !strings.Contains(r.err, "not_ready") {
		t.Fatalf("cat in front: %+v", r)
	}
}
