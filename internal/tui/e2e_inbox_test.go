package tui_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// H1 (spec §24.3): a script in one pane asks the person a question while
// they are attached and looking at another pane; they open the Inbox,
// read the question, press 1 and the script gets the answer.
func TestAttachInboxAnswersAsk(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s", "lead", "--no-focus")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `1:lead`)

	out := filepath.Join(w.dir, "answer")
	w.ok("send-text", "-s", "s", "-w", "lead",
		w.bin+" ask-human 'Ship it?' -o yes -o no >"+out+"; echo rc=$? >>"+out+"\n")
	deadline := time.Now().Add(15 * time.Second)
	for {
		if s, _ := w.tuios("list-attention", "--json"); strings.Contains(s, "Ship it?") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the question never reached the Inbox; the screen:\n%s", w.screen("c"))
		}
		time.Sleep(50 * time.Millisecond)
	}

	w.keys("c", "C-b", "i")
	w.waitFor("c", `Questions \(1\)`)
	w.waitFor("c", `lead asks: Ship it\?`)
	w.waitFor("c", `1\. yes`)
	w.waitFor("c", `1-2 answer`)
	w.waitGone("c", `reading…`) // the dwell: digits act 0.4 s after the row stood still
	w.keys("c", "1")
	w.waitFor("c", `Answered "yes" to lead: Ship it\?`)

	deadline = time.Now().Add(15 * time.Second)
	for {
		b, _ := os.ReadFile(out)
		if strings.Contains(string(b), "rc=") {
			if string(b) != "yes\nrc=0\n" {
				t.Fatalf("the script got %q, want yes and exit 0", b)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the script did not finish: %q; the screen:\n%s", b, w.screen("c"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
