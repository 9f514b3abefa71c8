package cli_test

import (
	"strings"
	"testing"
)

// send-text - refuses standard input over 8 MB before typing anything,
// rather than typing the first 8 MB of it.
func TestSendTextRefusesStdinOverTheCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "sink", "--no-focus", "--", "/bin/cat")
	r := e.runIn(strings.Repeat("a", 8<<20+1), "send-text", "-s", "work", "-w", "sink", "-")
	if r.code != 1 || !strings.Contains(r.err, "over 8 MB; nothing was sent") {
		t.Fatalf("8 MB + 1 byte: exit %d, %q", r.code, r.err)
	}
	// Nothing reached the pane: the next text is the first thing cat echoes.
	e.runIn("marker_after\n", "send-text", "-s", "work", "-w", "sink", "-")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "sink", "--pattern", "marker_after", "--timeout", "10000")
	if out := e.ok("capture-pane", "-s", "work", "-w", "sink", "--scrollback"); strings.Contains(out, "aaaa") {
		t.Fatalf("part of the refused text was typed:\n%.200s", out)
	}
}
