package tui_test

import (
	"strings"
	"testing"
	"time"
)

// Issue 33 items 5 and 6, in a real terminal: the pretend agent asks to
// run rm -rf build/ in a tile too short to show it. The rail's word for
// the pane is risky, the Inbox row reads risky: and its detail names the
// rule; the peek shows the command the tile cut (read from the history),
// and 1 allows only on its second press.
func TestAttachRiskyApprovalInAShortTile(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	// Five windows tile a 200x30 terminal's area (less the rail): the
	// first on the left, four stacked on the right, each a title row over
	// a pane about 88 columns wide (the dialog fits) and 6 rows high (it
	// does not).
	w.startAt("c", 200, 30, w.bin+" attach -t s")
	w.waitFor("c", `\[s\] 1\*`)
	for _, n := range []string{"b", "c", "d"} {
		w.ok("new-window", "-s", "s", n, "--no-focus", "--", "cat")
	}
	w.ok("new-window", "-s", "s", "agent", "--no-focus", "--", w.bin, "pretend-agent", "-steps", "2", "-step", "100ms")
	if out, err := w.tuios("wait-for", "agent-state", "-s", "s", "-w", "agent", "--until", "needs_input", "--timeout", "20000"); err != nil {
		t.Fatalf("%v %s\n%s\n%s", err, out, w.ok("capture-pane", "-s", "s", "-w", "agent"), w.screen("c"))
	}
	if scr := w.ok("capture-pane", "-s", "s", "-w", "agent"); strings.Contains(scr, "rm -rf") {
		t.Fatalf("the tile shows the command; the test would show nothing:\n%s\n%s", scr, w.ok("get-window", "-s", "s", "-w", "agent"))
	}

	// The rail: the agent row's word is risky.
	w.waitFor("c", `(?m)^ ▲ agent risky: Do you`)

	w.keys("c", "C-b", "i")
	w.waitFor("c", `Approvals \(1\)\s*\n.*│ > ▲\s+\d+s\s+s/agent\s+risky: Do you want to proceed`)
	w.waitFor("c", `risky: recursive delete: deletes a tree of files without asking \(rm -rf`)

	// The peek shows the dialog whole, the command included.
	w.keys("c", "Space")
	w.waitFor("c", `(?s)rm -rf build/.*1\. Yes.*risky: recursive delete`)
	w.steady("c", 600*time.Millisecond) // the digits act once the prompt stood still
	w.keys("c", "1")
	w.waitFor("c", `risky: recursive delete\. Press 1 again`)
	if s := w.ok("capture-pane", "-s", "s", "-w", "agent"); !strings.Contains(s, "Do you want to proceed?") {
		t.Fatalf("one press answered a risky prompt in a short tile:\n%s", s)
	}
	w.keys("c", "1")
	w.waitFor("c", `Sent "1" to agent`)
	w.ok("wait-for", "window-output", "-s", "s", "-w", "agent", "--pattern", "Allowed", "--timeout", "10000")
}
