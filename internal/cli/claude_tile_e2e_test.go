package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/standin"
)

// Issue 33 items 5 and 6 with the real Claude Code and its integration,
// against the Messages API stand-in: the model asks to run rm -rf build/
// with a description long enough to push the command off a 10-row tile.
// The risk rules judge the command whatever the tile shows (the hook's
// line names it, and the dialog is read whole from the history): the
// Inbox row reads risky:, an allow without --risk-ack is refused and
// presses nothing, and with it the command runs.
//
// Without the integration Claude Code's transcript keeps the pane
// working over its permission dialog (issue 27 item 2), so the screen
// alone is covered by the pretend agent's tests.
func TestRealClaudeCodeRiskyPromptInAShortTile(t *testing.T) {
	t.Parallel()
	in := findNativeClaude(t)
	realAgent(t, lightAgent)
	why := "Clean the build directory" + strings.Repeat(", so the next build starts from nothing left over by the last one", 5)
	api := startStandin(t, standin.Options{Turns: []standin.Reply{
		// A description of four rows pushes the command off the tile.
		{Tools: []standin.ToolUse{{Name: "Bash", Input: map[string]any{"command": "rm -rf build/", "description": why}}},
			Delay: 300 * time.Millisecond},
		{Text: "Done: build/ is gone.", Delay: 300 * time.Millisecond},
	}})

	e := shellRespondEnv(t)
	home, work := e.seedClaude()
	if err := os.MkdirAll(filepath.Join(work, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The daemon is running already: the pane gets the stand-in through env.
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	e.ok("integration", "install", "claude-code")
	e.ok("new-window", "-s", "work", "claude", "--cwd", work, "--", "env", "ANTHROPIC_BASE_URL="+api.URL(), "ANTHROPIC_API_KEY="+standinKey,
		"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", in.shim)
	e.shortTile(200, 11) // two tiles of 100x10
	if r := e.run("wait-for", "window-output", "-s", "work", "-w", "claude", "--pattern", `for shortcuts`, "--timeout", "60000"); r.code != 0 {
		t.Fatalf("Claude Code's prompt never came:\n%s", e.ok("capture-pane", "-s", "work", "-w", "claude"))
	}
	e.typeLine("claude", "Clean the build directory")
	if r := e.run("wait-for", "agent-state", "-s", "work", "-w", "claude", "--until", "needs_input", "--timeout", "60000"); r.code != 0 {
		t.Fatalf("no permission prompt:\n%s\n%s\n%s", e.ok("capture-pane", "-s", "work", "-w", "claude", "--scrollback"),
			e.ok("explain-agent-screen", "-s", "work", "-w", "claude"), e.ok("get-agent-state", "-s", "work", "-w", "claude", "--json"))
	}
	// The hook says it first; the dialog is painted a moment later.
	e.ok("wait-for", "window-output", "-s", "work", "-w", "claude", "--pattern", "Do you want to proceed", "--timeout", "20000")
	scr := e.ok("capture-pane", "-s", "work", "-w", "claude")
	t.Logf("the 10-row tile:\n%s", scr)

	if out := e.ok("list-attention"); !strings.Contains(out, "work/claude  risky: approve Bash: rm -rf build/") ||
		!strings.Contains(out, "risky: recursive delete: deletes a tree of files without asking (rm -rf build/)") {
		t.Fatalf("list-attention:\n%s", out)
	}
	var pk struct {
		peekJSON
		NotWhole string `json:"not_whole"`
	}
	e.json(&pk, "peek-prompt", "-s", "work", "-w", "claude")
	t.Logf("peek: risk %v, not_whole %q, lines:\n%s", pk.Risk, pk.NotWhole, strings.Join(pk.Lines, "\n"))
	if !pk.Answerable || len(pk.Risk) == 0 {
		t.Fatalf("a risky prompt in a short tile reads as safe: %+v", pk)
	}
	if strings.Contains(scr, "rm -rf build/") {
		t.Fatalf("the tile shows the command; the test would show nothing:\n%s", scr)
	}
	if !has(pk.Risk, "recursive delete") || !strings.Contains(strings.Join(pk.Lines, "\n"), "rm -rf build/") {
		t.Fatalf("the command the tile cut was not judged: risk %v", pk.Risk)
	}
	r := e.fails("risk_unacknowledged", "respond", "-s", "work", "-w", "claude", "--prompt-id", pk.PromptID, "approve")
	t.Logf("refused: %s", r.err)
	if _, err := os.Stat(filepath.Join(work, "build")); err != nil {
		t.Fatalf("an unacknowledged allow ran the command: %v", err)
	}
	e.json(new(respondJSON), "respond", "-s", "work", "-w", "claude", "--prompt-id", pk.PromptID, "--risk-ack", strings.Join(pk.Risk, ","), "approve")
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(work, "build")); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the acknowledged allow did not run rm -rf build/:\n%s", e.ok("capture-pane", "-s", "work", "-w", "claude"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	e.ok("send-keys", "-s", "work", "-w", "claude", "ctrl+c")
	e.ok("send-keys", "-s", "work", "-w", "claude", "ctrl+c")
}
