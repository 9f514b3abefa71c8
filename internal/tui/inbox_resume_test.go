package tui_test

import (
	"strings"
	"testing"
	"time"
)

// d.md 12: after a daemon restart a pane whose Claude conversation was
// recorded has a Resume row; y on it types `claude --resume ID` into the
// pane's new shell, as tuios resume-agent does, and the row closes. The
// footer offers y on that row.
func TestAttachInboxResumeRowTypesTheCommand(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s", "pd", "--no-focus")
	w.ok("set-agent-state", "working", "-s", "s", "-w", "pd", "--harness", "claude-code", "--agent-session-id", "abc-123")
	w.ok("set-agent-state", "done", "-s", "s", "-w", "pd", "--harness", "claude-code", "--agent-session-id", "abc-123")
	w.ok("kill-server")
	w.ok("ls") // starts the daemon again: the restore brings s back

	deadline := time.Now().Add(15 * time.Second)
	for {
		if out, _ := w.tuios("list-attention"); strings.Contains(out, "claude --resume abc-123") {
			break
		}
		if time.Now().After(deadline) {
			out, _ := w.tuios("list-attention")
			t.Fatalf("no Resume row after the restart:\n%s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The new shell is at its prompt before anything is typed into it.
	w.ok("wait-for", "window-output", "-s", "s", "-w", "pd", "--pattern", `(?m)^[$#] ?$`, "--timeout", "10000")

	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `1:pd`)
	w.keys("c", "C-b", "i")
	w.waitFor("c", `Resume \(1\)`)
	for i := 0; i < 10 && !strings.Contains(w.screen("c"), "y resume"); i++ {
		w.keys("c", "j")                    // down to the Resume row, whatever is above it
		w.steady("c", 300*time.Millisecond) // the cursor moved and the footer was drawn
	}
	w.waitFor("c", `y resume`)
	if strings.Contains(w.ok("capture-pane", "-s", "s", "-w", "pd"), "claude --resume") {
		t.Fatal("the command was typed before y")
	}
	w.keys("c", "y")
	w.waitFor("c", `Typed claude --resume abc-123`)

	// It reached the pane's shell (which has no claude: the shell says so,
	// which is the proof it ran the line), and the row closed.
	deadline = time.Now().Add(15 * time.Second)
	for {
		pane := w.ok("capture-pane", "-s", "s", "-w", "pd")
		out, _ := w.tuios("list-attention")
		if strings.Contains(pane, "claude --resume abc-123") && !strings.Contains(out, "claude --resume") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after y: the pane\n%s\nlist-attention\n%s", pane, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	w.waitGone("c", `Resume \(1\)`)
}
