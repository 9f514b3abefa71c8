package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeConfig replaces the env's config file.
func writeConfig(t *testing.T, e *env, text string) {
	t.Helper()
	cfg := filepath.Join(e.dir, "home", ".config", "tuios")
	os.MkdirAll(cfg, 0o700)
	if err := os.WriteFile(filepath.Join(cfg, "config.toml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// d.md 15: a held approval is not on the pane's screen, so the shell's
// peek-prompt and respond read and answer the hold itself: peek-prompt
// says it is held in the Inbox and how to answer it, the list-attention
// row reads risky:, and respond answers it with the Inbox's rules (a
// risky allow names its rules, first answer wins, the hook hears it).
func TestHeldApprovalFromAShell(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeConfig(t, e, "[daemon]\nrespond_from_shell = true\n\n[agents.approvals]\nenabled = [\"claude-code\"]\n")
	e.ok("new", "--detach", "s1")
	e.ok("set-window", "-s", "s1", "-w", "0", "--name", "pe")
	var st struct {
		WindowID string `json:"window_id"`
	}
	e.json(&st, "get-agent-state", "-s", "s1", "-w", "pe")
	window := st.WindowID
	e.ok("set-agent-state", "working", "-s", "s1", "-w", "pe", "--harness", "claude-code")
	person := attachHeldPerson(t, e.socket())

	hook := startHeldHook(t, e, window, bashRequest("rm -rf build/"))
	it := person.heldOrEnded(hook, window, "approve Bash: rm -rf build/")

	if out := e.ok("list-attention"); !strings.Contains(out, "risky: approve Bash: rm -rf build/ (held") {
		t.Fatalf("the held row does not read risky::\n%s", out)
	}
	out := e.ok("peek-prompt", "-s", "s1", "-w", "pe")
	for _, want := range []string{"held in the Inbox", "risky: approve Bash: rm -rf build/", "1. Allow once", "3. Deny",
		"risky: recursive delete", "tuios respond -s s1 -w pe --prompt-id " + it["held_id"].(string)} {
		if !strings.Contains(out, want) {
			t.Errorf("peek-prompt lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "not blocked") || strings.Contains(out, "2. ") {
		t.Errorf("peek-prompt:\n%s", out)
	}
	var pk map[string]any
	e.json(&pk, "peek-prompt", "-s", "s1", "-w", "pe", "--json")
	if held, _ := pk["held"].(map[string]any); held == nil || held["request_id"] != it["held_id"] || pk["prompt_id"] != it["held_id"] || pk["answerable"] != true {
		t.Fatalf("peek-prompt --json: %v", pk)
	}

	// Refusals answer nothing: the hook still waits.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"approve"}, "risk_unacknowledged"},
		{[]string{"choose", "2"}, "it offers 1 allow once, 3 deny"},
		{[]string{"text", "yes"}, "not offered"},
		{[]string{"--prompt-id", "0123456789abcdef", "deny"}, "prompt_changed"},
	} {
		r := e.run(append([]string{"respond", "-s", "s1", "-w", "pe"}, tt.args...)...)
		if r.code == 0 || !strings.Contains(r.err, tt.want) {
			t.Errorf("respond %v: %+v, want %q", tt.args, r, tt.want)
		}
	}
	select {
	case r := <-hook.done:
		t.Fatalf("a refused respond ended the hold: %+v", r)
	default:
	}

	r := e.run("respond", "-s", "s1", "-w", "pe", "--prompt-id", it["held_id"].(string), "--risk-ack", "recursive delete", "approve")
	if r.code != 0 || !strings.Contains(r.out, "Answered the held prompt of pe: once") {
		t.Fatalf("respond approve: %+v", r)
	}
	if hr := hook.wait(t); !strings.Contains(hr.out, `"behavior":"allow"`) {
		t.Fatalf("the hook did not hear the allow: %+v", hr)
	}
	if r := e.run("respond", "-s", "s1", "-w", "pe", "deny"); r.code == 0 {
		t.Fatalf("a second answer was taken: %+v", r)
	}

	// choose 3 is the Inbox's deny: one press, no --risk-ack.
	e.ok("set-agent-state", "working", "-s", "s1", "-w", "pe", "--harness", "claude-code")
	hook = startHeldHook(t, e, window, bashRequest("rm -rf dist"))
	person.heldOrEnded(hook, window, "approve Bash: rm -rf dist")
	if r := e.run("respond", "-s", "s1", "-w", "pe", "choose", "3"); r.code != 0 || !strings.Contains(r.out, ": deny;") {
		t.Fatalf("respond choose 3: %+v", r)
	}
	if hr := hook.wait(t); !strings.Contains(hr.out, `"behavior":"deny"`) {
		t.Fatalf("the hook did not hear the deny: %+v", hr)
	}
}

// Without respond_from_shell a shell cannot answer a held approval; the
// refusal says where it can be answered.
func TestHeldApprovalRespondNeedsThePerson(t *testing.T) {
	t.Parallel()
	e, window, person := heldEnv(t)
	hook := startHeldHook(t, e, window, bashRequest("make test"))
	person.heldOrEnded(hook, window, "approve Bash: make test")
	if r := e.run("respond", "-s", "work", "-w", "0", "deny"); r.code == 0 || !strings.Contains(r.err, "not_human") || !strings.Contains(r.err, "attached client") {
		t.Fatalf("respond from a shell: %+v", r)
	}
	select {
	case r := <-hook.done:
		t.Fatalf("the refused respond ended the hold: %+v", r)
	default:
	}
}

// A held plan's row is its title and its length, once; respond keeps it
// planning but approves it only in the Inbox, where it is shown whole.
func TestHeldPlanRowAndRespond(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeConfig(t, e, "[daemon]\nrespond_from_shell = true\n\n[agents.approvals]\nenabled = [\"claude-code\"]\n")
	e.ok("new", "--detach", "s1")
	var st struct {
		WindowID string `json:"window_id"`
	}
	e.json(&st, "get-agent-state", "-s", "s1", "-w", "0")
	e.ok("set-agent-state", "working", "-s", "s1", "-w", "0", "--harness", "claude-code")
	person := attachHeldPerson(t, e.socket())
	plan, _ := json.Marshal("# Add retry\n\n1. read the loop\n2. add backoff\n3. test it\n")
	payload := `{"session_id":"s1","cwd":"/tmp","hook_event_name":"PermissionRequest","tool_name":"ExitPlanMode","tool_input":{"plan":` + string(plan) + `}}`
	hook := startHeldHook(t, e, st.WindowID, payload)
	person.heldOrEnded(hook, st.WindowID, "Add retry (5 lines)")

	out := e.ok("list-attention")
	if !strings.Contains(out, "Plans") || !strings.Contains(out, "Add retry (5 lines) (held") || strings.Count(out, "lines)") != 1 {
		t.Fatalf("the plan row:\n%s", out)
	}
	if r := e.run("respond", "-s", "s1", "-w", "0", "approve"); r.code == 0 || !strings.Contains(r.err, "approved in the Inbox") {
		t.Fatalf("respond approve on a plan: %+v", r)
	}
	if r := e.run("respond", "-s", "s1", "-w", "0", "deny"); r.code != 0 || !strings.Contains(r.out, ": deny;") {
		t.Fatalf("respond deny on a plan: %+v", r)
	}
	if hr := hook.wait(t); !strings.Contains(hr.out, `"behavior":"deny"`) {
		t.Fatalf("the hook did not hear keep planning: %+v", hr)
	}
}
