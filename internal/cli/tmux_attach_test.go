package cli_test

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// attachInTmux runs `tuios attach -t SESSION` in a private tmux server of
// cols×rows (stopped when the test ends) and waits until the daemon says
// the session is attached and sized to the client's area: the terminal
// less the 24-column rail. It skips the test without tmux.
func (e *env) attachInTmux(t *testing.T, session string, cols, rows int) {
	t.Helper()
	tm, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	tmux := func(args ...string) {
		cmd := exec.Command(tm, append([]string{"-L", "att-" + filepath.Base(e.dir), "-f", "/dev/null"}, args...)...)
		cmd.Env = e.vars
		if out, err := cmd.CombinedOutput(); err != nil && args[0] != "kill-server" {
			t.Fatalf("tmux %v: %v %s", args, err, out)
		}
	}
	t.Cleanup(func() { tmux("kill-server") })
	tmux("new-session", "-d", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), e.bin+" attach -t "+session)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var info map[string]any
		e.json(&info, "session-info", "-s", session)
		if info["attached"] == true && info["width"] == float64(cols-24) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the client never attached: %v", info)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
