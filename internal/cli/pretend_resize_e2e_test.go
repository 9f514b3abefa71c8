package cli_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The pretend agent does what an agent's TUI does when its terminal is
// resized: it draws its permission box again, as wide as the pane, with a
// wrapped option label hanging under its text, so the prompt reads whole
// (and no box is left broken by the terminal's reflow).
func TestThePretendAgentRedrawsItsPromptOnAResize(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "agent", "--no-focus", "--", e.bin, "pretend-agent", "-steps", "2", "-step", "100ms")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "needs_input", "--timeout", "20000")
	e.verbCall("resize", `{"session":"work","cols":80,"rows":30}`) // two tiles: the agent's pane is 39 wide
	deadline := time.Now().Add(10 * time.Second)
	for {
		scr := e.ok("capture-pane", "-s", "work", "-w", "agent")
		top, widest := "", 0
		for _, l := range strings.Split(scr, "\n") {
			widest = max(widest, utf8.RuneCountInString(l))
			if strings.HasPrefix(l, "╭") {
				top = l
			}
		}
		if strings.HasSuffix(top, "╮") && widest <= 39 && strings.Contains(scr, "rm -rf build/") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the box was not drawn again at the pane's width (widest row %d):\n%s", widest, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	var pk peekJSON
	e.json(&pk, "peek-prompt", "-s", "work", "-w", "agent")
	if len(pk.Options) != 2 || pk.Options[1].Label != "No, and tell the agent what to do differently (esc)" {
		t.Fatalf("options: %+v", pk.Options)
	}
}
