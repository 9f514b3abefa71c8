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

// A fan of three real agents on one prompt, against the model API
// stand-ins: Claude Code, Gemini CLI and Codex, each in its own worktree,
// each stand-in scripting a different change (a file of its own). Then
// the comparison, a real check (test -f) that only the first attempt
// passes, keep --merge of that one, and the others removed: the
// repository's history holds exactly the kept work.
//
// What each needs to run unattended, found by running them: Claude Code
// its ~/.claude.json (onboarding done, the key approved, each worktree
// trusted) and --permission-mode acceptEdits, so its Write runs without
// asking; Gemini CLI its trustedFolders.json and settings (the API key
// sign-in) and --yolo; Codex a config.toml naming the stand-in, each
// worktree trusted, approval_policy "never" and no sandbox. Claude Code
// and Gemini CLI report their state through tuios's hooks; Codex, without
// hooks (it asks to review new hooks before it runs), is ready once its
// screen rests (prompt_ready_by quiet).
func TestRealAgentsFanOfThreeKeepOne(t *testing.T) {
	t.Parallel()
	claude := findNativeClaude(t)
	gem := findGemini(t)
	cx := findNPMAgent(t, "@openai/codex", "codex")
	realAgent(t, heavyAgent)
	if bins, _ := filepath.Glob(filepath.Join(cx.prefix, "node_modules", "@openai", "codex-*", "vendor", "*", "bin", "codex")); len(bins) == 0 {
		t.Skipf("the Codex install under %s has no native binary", cx.prefix)
	}
	t.Logf("Claude Code %s, Gemini CLI %s, Codex %s", claude.version, gem.version, cx.version)

	e := newEnv(t)
	repo := fanRepo(t, e)
	home := filepath.Join(e.dir, "home")
	data := filepath.Join(home, ".local", "share", "tuios", "worktrees", "api")
	wt := []string{filepath.Join(data, "fan-real"), filepath.Join(data, "fan-real-2"), filepath.Join(data, "fan-real-3")}

	// The stand-ins: each agent is scripted to write its own file.
	anthropic := startStandin(t, standin.Options{Turns: []standin.Reply{
		{Tools: []standin.ToolUse{{Name: "Write", Input: map[string]any{"file_path": filepath.Join(wt[0], "claude.txt"), "content": "from claude\n"}}},
			Delay: 300 * time.Millisecond},
		{Text: "Done: claude.txt is written.", Delay: 300 * time.Millisecond},
	}})
	gemAPI := startGeminiStandin(t, standin.Options{Turns: []standin.Reply{
		{Tools: []standin.ToolUse{{Name: "run_shell_command", Input: map[string]any{"command": "echo from gemini > gemini.txt", "description": "Write gemini.txt"}}},
			Delay: 300 * time.Millisecond},
		{Text: "Done: gemini.txt is written.", Delay: 300 * time.Millisecond},
	}})
	openai := startStandin(t, standin.Options{Turns: []standin.Reply{
		{Tools: []standin.ToolUse{{Name: "exec_command", Input: map[string]any{"cmd": "echo from codex > codex.txt"}}}, Delay: 300 * time.Millisecond},
		{Text: "Done: codex.txt is written.", Delay: 300 * time.Millisecond},
	}})

	// Claude Code: onboarding, the key, and every worktree trusted.
	projects := map[string]any{}
	for _, d := range wt {
		projects[d] = map[string]any{"hasTrustDialogAccepted": true}
	}
	writeJSON(t, filepath.Join(home, ".claude.json"), map[string]any{"hasCompletedOnboarding": true,
		"customApiKeyResponses": map[string]any{"approved": []string{standinKey[len(standinKey)-20:]}, "rejected": []string{}}, "projects": projects})
	// Gemini CLI: the worktrees trusted, the API key sign-in, no update
	// checks.
	trusted := map[string]string{}
	for _, d := range wt {
		trusted[d] = "TRUST_FOLDER"
	}
	writeJSON(t, filepath.Join(home, ".gemini", "trustedFolders.json"), trusted)
	writeJSON(t, filepath.Join(home, ".gemini", "settings.json"), map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"general": map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false}, "privacy": map[string]any{"usageStatisticsEnabled": false}})
	// Codex: the stand-in as its model provider, the worktrees trusted,
	// no approvals and no sandbox.
	codexConf := codexConfig(openai.URL(), "never", "danger-full-access", wt...)
	os.MkdirAll(filepath.Join(home, ".codex"), 0o700)
	os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte(codexConf), 0o600)
	t.Cleanup(func() { killUnder(t, filepath.Join(home, ".codex")) })

	for i, v := range e.vars {
		if strings.HasPrefix(v, "PATH=") {
			e.vars[i] = v + ":" + filepath.Join(claude.prefix, "node_modules", ".bin") + ":" + gem.node
		}
	}
	e.vars = append(e.vars, "ANTHROPIC_BASE_URL="+anthropic.URL(), "ANTHROPIC_API_KEY="+standinKey, "DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "GOOGLE_GEMINI_BASE_URL="+gemAPI.URL(), "GEMINI_API_KEY=standin-gemini-key",
		"TUIOS_STANDIN_KEY=sk-tuios-standin")
	os.MkdirAll(filepath.Join(home, ".claude"), 0o700)
	e.ok("integration", "install", "claude-code")
	e.ok("integration", "install", "gemini-cli")

	start := time.Now()
	r := e.run("fan", "3", "Write your file.", "--agent", "claude --permission-mode acceptEdits,gemini --yolo,codex", "--name", "real",
		"--repo", repo, "--wait", "--ready-timeout", "120000", "--json")
	if r.code != 0 || !json.Valid([]byte(r.out)) {
		for _, s := range []string{"api-fan-real", "api-fan-real-2", "api-fan-real-3"} {
			t.Logf("%s:\n%s", s, e.run("capture-pane", "-s", s).out)
		}
		t.Fatalf("fan: %+v", r)
	}
	t.Logf("fan of 3 real agents: every prompt typed %v after the call", time.Since(start).Round(time.Millisecond))
	for _, a := range attemptsOf(t, r.out) {
		t.Logf("%s %s: %s (ready by %s)", a["session"], a["agent"], a["prompt_status"], a["prompt_ready_by"])
		if a["prompt_status"] != "sent" {
			t.Fatalf("attempt %v: %v", a["session"], a)
		}
	}
	// Each agent finishes its turn and says so on its screen.
	for i, s := range []struct{ session, file string }{{"api-fan-real", "claude.txt"}, {"api-fan-real-2", "gemini.txt"}, {"api-fan-real-3", "codex.txt"}} {
		if r := e.run("wait-for", "window-output", "-s", s.session, "--pattern", "Done: "+strings.ReplaceAll(s.file, ".", `\.`)+" is written", "--timeout", "90000"); r.code != 0 {
			t.Fatalf("%s never finished:\n%s", s.session, e.ok("capture-pane", "-s", s.session))
		}
		if b, err := os.ReadFile(filepath.Join(wt[i], s.file)); err != nil || !strings.HasPrefix(string(b), "from ") {
			t.Fatalf("%s: %q %v", s.file, b, err)
		}
	}

	cmp := e.ok("fan", "compare", "api-fan-real")
	t.Logf("\n%s", cmp)
	for _, want := range []string{"Compare fan/real in api, 3 attempts vs main", "api-fan-real-3"} {
		if !strings.Contains(cmp, want) {
			t.Fatalf("compare lacks %q", want)
		}
	}
	if r := e.run("fan", "verify", "api-fan-real", "--", "test -f claude.txt && grep -q claude claude.txt"); r.code != 1 ||
		!strings.Contains(r.out, "api-fan-real: passed") || !strings.Contains(r.out, "api-fan-real-2: failed, exit 1") || !strings.Contains(r.out, "api-fan-real-3: failed, exit 1") {
		t.Fatalf("verify: %+v", r)
	}
	// The agents may leave files of their own in their worktrees: --force.
	out := e.ok("fan", "keep", "api-fan-real", "--merge", "--force")
	t.Logf("\n%s", out)
	if got := e.git(repo, "ls-tree", "-r", "--name-only", "main"); got != "a.txt\nclaude.txt" {
		t.Fatalf("main holds:\n%s", got)
	}
	if got := e.git(repo, "show", "main:claude.txt"); got != "from claude" {
		t.Fatalf("main:claude.txt = %q", got)
	}
	log := strings.Split(e.git(repo, "log", "--topo-order", "--format=%s", "main"), "\n")
	if len(log) != 3 || !strings.HasPrefix(log[0], "Merge branch 'fan/real'") || !strings.HasPrefix(log[1], "Work the agent left uncommitted in fan/real") || log[2] != "first" {
		t.Fatalf("history: %q", log)
	}
	for _, d := range wt[1:] {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Fatalf("%s is still there", d)
		}
	}
	if b := e.git(repo, "branch", "--format=%(refname:short)", "--list", "fan/*"); b != "fan/real\nfan/real-2\nfan/real-3" {
		t.Fatalf("branches: %q", b)
	}
	e.run("send-keys", "-s", "api-fan-real", "ctrl+c")
	e.run("send-keys", "-s", "api-fan-real", "ctrl+c")
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o700)
	b, _ := json.MarshalIndent(v, "", "  ")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func attemptsOf(t *testing.T, out string) []map[string]any {
	t.Helper()
	var res struct {
		Attempts []map[string]any `json:"attempts"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	return res.Attempts
}
