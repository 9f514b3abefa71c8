package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// heldEnv is a daemon with approvals on for Claude Code and one pane
// whose stand-in agent reports as Claude Code: its hook's
// PermissionRequest events are held for the Inbox.
func heldEnv(t *testing.T) (e *env, window string, person *heldPerson) {
	t.Helper()
	e = newEnv(t)
	cfg := filepath.Join(e.dir, "home", ".config", "tuios")
	os.MkdirAll(cfg, 0o700)
	if err := os.WriteFile(filepath.Join(cfg, "config.toml"), []byte("[agents.approvals]\nenabled = [\"claude-code\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.ok("new", "--detach", "work")
	var st struct {
		WindowID string `json:"window_id"`
	}
	e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
	if st.WindowID == "" {
		t.Fatal("no window id")
	}
	e.ok("set-agent-state", "working", "-s", "work", "-w", "0", "--harness", "claude-code")
	return e, st.WindowID, attachHeldPerson(t, e.socket())
}

// bashRequest is Claude Code's PermissionRequest for a shell command.
func bashRequest(command string) string {
	return `{"session_id":"s1","cwd":"/tmp","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"` + command + `"}}`
}

// hookRun is an agent-hook process started as Claude Code starts it.
type hookRun struct {
	done chan result
}

func startHeldHook(t *testing.T, e *env, window, payload string) *hookRun {
	t.Helper()
	cmd := exec.Command(e.bin, "agent-hook", "claude-code", "--integration", "4", "--explain", "--window", window)
	cmd.Env = e.vars
	cmd.Stdin = strings.NewReader(payload)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &hookRun{done: make(chan result, 1)}
	go func() {
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		h.done <- result{out.String(), errb.String(), code}
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	return h
}

func (h *hookRun) wait(t *testing.T) result {
	t.Helper()
	select {
	case r := <-h.done:
		return r
	case <-time.After(30 * time.Second):
		t.Fatal("agent-hook never returned")
	}
	return result{}
}

// heldOrEnded waits until the pane's approval with summary is held in the
// Inbox, or fails at once when the hook gave up before that.
func (p *heldPerson) heldOrEnded(h *hookRun, window, summary string) map[string]any {
	p.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		items, _ := p.call("list-attention", map[string]any{})["items"].([]any)
		for _, x := range items {
			it := x.(map[string]any)
			if it["window"] == window && it["held_id"] != nil && it["summary"] == summary {
				return it
			}
		}
		select {
		case r := <-h.done:
			p.t.Fatalf("the hook ended before %q was held: %+v\nInbox: %v", summary, r, items)
		default:
		}
	}
	p.t.Fatalf("%q was never held in the Inbox", summary)
	return nil
}

// d.md 14: after the person dismisses a held approval, the same pane's
// next, different request is a new thing to decide: it opens a new
// Approvals item and is held like the first, instead of the hook hearing
// not_blocked and the Inbox saying nothing waits.
func TestHeldApprovalAfterADismissIsHeldAgain(t *testing.T) {
	t.Parallel()
	e, window, person := heldEnv(t)

	one := startHeldHook(t, e, window, bashRequest("echo one"))
	first := person.heldOrEnded(one, window, "approve Bash: echo one")
	person.call("dismiss-attention", map[string]any{"id": first["id"], "human_nonce": person.nonce})
	if r := one.wait(t); r.code != 0 || r.out != "" || !strings.Contains(r.err, "reason dismissed") {
		t.Fatalf("the dismissed hold did not hand the prompt back to the pane: %+v", r)
	}

	if out := e.ok("list-attention"); strings.Contains(out, "echo one") {
		t.Fatalf("the dismissed request is still listed:\n%s", out)
	}

	two := startHeldHook(t, e, window, bashRequest("echo two"))
	second := person.heldOrEnded(two, window, "approve Bash: echo two")
	if second["id"] == first["id"] || second["held_id"] == first["held_id"] {
		t.Fatalf("the new request reused the dismissed item: %v / %v", first, second)
	}
	if out := e.ok("list-attention"); !strings.Contains(out, "approve Bash: echo two") || !strings.Contains(out, "Approvals") {
		t.Fatalf("list-attention does not list the new request:\n%s", out)
	}
	res := person.call("reply-approval", map[string]any{"request_id": second["held_id"], "decision": "deny",
		"message": "not this one", "human_nonce": person.nonce})
	if res["applied"] != true {
		t.Fatalf("reply: %v", res)
	}
	if r := two.wait(t); !strings.Contains(r.out, `"behavior":"deny"`) || !strings.Contains(r.out, "not this one") {
		t.Fatalf("the hook did not pass the deny on: %+v", r)
	}
}
