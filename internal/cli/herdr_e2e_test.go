package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// paneRun types a command into a pane of the env's daemon and returns the
// pane's text once the command's marker printed.
func paneRun(t *testing.T, e *env, window, command string) string {
	t.Helper()
	cmd, marker := fresh(t)
	e.ok("send-text", "-s", "work", "-w", window, command+"; "+cmd+"\n")
	e.ok("wait-for", "window-output", "-s", "work", "-w", window, "--pattern", marker, "--timeout", "20000")
	return e.ok("capture-pane", "-s", "work", "-w", window, "--scrollback")
}

func TestHerdrLinkFromAPane(t *testing.T) {
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", `(?m)^\$`, "--timeout", "10000")

	// The link is herdr's CLI: its version, an unsupported command (exit
	// 1, herdr's error shape) and a usage error (exit 2).
	out := paneRun(t, e, "0", `"$HERDR_BIN_PATH" --version; "$HERDR_BIN_PATH" status; echo "rc=$?"; "$HERDR_BIN_PATH" pane report-agent; echo "usage=$?"`)
	for _, want := range []string{"herdr 0.9.3+tuios", `"code":"unsupported"`, "rc=1", "usage=2"} {
		if !strings.Contains(out, want) {
			t.Fatalf("want %q in\n%s", want, out)
		}
	}
	link := filepath.Join(e.dir, "run", "tuios", "herdr", "bin", "herdr")
	if target, err := os.Readlink(link); err != nil || target != e.bin {
		t.Fatalf("HERDR_BIN_PATH link: %q %v", target, err)
	}

	// A report through the link, from a script that goes on running (so
	// the pane is not back at its shell): applied, prints nothing.
	e.ok("send-text", "-s", "work", "-w", "0", `"$HERDR_BIN_PATH" pane report-agent "$HERDR_PANE_ID" --source crush --agent crush --state blocked --seq 3 && echo reported && sleep 30`+"\n")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "0", "--until", "needs_input", "--timeout", "10000")
	var st struct {
		State     string `json:"state"`
		Message   string `json:"message"`
		BlockedBy string `json:"blocked_by"`
		Harness   string `json:"harness_id"`
	}
	e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
	if st.State != "needs_input" || st.BlockedBy != "approval" || st.Message != "waits for approval" || st.Harness != "crush" {
		t.Fatalf("blocked through the link: %+v", st)
	}
	e.ok("send-keys", "-s", "work", "-w", "0", "ctrl+c")
	// Back at the shell, the reporter gone: the pane clears to none.
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "0", "--until", "none", "--timeout", "10000")

	// The figure: one report through the link, process start to applied
	// (the answer comes after the report is applied), averaged over 20.
	out = paneRun(t, e, "0", `s=$(date +%s%N); i=10; while [ $i -lt 30 ]; do "$HERDR_BIN_PATH" pane report-agent "$HERDR_PANE_ID" --source fig --agent crush --state working --seq $i || echo FAIL''ED; i=$((i+1)); done; e=$(date +%s%N); echo "figure_ns=$(( (e - s) / 20 ))"`)
	if strings.Contains(out, "FAILED") {
		t.Fatalf("a link report failed:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "figure_ns="); ok {
			if ns, err := strconv.Atoi(v); err == nil {
				t.Logf("one report through the herdr link (process start to applied): %v", time.Duration(ns))
			}
		}
	}

	// Reads through the link answer in herdr's ids.
	out = paneRun(t, e, "0", `"$HERDR_BIN_PATH" pane get "$HERDR_PANE_ID" | grep -c '"pane_info"'`)
	if !strings.Contains(out, "\n1\n") {
		t.Fatalf("pane get through the link:\n%s", out)
	}
	// herdr's own socket path is never what the link uses.
	out = paneRun(t, e, "0", `echo "sock=$HERDR_SOCKET_PATH"`)
	if !strings.Contains(out, fmt.Sprintf("sock=%s.herdr", e.socket())) {
		t.Fatalf("HERDR_SOCKET_PATH:\n%s", out)
	}
}
