package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/standin"
)

// The real Claude Code with tuios's integration installed: one turn with a
// tool call against the Messages API stand-in, and every state of it from
// the agent's own hooks (source report): idle at the input prompt, working
// during the turn, needs_input with the tool and its command on the
// permission request, done at the end. Then uninstall gives the settings
// file back as it was.
func TestRealClaudeCodeReportsThroughItsHooks(t *testing.T) {
	t.Parallel()
	in := findNativeClaude(t)
	realAgent(t, lightAgent)
	const marker = "tuios-hook-e2e"
	api := startStandin(t, standin.Options{Turns: []standin.Reply{
		{Tools: []standin.ToolUse{{Name: "Bash", Input: map[string]any{"command": "echo " + marker + " > made.txt", "description": "Write made.txt"}}},
			Delay: 500 * time.Millisecond},
		{Text: "Done: made.txt is written.", Delay: 500 * time.Millisecond},
	}})

	e := newEnv(t)
	home, work := e.seedClaude()
	settings := filepath.Join(home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	// A person's own settings, with a hook of their own. (Claude Code
	// rewrites a "model" key it does not like on start, so none is here:
	// the point is what tuios changes.)
	original := "{\n  \"env\": {\"TUIOS_E2E\": \"1\"},\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]\n  }\n}\n"
	if err := os.WriteFile(settings, []byte(original), 0o600); err != nil {
		t.Fatal(err)
	}
	e.ok("integration", "install", "claude-code")
	if st := e.ok("integration", "status", "claude-code"); !strings.Contains(st, "installed") || strings.Contains(st, "not installed") {
		t.Fatalf("status after install:\n%s", st)
	}

	e.vars = append(e.vars,
		"ANTHROPIC_BASE_URL="+api.URL(),
		"ANTHROPIC_API_KEY="+standinKey,
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	)
	e.ok("new", "--detach", "work")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", `(?m)^\$`, "--timeout", "10000")
	e.ok("send-text", "-s", "work", "cd "+work+" && "+in.shim+"\n")
	if r := e.run("wait-for", "window-output", "-s", "work", "--pattern", `for shortcuts`, "--timeout", "60000"); r.code != 0 {
		t.Fatalf("Claude Code's prompt never came:\n%s", e.ok("capture-pane", "-s", "work"))
	}
	var st hookState
	get := func() hookState {
		var s hookState
		e.json(&s, "get-agent-state", "-s", "work", "-w", "0")
		return s
	}
	wait := func(state string) hookState {
		t.Helper()
		if r := e.run("wait-for", "agent-state", "-s", "work", "-w", "0", "--until", state, "--timeout", "60000"); r.code != 0 {
			t.Fatalf("the pane never read %s (now %+v):\n%s", state, get(), e.ok("capture-pane", "-s", "work"))
		}
		return get()
	}
	// SessionStart: idle at the input prompt, from the hook.
	st = wait("idle")
	if st.Source != "report" || st.Harness != "claude-code" || st.SessionID == "" {
		t.Fatalf("at the prompt: %+v", st)
	}
	events := e.watchAgentEvents(t)
	e.typeLine("", "Write made.txt")

	st = wait("needs_input")
	if st.Source != "report" || st.BlockedBy != "approval" || !strings.Contains(st.Message, "approve Bash: echo "+marker) {
		t.Fatalf("on the permission request: %+v", st)
	}
	e.ok("send-keys", "-s", "work", "Enter") // "1. Yes" is selected
	st = wait("done")
	if st.Source != "report" || st.CompletionSeq != 1 {
		t.Fatalf("after the turn: %+v", st)
	}
	if b, err := os.ReadFile(filepath.Join(work, "made.txt")); err != nil || !strings.Contains(string(b), marker) {
		t.Fatalf("the approved command did not run: %v %q", err, b)
	}
	sawWorking := false
	for _, ev := range events.all() {
		if ev.Window != "" && ev.State == "working" && ev.Source == "report" {
			sawWorking = true
		}
	}
	if !sawWorking {
		t.Fatalf("no working from the hooks during the turn: %+v", events.all())
	}
	e.ok("send-keys", "-s", "work", "ctrl+c")
	e.ok("send-keys", "-s", "work", "ctrl+c")

	e.ok("integration", "uninstall", "claude-code")
	if b, _ := os.ReadFile(settings); string(b) != original {
		t.Fatalf("uninstall left:\n%s\nwant:\n%s", b, original)
	}
}
