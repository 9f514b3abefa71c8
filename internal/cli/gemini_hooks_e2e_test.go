package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/standin"
)

// geminiInstall is what an npm install of Gemini CLI left.
type geminiInstall struct {
	shim    string // node_modules/.bin/gemini, a node script
	pkg     string // node_modules/@google/gemini-cli
	version string
	node    string // the directory of the node that runs it
}

// findGemini looks for Gemini CLI under $TUIOS_AGENTS_PREFIX (default
// /tmp/agents), an npm prefix, and for the node it needs.
func findGemini(t *testing.T) geminiInstall {
	t.Helper()
	prefix := os.Getenv("TUIOS_AGENTS_PREFIX")
	if prefix == "" {
		prefix = "/tmp/agents"
	}
	in := geminiInstall{shim: filepath.Join(prefix, "node_modules", ".bin", "gemini")}
	target, err := filepath.EvalSymlinks(in.shim)
	if err != nil {
		t.Skipf("Gemini CLI is not installed: %s is missing (npm install @google/gemini-cli under an npm prefix and point TUIOS_AGENTS_PREFIX at it)", in.shim)
	}
	in.pkg = filepath.Dir(filepath.Dir(target)) // bundle/gemini.js
	var pj struct{ Name, Version string }
	b, err := os.ReadFile(filepath.Join(in.pkg, "package.json"))
	if err != nil || json.Unmarshal(b, &pj) != nil || pj.Name != "@google/gemini-cli" || pj.Version == "" {
		t.Skipf("Gemini CLI is not installed: %s does not lead to the @google/gemini-cli package", in.shim)
	}
	in.version = pj.Version
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("Gemini CLI is installed but node is not on PATH")
	}
	in.node = filepath.Dir(node)
	return in
}

// seedGeminiHome answers Gemini CLI's first-run questions, found by trying
// each in tmux on 0.61.0: the folder trust question for work (also the
// switch for hooks: Gemini CLI runs no settings hook in an untrusted
// folder) is answered in ~/.gemini/trustedFolders.json; the sign-in
// choice, and the key entry that follows it, by
// security.auth.selectedType in the settings the test writes. The theme
// is not asked. The update check (a request to the npm registry) and
// usage statistics are turned off there too.
func seedGeminiHome(t *testing.T, home, work string) {
	t.Helper()
	dir := filepath.Join(home, ".gemini")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]string{work: "TRUST_FOLDER"})
	if err := os.WriteFile(filepath.Join(dir, "trustedFolders.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// The real Gemini CLI with tuios's integration installed: one turn with a
// shell command against the Gemini API stand-in, and every state of it
// from the agent's own hooks (source report): idle after SessionStart,
// working during the turn (BeforeAgent, BeforeTool, AfterTool),
// needs_input with its message on the ToolPermission notification, done
// at AfterAgent. The {} each hook prints for Gemini CLI shows neither on
// the screen nor in what the model is sent. Then uninstall gives the
// settings file back byte for byte.
func TestRealGeminiCLIReportsThroughItsHooks(t *testing.T) {
	t.Parallel()
	in := findGemini(t)
	realAgent(t, heavyAgent)
	const marker = "tuios-hook-e2e"
	const answer = "Done: made.txt is written."
	api := startGeminiStandin(t, standin.Options{Turns: []standin.Reply{
		{Tools: []standin.ToolUse{{Name: "run_shell_command", Input: map[string]any{"command": "echo " + marker + " > made.txt", "description": "Write made.txt"}}},
			Delay: 500 * time.Millisecond},
		{Text: answer, Delay: 500 * time.Millisecond},
	}})

	e := newEnv(t)
	home := filepath.Join(e.dir, "home")
	work := e.workDir()
	seedGeminiHome(t, home, work)
	settings := filepath.Join(home, ".gemini", "settings.json")
	// A person's own settings, with a hook of their own (silent, as Gemini
	// CLI wants).
	original := "{\n  \"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}},\n" +
		"  \"general\": {\"enableAutoUpdate\": false, \"enableAutoUpdateNotification\": false},\n" +
		"  \"privacy\": {\"usageStatisticsEnabled\": false},\n" +
		"  \"hooks\": {\n    \"AfterAgent\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]\n  }\n}\n"
	if err := os.WriteFile(settings, []byte(original), 0o600); err != nil {
		t.Fatal(err)
	}
	e.ok("integration", "install", "gemini-cli")
	if st := e.ok("integration", "status", "gemini-cli"); !strings.Contains(st, "installed") || strings.Contains(st, "not installed") {
		t.Fatalf("status after install:\n%s", st)
	}

	for i, v := range e.vars {
		if strings.HasPrefix(v, "PATH=") {
			e.vars[i] = v + ":" + in.node
		}
	}
	e.vars = append(e.vars,
		"GOOGLE_GEMINI_BASE_URL="+api.URL(),
		"GEMINI_API_KEY=standin-gemini-key",
		"DISABLE_AUTOUPDATER=1",
	)
	e.ok("new", "--detach", "work")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", `(?m)^\$`, "--timeout", "10000")
	e.ok("send-text", "-s", "work", "cd "+work+" && "+in.shim+"\n")
	if r := e.run("wait-for", "window-output", "-s", "work", "--pattern", `Type your message`, "--timeout", "30000"); r.code != 0 {
		t.Fatalf("Gemini CLI's prompt never came:\n%s", e.ok("capture-pane", "-s", "work"))
	}
	get := func() hookState {
		var s hookState
		e.json(&s, "get-agent-state", "-s", "work", "-w", "0")
		return s
	}
	wait := func(state string) hookState {
		t.Helper()
		if r := e.run("wait-for", "agent-state", "-s", "work", "-w", "0", "--until", state, "--timeout", "20000"); r.code != 0 {
			t.Fatalf("the pane never read %s (now %+v):\n%s", state, get(), e.ok("capture-pane", "-s", "work"))
		}
		return get()
	}
	// SessionStart: idle at the input prompt, from the hook.
	st := wait("idle")
	if st.Source != "report" || st.Harness != "gemini-cli" || st.SessionID == "" {
		t.Fatalf("at the prompt: %+v", st)
	}
	events := e.watchAgentEvents(t)
	e.typeLine("", "Write made.txt")

	// The ToolPermission notification.
	st = wait("needs_input")
	if st.Source != "report" || st.BlockedBy != "approval" || !strings.Contains(st.Message, "approve shell: echo "+marker) {
		t.Fatalf("on the permission request: %+v", st)
	}
	if _, err := os.Stat(filepath.Join(work, "made.txt")); err == nil {
		t.Fatal("the command ran before it was approved")
	}
	// The notification comes as the dialog is drawn; an Enter before it
	// takes keys is lost.
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", `Allow once`, "--timeout", "10000")
	time.Sleep(500 * time.Millisecond)
	e.ok("send-keys", "-s", "work", "Enter") // "1. Allow once" is selected
	st = wait("done")
	if st.Source != "report" || st.CompletionSeq != 1 {
		t.Fatalf("after the turn: %+v\nstates since the prompt: %+v", st, events.all())
	}
	if b, err := os.ReadFile(filepath.Join(work, "made.txt")); err != nil || !strings.Contains(string(b), marker) {
		t.Fatalf("the approved command did not run: %v %q", err, b)
	}
	events.settled("", "done", 10*time.Second) // the events stream may trail the wait
	var seen []string
	for _, ev := range events.all() {
		if ev.Window != "" && ev.Source == "report" && (len(seen) == 0 || seen[len(seen)-1] != ev.State) {
			seen = append(seen, ev.State)
		}
	}
	if got := strings.Join(seen, " "); !strings.Contains(got, "working needs_input working done") {
		t.Fatalf("the states from the hooks during the turn: %s (events %+v)", got, events.all())
	}

	// The hooks' {} is for Gemini CLI alone: not on the screen, not in
	// what the model was sent (the prompt, the tool's result).
	// (Gemini CLI shows the answer once the AfterAgent hooks are through,
	// a moment after done.)
	if r := e.run("wait-for", "window-output", "-s", "work", "--pattern", answer, "--timeout", "10000"); r.code != 0 {
		t.Fatalf("the answer is not on the screen:\n%s", e.ok("capture-pane", "-s", "work"))
	}
	screen := e.ok("capture-pane", "-s", "work")
	// (A hook's output that Gemini CLI cannot read as one JSON object is
	// shown as a message, "ℹ {}"; the line naming a running hook shows its
	// command, suffix included, and is not that.)
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "{}") && !strings.Contains(line, "agent-hook") {
			t.Fatalf("a hook's {} is on the screen:\n%s", screen)
		}
	}
	turns := 0
	for _, r := range api.Requests() {
		if r.Kind != "turn" {
			continue
		}
		turns++
		// The prompt as typed: a BeforeAgent hook's output would be added
		// to it.
		if n := len(r.Texts); n == 0 || r.Texts[n-1] != "user: Write made.txt" {
			t.Fatalf("the prompt the model was sent in request %d: %q", r.Seq, r.Texts)
		}
		for _, s := range append(append([]string{}, r.Texts...), r.FunctionResponses...) {
			if strings.Contains(s, "{}") {
				t.Fatalf("a hook's {} reached the model in request %d: %q", r.Seq, s)
			}
		}
	}
	if turns != 2 {
		t.Fatalf("the model was asked %d times, want 2 (the call, then the answer): %+v", turns, api.Requests())
	}

	e.ok("send-keys", "-s", "work", "ctrl+c")
	e.ok("send-keys", "-s", "work", "ctrl+c")
	// SessionEnd: the agent left.
	if st = wait("none"); st.Source != "" {
		t.Fatalf("after exit: %+v", st)
	}

	e.ok("integration", "uninstall", "gemini-cli")
	if b, _ := os.ReadFile(settings); string(b) != original {
		t.Fatalf("uninstall left:\n%s\nwant:\n%s", b, original)
	}
}
