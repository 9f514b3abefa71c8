package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withAgents puts a folder of stand-in agents first on the env's PATH (the
// PATH start-agent sends) and returns it.
func withAgents(t *testing.T, e *env, agents map[string]string) string {
	t.Helper()
	dir := filepath.Join(e.dir, "agents")
	os.MkdirAll(dir, 0o755)
	for name, body := range agents {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, kv := range e.vars {
		if rest, ok := strings.CutPrefix(kv, "PATH="); ok {
			e.vars[i] = "PATH=" + dir + ":" + rest
		}
	}
	return dir
}

// standInClaude is a `claude` that reports what a harness hook would: idle
// at its prompt, working once it reads a line.
const standInClaude = `printf 'Claude stand-in\r\n> '
tuios set-agent-state idle
read line
tuios set-agent-state working
echo "got: $line"
exec cat >/dev/null`

func TestStartAgentCommand(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	withAgents(t, e, map[string]string{"claude": standInClaude})

	out := e.ok("start-agent", "claude", "--name", "reviewer", "-s", "work", "--prompt", "Review the last commit.")
	var w struct {
		WindowID string `json:"window_id"`
		Name     string `json:"name"`
	}
	e.json(&w, "get-window", "-s", "work", "reviewer")
	for _, want := range []string{"created session work", "reviewer (" + w.WindowID[:8] + ") is ready: it reads idle.", "The first prompt was typed."} {
		if !strings.Contains(out, want) {
			t.Fatalf("start-agent printed %q, lacking %q", out, want)
		}
	}
	e.ok("wait-for", "window-output", "-s", "work", "-w", "reviewer", "--pattern", "got: Review the last commit.", "--timeout", "20000")

	// --json is the daemon's agent_started.
	var res map[string]any
	e.json(&res, "start-agent", "claude", "-s", "work", "--name", "second")
	if res["type"] != "agent_started" || res["agent"] != "claude-code" || res["ready"] != true || res["created_session"] != false ||
		!strings.HasSuffix(res["command"].(string), "/agents/claude") || res["cwd"] == "" {
		t.Fatalf("--json: %v", res)
	}

	// An agent on a screen that needs the person: exit 1, the pane kept.
	withAgents(t, e, map[string]string{"codex": "exec tuios pretend-agent -steps 2 -step 100ms"})
	r := e.run("start-agent", "codex", "-s", "work", "--name", "blocked", "--ready-timeout", "30000")
	if r.code != 1 || !strings.Contains(r.err, "is not ready (blocked)") || !strings.Contains(r.err, "capture-pane") {
		t.Fatalf("blocked: %+v\nits screen:\n%s\nits state: %s", r, e.run("capture-pane", "-s", "work", "-w", "blocked").out,
			e.run("get-agent-state", "--json", "-s", "work", "-w", "blocked").out+
				e.run("explain-agent-screen", "-s", "work", "-w", "blocked").out+e.run("explain-agent-detect", "-s", "work", "-w", "blocked").out)
	}
	e.ok("get-window", "-s", "work", "blocked")

	// Unknown agents and what is not in this version are refused clearly.
	r = e.run("start-agent", "nosuchagent")
	if r.code != 1 || !strings.Contains(r.err, "not an agent tuios knows") || !strings.Contains(r.err, "claude") {
		t.Fatalf("unknown agent: %+v", r)
	}
	r = e.run("start-agent", "--protocol", "lsp", "opencode")
	if r.code != 1 || !strings.Contains(r.err, "--protocol lsp is not a protocol tuios speaks") {
		t.Fatalf("--protocol: %+v", r)
	}
	r = e.run("start-agent", "claude", "--model", "x")
	if r.code != 1 || !strings.Contains(r.err, "unknown flag") {
		t.Fatalf("an agent flag before --: %+v", r)
	}
	r = e.run("start-agent", "claude", "extra")
	if r.code != 1 || !strings.Contains(r.err, "after --") {
		t.Fatalf("an argument without --: %+v", r)
	}
	if help := e.ok("start-agent", "--help"); !strings.Contains(help, "tuios start-agent claude --name reviewer") {
		t.Fatalf("--help has no example:\n%s", help)
	}
}

// An agent in a pane starts another agent: in its own session by default,
// in its own folder.
func TestStartAgentFromInsideAPane(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	withAgents(t, e, map[string]string{"claude": standInClaude})
	work := t.TempDir()
	outFile := filepath.Join(e.dir, "started.json")
	e.ok("new", "--detach", "lead", "--cwd", work)
	e.ok("send-text", "-s", "lead", "tuios start-agent claude --name helper --json > "+outFile+" 2>&1; echo started-$?\n")
	e.ok("wait-for", "window-output", "-s", "lead", "--pattern", "started-0", "--timeout", "30000")
	b, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if res["session"] != "lead" || res["ready"] != true || res["created_session"] != false || res["cwd"] != work {
		t.Fatalf("started from a pane: %v", res)
	}
}
