package cli_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/standin"
)

// The real Codex with tuios's hooks installed: one turn with an
// exec_command call that asks to run outside the sandbox, against the
// Responses API stand-in, and every state of it from Codex's own hooks
// (source report): working during the turn, needs_input naming the
// command on the permission request, done at the end (Stop), and idle when
// the person stops a second turn with Esc (Interrupt). Codex 0.171.0
// runs SessionStart only when the first prompt is submitted (just before
// UserPromptSubmit), not when it opens, so the pane at the prompt is not
// the hooks'; the session id SessionStart gives is checked instead. Then
// uninstall gives hooks.json back as it was.
//
// What Codex 0.171.0 needs, found by running it:
//
//   - ~/.codex/config.toml with a model_provider whose base_url is the
//     stand-in's /v1 and wire_api "responses", its key from env_key; the
//     work directory's trust_level "trusted" (else it asks whether to
//     trust the folder); approval_policy "on-request" with sandbox_mode
//     "read-only", so a command the model asks to run outside the sandbox
//     (sandbox_permissions "require_escalated") waits for approval
//     ("untrusted" is refused by 0.171.0).
//   - Codex as a person runs it: its TUI starts a shared app-server daemon
//     (~/.codex/packages/app-server-daemon) that outlives it and runs every
//     hook, with the environment of the pane that started it; agent-hook
//     finds the pane by the agent's session instead (see
//     TestAHookASharedHelperRunsFindsItsPaneBySession for two panes).
//   - Hook trust: Codex runs new hooks only once trusted. On start it says
//     "Hooks need review" and offers "Trust all and continue", which is
//     what a person does; Codex then writes [hooks.state."<hooks.json>:
//     <event>:<group>:<handler>"] trusted_hash entries to config.toml. (The
//     same hashes can be read without the TUI from `codex app-server`'s
//     hooks/list, field currentHash, and written there by hand.)
func TestRealCodexReportsThroughItsHooks(t *testing.T) {
	t.Parallel()
	cx := findNPMAgent(t, "@openai/codex", "codex")
	realAgent(t, lightAgent)
	if bins, _ := filepath.Glob(filepath.Join(cx.prefix, "node_modules", "@openai", "codex-*", "vendor", "*", "bin", "codex")); len(bins) == 0 {
		t.Skipf("the Codex install under %s has no native binary (no @openai/codex-<platform> package)", cx.prefix)
	}
	t.Logf("Codex %s", cx.version)
	const marker = "tuios-codex-e2e"
	api := startStandin(t, standin.Options{Turns: []standin.Reply{
		{Tools: []standin.ToolUse{{Name: "exec_command", Input: map[string]any{"cmd": "echo " + marker + " > made.txt",
			"sandbox_permissions": "require_escalated", "justification": "Write made.txt?"}}},
			Delay: 500 * time.Millisecond},
		{Text: "Done: made.txt is written.", Delay: 500 * time.Millisecond},
		{Text: "Too late.", Delay: time.Minute}, // a turn the person stops
	}})

	p := newAgentPane(t)
	e := p.e
	p.write(".codex/config.toml", codexConfig(api.URL(), "on-request", "read-only", p.work))
	// A person's own hooks.json, with a hook of their own.
	original := "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"true\"\n          }\n        ]\n      }\n    ]\n  }\n}\n"
	hooks := p.write(".codex/hooks.json", original)
	e.ok("integration", "install", "codex")
	if st := e.ok("integration", "status", "codex"); !strings.Contains(st, "installed") || strings.Contains(st, "not installed") {
		t.Fatalf("status after install:\n%s", st)
	}
	t.Cleanup(func() { killUnder(t, filepath.Join(p.home, ".codex")) })

	e.vars = append(e.vars, "TUIOS_STANDIN_KEY=sk-tuios-standin")
	p.start(cx.shim, `Hooks need review`, 30*time.Second)
	// "2" moves the selection to "2. Trust all and continue" and Enter
	// takes it, but only once the screen shows "› 2." selected: an Enter
	// that lands while "1. Review hooks" is still selected opens Codex's
	// hook manager instead, which Esc leaves.
	for try := 0; ; try++ {
		screen := e.ok("capture-pane", "-s", "work")
		switch {
		case strings.Contains(screen, "Ask Codex to do anything"):
		case strings.Contains(screen, "esc back"):
			e.ok("send-keys", "-s", "work", "Escape")
		case strings.Contains(screen, "Hooks need review"):
			e.ok("send-keys", "-s", "work", "2")
			if r := e.run("wait-for", "window-output", "-s", "work", "--pattern", `› 2\. Trust all`, "--timeout", "5000"); r.code == 0 {
				e.ok("send-keys", "-s", "work", "Enter")
			}
		}
		if r := e.run("wait-for", "window-output", "-s", "work", "--pattern", `Ask Codex to do anything`, "--timeout", "5000"); r.code == 0 {
			break
		}
		if try == 4 {
			t.Fatalf("Codex's prompt never came after trusting the hooks:\n%s", e.ok("capture-pane", "-s", "work"))
		}
	}
	if st := p.get(); st.Source == "report" {
		t.Fatalf("a report before the first prompt: %+v", st)
	}
	events := p.watch()
	p.prompt("Write made.txt")

	st := p.wait("needs_input", 30*time.Second)
	if st.Source != "report" || st.Harness != "codex" || st.BlockedBy != "approval" || !strings.Contains(st.Message, "approve Bash: echo "+marker) {
		t.Fatalf("on the permission request: %+v", st)
	}
	// SessionStart named the conversation: its rollout file is there.
	if rollouts, _ := filepath.Glob(filepath.Join(p.home, ".codex", "sessions", "*", "*", "*", "rollout-*-"+st.SessionID+".jsonl")); st.SessionID == "" || len(rollouts) != 1 {
		t.Fatalf("the session %q has no rollout file", st.SessionID)
	}
	p.waitScreen(`Yes, proceed`, 10*time.Second)
	p.approve("Enter", `Yes, proceed`) // "1. Yes, proceed" is selected
	st = p.wait("done", 30*time.Second)
	if st.Source != "report" || st.CompletionSeq != 1 {
		t.Fatalf("after the turn: %+v\nstates since the prompt: %+v", st, events.all())
	}
	p.made("made.txt", marker)
	if _, ok := events.reported("working", ""); !ok {
		t.Fatalf("no working from the hooks during the turn: %+v", events.all())
	}
	// Esc stops a turn: Interrupt says idle.
	p.prompt("Take your time")
	p.waitReport("working", 20*time.Second)
	e.ok("send-keys", "-s", "work", "Escape")
	if st := p.waitReport("idle", 20*time.Second); st.CompletionSeq != 1 {
		t.Fatalf("after the interrupt: %+v", st)
	}
	b, _ := os.ReadFile(filepath.Join(p.home, ".codex", "config.toml"))
	if n := strings.Count(string(b), "trusted_hash"); n < 10 {
		t.Fatalf("Codex trusted %d hooks:\n%s", n, b)
	}
	p.quit()

	e.ok("integration", "uninstall", "codex")
	if b, _ := os.ReadFile(hooks); string(b) != original {
		t.Fatalf("uninstall left:\n%s\nwant:\n%s", b, original)
	}
}

// killUnder kills, by pid, every process whose executable lies under dir
// (a Codex app-server daemon installed in the scratch home outlives the
// pane).
func killUnder(t *testing.T, dir string) {
	procs, _ := os.ReadDir("/proc")
	for _, pr := range procs {
		pid, err := strconv.Atoi(pr.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", pr.Name(), "exe"))
		if err != nil || !strings.HasPrefix(exe, dir+string(filepath.Separator)) {
			continue
		}
		t.Logf("killing %d %s, left by the agent", pid, exe)
		syscall.Kill(pid, syscall.SIGKILL)
	}
}
