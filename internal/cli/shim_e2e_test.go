package cli_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The old Claude Code shim in integrations/claude-code runs tuios
// agent-hook from a real pane: prompt submit working, a permission
// notification (typed or not) needs_input with its message, stop done; outside tuios it
// exits 0 and reports nothing.
func TestClaudeCodeShimReportsFromAPane(t *testing.T) {
	t.Parallel()
	shim, err := filepath.Abs("../../integrations/claude-code/tuios-state.sh")
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", `(?m)^\$`, "--timeout", "10000")
	hook := func(json string) {
		t.Helper()
		paneRun(t, e, "0", "printf '%s' '"+json+"' | TUIOS_BIN="+e.bin+" sh "+shim+"; echo rc=$?")
	}
	state := func() (string, string) {
		var st struct {
			State   string `json:"state"`
			Message string `json:"message"`
		}
		e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
		return st.State, st.Message
	}
	hook(`{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"hi"}`)
	if st, _ := state(); st != "working" {
		t.Fatalf("after UserPromptSubmit: %s", st)
	}
	hook(`{"hook_event_name":"Notification","session_id":"s1","notification_type":"permission_prompt","message":"Claude needs your permission to use \"Bash\""}`)
	if st, msg := state(); st != "needs_input" || msg != `Claude needs your permission to use "Bash"` {
		t.Fatalf("after Notification: %s %q", st, msg)
	}
	// The older Notification, with no notification_type, says the same.
	hook(`{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"again"}`)
	hook(`{"hook_event_name":"Notification","session_id":"s1","message":"Claude needs your permission to use Write"}`)
	if st, msg := state(); st != "needs_input" || msg != "Claude needs your permission to use Write" {
		t.Fatalf("after a Notification without a type: %s %q", st, msg)
	}
	hook(`{"hook_event_name":"Stop","session_id":"s1"}`)
	if st, _ := state(); st != "done" {
		t.Fatalf("after Stop: %s", st)
	}

	// Outside tuios: exit 0, nothing reported, even with this daemon's
	// socket reachable and the pane named (only TUIOS_ENV is missing).
	var w struct {
		ID string `json:"window_id"`
	}
	e.json(&w, "get-window", "-s", "work", "-w", "0")
	cmd := exec.Command("sh", shim)
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"hi"}`)
	cmd.Env = append(append([]string{}, e.vars...), "TUIOS_PANE_ID="+w.ID, "TUIOS_BIN="+e.bin)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
		t.Fatalf("outside tuios: %v %q", err, out)
	}
	if st, _ := state(); st != "done" {
		t.Fatalf("the shim outside tuios changed the pane: %s", st)
	}
}
