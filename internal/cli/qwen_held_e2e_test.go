package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/standin"
)

// The real Qwen Code with tuios's integration (v2) and approvals on for
// it: its PermissionRequest hook holds the shell call for the Inbox (Qwen
// Code waits on the hook before it draws its dialog), receives the
// person's reply-approval, and the command runs on once and does not on
// deny; handed back, Qwen Code's own dialog answers it. The settings are those TestRealQwenCodeReportsThroughItsHooks
// found Qwen Code 0.15.10 needs.
func TestRealQwenCodeHoldsApprovalsForTheInbox(t *testing.T) {
	t.Parallel()
	q := findNPMAgent(t, "@qwen-code/qwen-code", "qwen")
	realAgent(t, heavyAgent)
	t.Logf("Qwen Code %s", q.version)
	const allowMark, denyMark, askMark = "tuios-qwen-held-allow", "tuios-qwen-held-deny", "tuios-qwen-held-ask"
	shell := func(mark, file string) standin.Reply {
		return standin.Reply{Tools: []standin.ToolUse{{Name: "run_shell_command",
			Input: map[string]any{"command": "echo " + mark + " > " + file, "description": "Write " + file}}}}
	}
	api := startStandin(t, standin.Options{Turns: []standin.Reply{
		shell(allowMark, "allowed.txt"),
		{Text: "Done: allowed.txt is written."},
		shell(denyMark, "denied.txt"),
		{Text: "Understood, I did not write it."},
		shell(askMark, "asked.txt"),
		{Text: "Done: asked.txt is written."},
	}})

	p := newAgentPane(t)
	e := p.e
	p.write(".qwen/settings.json", `{"general":{"enableAutoUpdate":false},"privacy":{"usageStatisticsEnabled":false},`+
		`"security":{"auth":{"selectedType":"openai"}},"$version":4}`)
	// Read when the daemon starts, which is below (install starts none).
	p.write(".config/tuios/config.toml", "[agents.approvals]\nenabled = [\"qwen\"]\n")
	e.ok("integration", "install", "qwen")
	b, _ := os.ReadFile(filepath.Join(p.home, ".qwen", "settings.json"))
	if !strings.Contains(string(b), "agent-hook qwen --integration 2") || !strings.Contains(string(b), `"timeout": 310000`) {
		t.Fatalf("the installed hooks do not wait long enough on PermissionRequest:\n%s", b)
	}
	e.vars = append(e.vars, "OPENAI_BASE_URL="+api.URL()+"/v1", "OPENAI_API_KEY=sk-tuios-standin", "OPENAI_MODEL=gpt-stand-in")
	p.start(q.shim, `Type your message`, 30*time.Second)
	p.waitReport("idle", 20*time.Second)
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
	if it["summary"] != "approve run_shell_command: echo "+allowMark+" > allowed.txt" || it["kind"] != "approval" {
		t.Fatalf("held item: %v", it)
	}
	time.Sleep(time.Second) // held: Qwen Code waits on the hook
	if _, err := os.Stat(filepath.Join(p.work, "allowed.txt")); err == nil {
		t.Fatal("the command ran before anyone answered")
	}
	if screen := e.ok("capture-pane", "-s", "work"); strings.Contains(screen, "Allow execution of") {
		t.Fatalf("Qwen Code drew its dialog while the hook held the request:\n%s", screen)
	}
	ran := person.allowOnce(e, it, filepath.Join(p.work, "allowed.txt"), allowMark)
	p.wait("done", 60*time.Second)
	t.Logf("figures: prompt sent → held item visible %s (includes the model turn); reply-approval → file written %s", visible, ran)

	// Deny with a reason: the command never runs, the turn goes on to the
	// model's answer and ends.
	p.prompt("Write denied.txt")
	it = person.heldItem(window)
	if it["summary"] != "approve run_shell_command: echo "+denyMark+" > denied.txt" {
		t.Fatalf("held item: %v", it)
	}
	person.deny(window)
	p.wait("done", 60*time.Second)
	if _, err := os.Stat(filepath.Join(p.work, "denied.txt")); err == nil {
		t.Fatal("the denied command ran")
	}

	// Handed back (as when the hold ends unanswered): the hook prints
	// nothing and Qwen Code draws its own dialog, which answers.
	p.prompt("Write asked.txt")
	if it = person.heldItem(window); !strings.Contains(it["summary"].(string), askMark) {
		t.Fatalf("held item: %v", it)
	}
	res := person.call("reply-approval", map[string]any{"window": window, "decision": "ask", "human_nonce": person.nonce})
	if res["applied"] != true {
		t.Fatalf("reply ask: %v", res)
	}
	p.waitScreen(`Allow execution of`, 10*time.Second)
	if _, err := os.Stat(filepath.Join(p.work, "asked.txt")); err == nil {
		t.Fatal("the command ran when the hold was handed back")
	}
	p.approve("Enter", `Allow execution of`) // "1. Yes, allow once" is selected
	p.wait("done", 60*time.Second)
	p.made("asked.txt", askMark)
	p.quit()
}
