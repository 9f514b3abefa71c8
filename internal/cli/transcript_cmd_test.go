package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/standin"
)

// transcriptFixture puts the daemon's Claude Code-shaped transcript under
// the env's ~/.claude/projects and joins window 0 of session work to it,
// as the agent's hook does.
func transcriptFixture(t *testing.T, e *env) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "daemon", "testdata", "claude_transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(e.dir, "home", ".claude", "projects", "-home-u-proj", "5b1f4f2e-8c3a-4d1e-9b7a-2f6c0e1d3a45.jsonl")
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	e.ok("set-agent-state", "working", "-s", "work", "-w", "0", "--harness", "claude-code", "--transcript-path", path)
	return path
}

// The person reads the conversation from a shell outside every pane when
// the daemon takes respond_from_shell: fenced as data, cleaned, without the
// file's path; --json, --limit and --after work; a program in a pane and a
// shell without the switch are refused.
func TestAgentTranscriptCommand(t *testing.T) {
	t.Parallel()
	plain := newEnv(t)
	plain.ok("new", "--detach", "work")
	transcriptFixture(t, plain)
	if r := plain.fails("not_human", "agent-transcript", "-s", "work", "-w", "0"); !strings.Contains(r.err, "respond_from_shell") {
		t.Fatalf("the refusal does not say how: %s", r.err)
	}

	e := shellRespondEnv(t)
	path := transcriptFixture(t, e)
	out := e.ok("agent-transcript", "-s", "work", "-w", "0")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "Conversation in 0 (claude-code): 14 entries. Next cursor: ") ||
		!strings.HasPrefix(lines[1], "--- begin untrusted content from the agent's transcript in 0") || lines[len(lines)-1] != "--- end untrusted content ---" {
		t.Fatalf("not fenced:\n%s", out)
	}
	for _, l := range lines[2 : len(lines)-1] {
		if !strings.HasPrefix(l, "│ ") {
			t.Fatalf("a line outside the fence: %q\n%s", l, out)
		}
	}
	for _, want := range []string{"│ ## prompt at 10:00:01\n│ Fix the parser: red and use token=**** to push\n", "│ ## edit_diff Edit /home/u/proj/parse.go at 10:00:09\n│ @@ -7,3 +7,3 @@\n",
		"│ -\treturn out[:len(out)-1]\n│ +\treturn out\n", "│ ## tool_result Bash (failed) at 10:00:11\n", "│ ## todo at 10:00:06\n│ [~] Fix Fields\n│ [ ] Run go test\n", "│ ## plan at 10:00:13\n│ 1. Fix Fields\n"} {
		if !strings.Contains(out, want) {
			t.Fatalf("missing %q in:\n%s", want, out)
		}
	}
	if strings.ContainsRune(out, 0x1b) || strings.Contains(out, path) || strings.Contains(out, "ghp_") {
		t.Fatalf("escape, path or token in the output:\n%s", out)
	}

	var res struct {
		Entries []struct {
			Kind string `json:"kind"`
		} `json:"entries"`
		Truncated bool  `json:"truncated"`
		Next      int64 `json:"next"`
	}
	e.json(&res, "agent-transcript", "-s", "work", "-w", "0", "--limit", "2")
	if len(res.Entries) != 2 || res.Entries[1].Kind != "answer" || !res.Truncated {
		t.Fatalf("--limit 2: %+v", res)
	}
	after := e.ok("agent-transcript", "-s", "work", "-w", "0", "--after", jsonInt(res.Next))
	if !strings.HasPrefix(after, "Conversation in 0 (claude-code): 0 entries.") {
		t.Fatalf("--after the end:\n%s", after)
	}
	if r := e.fails("invalid_params", "agent-transcript", "-s", "work", "-w", "0", "--limit", "1001"); !strings.Contains(r.err, "--limit") {
		t.Fatalf("the bound is not said in the CLI's words: %s", r.err)
	}

	// A program in a pane: never, even with respond_from_shell.
	e.ok("new-window", "-s", "work", "in", "--no-focus", "--", "sh", "-c", "tuios agent-transcript -s work -w 0; echo rc=$?; sleep 60")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "in", "--pattern", "rc=", "--timeout", "15000")
	got := e.ok("capture-pane", "-s", "work", "-w", "in")
	if !strings.Contains(got, "not_human") || !strings.Contains(got, "rc=1") || strings.Contains(got, "Fix the parser") {
		t.Fatalf("a pane read the conversation:\n%s", got)
	}
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// The real Claude Code (an npm install, see transcript_e2e_test.go) in a
// pane, with no hook, against the Messages API stand-in: a turn that
// writes a file with the Write tool, then answers. The daemon finds the
// transcript Claude Code wrote, and agent-transcript reads from it the
// prompt, the tool call, its result, the diff of the new file and the
// answer.
func TestAgentTranscriptOfARealClaudeCode(t *testing.T) {
	t.Parallel()
	in := findNativeClaude(t)
	realAgent(t, lightAgent)
	e := shellRespondEnv(t)
	home := filepath.Join(e.dir, "home")
	work := e.workDir()
	target := filepath.Join(work, "hello.txt")
	const answer = "Wrote hello.txt for you."
	api := startStandin(t, standin.Options{Turns: []standin.Reply{
		{Text: "I'll write the file.", Tools: []standin.ToolUse{{Name: "Write", Input: map[string]any{"file_path": target, "content": "hello\nworld\n"}}}, Gap: 10 * time.Millisecond},
		{Text: answer, Gap: 10 * time.Millisecond},
	}})
	seedClaudeHome(t, home, work)
	e.vars = append(e.vars, "ANTHROPIC_BASE_URL="+api.URL(), "ANTHROPIC_API_KEY="+standinKey,
		"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	// The daemon started before these were set: the pane gets them on
	// its command line.
	env := "ANTHROPIC_BASE_URL=" + api.URL() + " ANTHROPIC_API_KEY=" + standinKey + " DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"
	e.ok("new-window", "-s", "work", "rcc", "--", "sh", "-c", "cd "+work+" && HOME="+home+" "+env+" exec "+in.shim+" --permission-mode acceptEdits")
	if r := e.run("wait-for", "window-output", "-s", "work", "-w", "rcc", "--pattern", "accept edits on", "--timeout", "60000"); r.code != 0 {
		t.Fatalf("Claude Code's prompt never came:\n%s", e.ok("capture-pane", "-s", "work", "-w", "rcc"))
	}
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "rcc", "--until", "idle,unknown,working,done,needs_input", "--timeout", "15000")
	e.ok("send-text", "-s", "work", "-w", "rcc", "Write hello.txt")
	// Enter once the prompt box shows the text, as a person presses it.
	e.ok("wait-for", "window-output", "-s", "work", "-w", "rcc", "--pattern", "Write hello.txt", "--timeout", "15000")
	e.ok("send-keys", "-s", "work", "-w", "rcc", "Enter")
	if r := e.run("wait-for", "window-output", "-s", "work", "-w", "rcc", "--pattern", "Wrote hello.txt for you", "--timeout", "60000"); r.code != 0 {
		t.Fatalf("the turn never ended:\n%s", e.ok("capture-pane", "-s", "work", "-w", "rcc"))
	}
	type entry struct {
		Kind, Text, Tool, File string
	}
	var res struct {
		Harness string  `json:"harness"`
		Entries []entry `json:"entries"`
	}
	kinds := ""
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		r := e.run("agent-transcript", "-s", "work", "-w", "rcc", "--json")
		if r.code == 0 {
			json.Unmarshal([]byte(r.out), &res)
			var k []string
			for _, x := range res.Entries {
				k = append(k, x.Kind)
			}
			kinds = strings.Join(k, ",")
			if strings.HasSuffix(kinds, "answer") {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no full conversation read (last: %+v, %s)", r, kinds)
		}
	}
	if kinds != "prompt,answer,tool_call,tool_result,edit_diff,answer" || res.Harness != "claude-code" {
		t.Fatalf("kinds %s: %+v", kinds, res)
	}
	x := res.Entries
	if x[0].Text != "Write hello.txt" || x[2].Tool != "Write" || x[2].Text != target || x[4].File != target ||
		x[4].Text != "+hello\n+world" || x[5].Text != answer {
		t.Fatalf("entries: %+v", x)
	}
	e.ok("send-keys", "-s", "work", "-w", "rcc", "ctrl+c")
	e.ok("send-keys", "-s", "work", "-w", "rcc", "ctrl+c")
}
