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

// The real opencode with tuios's plugin (v3) and approvals on for it: the
// plugin reports the bash call's permission request, holds it for the
// Inbox through agent-hook --hold, and hands the person's reply-approval
// to opencode's permission reply. The command runs on once and does not on
// deny; handed back, opencode's own prompt answers it. opencode draws that
// prompt meanwhile (it is the fallback), so the test never touches the
// pane between the prompt and the reply.
func TestRealOpencodeHoldsApprovalsForTheInbox(t *testing.T) {
	t.Parallel()
	oc := findNPMAgent(t, "opencode-ai", "opencode")
	if !isELF(oc.shim) {
		t.Skip("this opencode install has no native binary at bin/opencode.exe (its postinstall did not run)")
	}
	opencodeLikeHeld(t, oc, opencodeLike{harness: "opencode", dir: ".config/opencode", config: "opencode.json",
		schema: "https://opencode.ai/config.json", env: "OPENCODE_"})
}

// Kilo loads the same plugin; its permission reply is opencode's.
func TestRealKiloHoldsApprovalsForTheInbox(t *testing.T) {
	t.Parallel()
	k := findNPMAgent(t, "@kilocode/cli", "kilo")
	opencodeLikeHeld(t, k, opencodeLike{harness: "kilo", dir: ".config/kilo", config: "kilo.json",
		schema: "https://kilo.ai/config.json", env: "KILO_"})
}

func opencodeLikeHeld(t *testing.T, a npmAgent, h opencodeLike) {
	realAgent(t, heavyAgent)
	t.Logf("%s %s", h.harness, a.version)
	allowMark, denyMark, askMark := "tuios-"+h.harness+"-held-allow", "tuios-"+h.harness+"-held-deny", "tuios-"+h.harness+"-held-ask"
	bash := func(mark, file string) standin.Reply {
		return standin.Reply{Tools: []standin.ToolUse{{Name: "bash",
			Input: map[string]any{"command": "echo " + mark + " > " + file, "description": "Write " + file}}}}
	}
	api := startStandin(t, standin.Options{Turns: []standin.Reply{
		bash(allowMark, "allowed.txt"),
		{Text: "Done: allowed.txt is written."},
		bash(denyMark, "denied.txt"),
		{Text: "Understood, I did not write it."},
		bash(askMark, "asked.txt"),
		{Text: "Done: asked.txt is written."},
	}})

	p := newAgentPane(t)
	e := p.e
	cfg, _ := json.MarshalIndent(map[string]any{
		"$schema":    h.schema,
		"autoupdate": false,
		"share":      "disabled",
		"model":      "standin/gpt-stand-in",
		"permission": map[string]any{"bash": "ask"}, // bash is allowed by default: no request without this
		"provider": map[string]any{"standin": map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "Stand-in",
			"options": map[string]any{"baseURL": api.URL() + "/v1", "apiKey": "sk-tuios-standin"},
			"models":  map[string]any{"gpt-stand-in": map[string]any{"name": "GPT stand-in", "tool_call": true}},
		}},
	}, "", "  ")
	p.write(h.dir+"/"+h.config, string(cfg)+"\n")
	// Read when the daemon starts, which is below (install starts none).
	p.write(".config/tuios/config.toml", "[agents.approvals]\nenabled = [\""+h.harness+"\"]\n")
	e.ok("integration", "install", h.harness)
	plugin, _ := os.ReadFile(filepath.Join(p.home, filepath.FromSlash(h.dir), "plugins", "tuios.js"))
	if !strings.HasPrefix(string(plugin), "// tuios-integration: "+h.harness+" v3") {
		t.Fatalf("the installed plugin is not v3:\n%.200s", plugin)
	}

	e.vars = append(e.vars, h.env+"DISABLE_AUTOUPDATE=1", h.env+"DISABLE_MODELS_FETCH=1", h.env+"DISABLE_LSP_DOWNLOAD=1")
	// Its first start installs the plugin's dependency from the npm
	// registry (10 to 25 s on a quiet machine, a few times that on a busy
	// one) before it draws anything; the process's first opencode test
	// does, the later ones start with it in place (agentDeps).
	if h.harness == "opencode" {
		opencodeDeps(a.version).seed(t, filepath.Join(p.home, filepath.FromSlash(h.dir)))
	}
	p.start(a.shim, `Ask anything`, 120*time.Second)
	person := attachHeldPerson(t, e.socket())
	var st struct {
		WindowID string `json:"window_id"`
	}
	e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
	window := st.WindowID
	if window == "" {
		t.Fatal("no window id")
	}

	// Allow once: the command runs, the turn ends.
	p.prompt("Write allowed.txt")
	t0 := time.Now()
	it := person.heldItem(window)
	visible := time.Since(t0)
	if it["summary"] != "approve bash: echo "+allowMark+" > allowed.txt" || it["kind"] != "approval" {
		t.Fatalf("held item: %v", it)
	}
	time.Sleep(time.Second) // held: opencode waits on its permission request
	if _, err := os.Stat(filepath.Join(p.work, "allowed.txt")); err == nil {
		t.Fatal("the command ran before anyone answered")
	}
	ran := person.allowOnce(e, it, filepath.Join(p.work, "allowed.txt"), allowMark)
	p.wait("done", 60*time.Second)
	t.Logf("figures: prompt sent → held item visible %s (includes the model turn); reply-approval → file written %s", visible, ran)

	// Deny with a reason: the command never runs, the turn goes on to
	// the model's answer and ends.
	p.prompt("Write denied.txt")
	it = person.heldItem(window)
	if it["summary"] != "approve bash: echo "+denyMark+" > denied.txt" {
		t.Fatalf("held item: %v", it)
	}
	person.deny(window)
	p.wait("done", 60*time.Second)
	if _, err := os.Stat(filepath.Join(p.work, "denied.txt")); err == nil {
		t.Fatal("the denied command ran")
	}

	// Handed back (as when the hold ends unanswered): the plugin sends
	// nothing and opencode's own prompt, there all along, answers.
	p.prompt("Write asked.txt")
	if it = person.heldItem(window); !strings.Contains(it["summary"].(string), askMark) {
		t.Fatalf("held item: %v", it)
	}
	res := person.call("reply-approval", map[string]any{"window": window, "decision": "ask", "human_nonce": person.nonce})
	if res["applied"] != true {
		t.Fatalf("reply ask: %v", res)
	}
	time.Sleep(time.Second)
	if _, err := os.Stat(filepath.Join(p.work, "asked.txt")); err == nil {
		t.Fatal("the command ran when the hold was handed back")
	}
	p.approve("Enter", `Allow once`)
	p.wait("done", 60*time.Second)
	p.made("asked.txt", askMark)
	e.ok("send-keys", "-s", "work", "ctrl+c")
}
