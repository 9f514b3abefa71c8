package tui_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// In a real terminal: the person runs ask-human in the focused pane of
// the attached client, typing it there. The pane says what it waits for
// (not blank), and once the person has stopped typing into it the Inbox
// opens on the question; a digit answers it, and the pane reads the
// answer. A second question from a program in the pane, nobody typing,
// opens the Inbox at once. The asking pane's title bar draws ▲ while the
// question is open, in a daemon that has seen no agent before.
func TestAttachAskFromThePaneOnScreenOpensTheInbox(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `0:sh`)

	out := filepath.Join(w.dir, "answer")
	w.keys("c", "-l", w.bin+" ask-human 'Ship it?' -o yes -o no >"+out+"; echo rc=$? >>"+out)
	w.keys("c", "Enter")
	// The pane shows the question (ask-human says so on its terminal).
	deadline := time.Now().Add(15 * time.Second)
	for {
		s, _ := w.tuios("capture-pane", "-s", "s", "-w", "0")
		if strings.Contains(s, "Asked the person: Ship it?") && strings.Contains(s, "2. no") && strings.Contains(s, "Waiting for the answer") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the asking pane does not say what it waits for:\n%s", s)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The Inbox opens on it although the person typed it a moment ago.
	w.waitFor("c", `Questions \(1\)`)
	w.waitFor("c", `sh asks: Ship it\?`)
	w.waitFor("c", `1-2 answer`)
	w.waitGone("c", `reading…`) // digits act 0.4 s after the row stood still
	w.keys("c", "2")
	w.waitFor("c", `Answered "no" to sh: Ship it\?`)
	waitFile(t, out, "no\nrc=0\n")

	// Closed, the Inbox gives the pane back, drawn: the question and the
	// answer are on it.
	w.keys("c", "q")
	w.waitGone("c", `Questions`)
	s := w.waitFor("c", `Asked the person: Ship it\?`)
	if !strings.Contains(s, "Waiting for the answer") {
		t.Fatalf("the pane is not drawn after the Inbox closed:\n%s", s)
	}

	// A program in the pane asks, nobody typing: the Inbox opens at once,
	// and the title bar says the pane needs you.
	time.Sleep(700 * time.Millisecond) // past the dwell of the q typed above
	w.ok("send-text", "-s", "s", "-w", "0", w.bin+" ask-human 'Deploy to staging?' -o yes -o later >"+out+"; echo rc=$? >>"+out+"\n")
	s = w.waitFor("c", `sh asks: Deploy to staging\?`)
	if !strings.Contains(s, "Questions (1)") {
		t.Fatalf("the Inbox is not on the question:\n%s", s)
	}
	w.waitGone("c", `reading…`)
	w.keys("c", "1")
	w.waitFor("c", `Answered "yes" to sh: Deploy to staging\?`)
	waitFile(t, out, "yes\nrc=0\n")
}

// An open question from a pane on screen draws ▲ on its title bar,
// whatever else is open, with no agent ever seen by the daemon.
func TestAttachAskingPaneDrawsNeedsInput(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s", "other", "--no-focus")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `1:other`)
	// Asked from the pane that is not focused, while the Inbox is open:
	// the question waits there; the title bar says the pane needs you.
	w.keys("c", "C-b", "i")
	w.waitFor("c", `Inbox`)
	w.ok("send-text", "-s", "s", "-w", "other", w.bin+" ask-human 'Rebase first?' -o yes -o no\n")
	w.waitFor("c", `other asks: Rebase first\?|Rebase first\?`)
	w.keys("c", "q")
	w.waitFor("c", `▲ 1:other  needs input`)
}

// waitFile waits until path holds want.
func waitFile(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), "rc=") {
			if string(b) != want {
				t.Fatalf("%s holds %q, want %q", path, b, want)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds %q, want %q", path, b, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Prefix o on an ask-human question a shell asked (no pane): the dock
// names it as a question from a shell, never ": Deploy…" with an empty
// name, and the Inbox opens on it, where a digit answers it.
func TestAttachOldestOnAQuestionFromNoPane(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s1")
	if out, err := w.tuios("ask-human", "Deploy the branch to staging?", "-o", "yes", "-o", "no", "-s", "s1", "--no-wait"); !strings.Contains(out, "stays in the Inbox") {
		t.Fatalf("ask-human --no-wait: %v\n%s", err, out)
	}
	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", `\[s1\]`)
	w.keys("c", "C-b", "o")
	s := w.waitFor("c", `question from a shell \(s1\): Deploy the branch to staging\?`)
	if strings.Contains(s, "\n: Deploy") || strings.Contains(s, " : Deploy") {
		t.Fatalf("the dock names no one:\n%s", s)
	}
	w.waitFor("c", `(?s)Questions \(1\).*Deploy the branch to staging\?`)
}
