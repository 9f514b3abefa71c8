package tui_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAttachAgentKeysHiddenUntilAnAgentIsSeen: a person who has never run
// an agent sees no Inbox in the hint after the prefix, none in the help
// and no agent entries in the palette; prefix i opens the Inbox all the
// same. Once the daemon has seen an agent, the hint names the Inbox and
// typing "agent" in the palette lists the Inbox's and the mail's entries.
func TestAttachAgentKeysHiddenUntilAnAgentIsSeen(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `(?m)│ 0:\S`)

	w.keys("c", "C-b")
	if s := w.waitFor("c", `ctrl\+b:\s+c new.*\? help`); strings.Contains(s, "inbox") {
		t.Errorf("the hint names the Inbox before any agent:\n%s", s)
	}
	w.keys("c", "?")
	s := w.waitFor("c", `Window mode: after the prefix`)
	if strings.Contains(s, "the Inbox: everything waiting for you") {
		t.Errorf("the help lists the Inbox before any agent:\n%s", s)
	}
	w.keys("c", "q")
	w.waitGone("c", `Window mode: after the prefix`)

	w.keys("c", "C-b", ":")
	w.waitFor("c", `Command palette`)
	w.keys("c", "-l", "agent")
	w.waitFor("c", `> agent_\s*\n.*no action matches`)
	w.keys("c", "Escape")
	w.waitGone("c", `Command palette`)

	w.keys("c", "C-b", "i")
	w.waitFor("c", `Inbox  0 waiting`)
	w.keys("c", "q")
	w.waitGone("c", `Inbox  0 waiting`)

	w.ok("set-agent-state", "needs_input", "-s", "s", "-w", "0", "--harness", "claude-code", "-m", "approve Bash: make")
	w.waitFor("c", `▲ 0:`)
	w.keys("c", "C-b")
	w.waitFor("c", `ctrl\+b:\s+c new.*i inbox.*\? help`)
	w.keys("c", ":")
	w.waitFor("c", `Command palette`)
	w.keys("c", "-l", "agent")
	w.waitFor("c", `> agent_`) // the filter, not the whole list, before reading the entries
	s = w.waitFor("c", `Inbox: open`)
	for _, want := range []string{"Inbox: oldest needing you", "Mail: newest finished turn", "Mail: open inbox", "Agents: settings"} {
		if !strings.Contains(s, want) {
			t.Errorf("the palette's agent entries lack %q:\n%s", want, s)
		}
	}
}

// seeAgent makes the daemon see an agent in window 0 of session s while
// the client c shows it, then clears the state: the agent UI is shown
// from then on (it stays hidden until an agent has been seen).
func (w *world) seeAgent(c, s string) {
	w.t.Helper()
	w.ok("set-agent-state", "working", "-s", s, "-w", "0", "--harness", "claude-code")
	w.waitFor(c, `0:\S+\s+working`)
	w.ok("set-agent-state", "none", "-s", s, "-w", "0")
	w.waitGone(c, `0:\S+\s+working`)
}

// TestAttachInboxKeysRebound: the prompt view's keys and the list's are
// rebound from the config file like any other: with deny on x, d does
// nothing to the pretend agent's prompt and x denies it; with the
// mailbox on B, B opens it.
func TestAttachInboxKeysRebound(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conf := filepath.Join(w.dir, "home", ".config", "tuios")
	os.MkdirAll(conf, 0o700)
	if err := os.WriteFile(filepath.Join(conf, "config.toml"), []byte("[keybindings.inbox]\nmailbox = \"B\"\n[keybindings.inbox_peek]\ndeny = \"x\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s", "agent", "--no-focus", "--", w.bin, "pretend-agent", "-steps", "2", "-step", "100ms")
	w.ok("wait-for", "agent-state", "-s", "s", "-w", "agent", "--until", "needs_input", "--timeout", "20000")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `▲ 1:agent\s+needs input`)

	w.keys("c", "C-b", "i")
	w.waitFor("c", `│ > ▲\s+\d+s\s+s/agent`)
	w.keys("c", "Space")
	w.waitFor("c", `(?s)rm -rf build/.*1\. Yes.*x deny`)
	w.steady("c", 600*time.Millisecond)
	w.keys("c", "d")
	w.never("c", `Sent|[Dd]enied`, time.Second)
	if s := w.ok("capture-pane", "-s", "s", "-w", "agent"); !strings.Contains(s, "Do you want to proceed?") {
		t.Fatalf("d answered the prompt with deny rebound to x:\n%s", s)
	}
	w.keys("c", "x")
	w.ok("wait-for", "agent-state", "-s", "s", "-w", "agent", "--until", "working,idle,done", "--timeout", "20000")

	w.waitGone("c", `x deny`) // the answered prompt's view closes by itself
	w.keys("c", "B")
	w.waitFor("c", `Mailbox \(`)
}
