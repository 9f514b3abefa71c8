package tui_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Seed 003, "Reviewing an agent's changes": an agent changed a file and
// added one in its repository; the person attached presses prefix v,
// reads the files and the diff over the whole screen, writes a note on
// the added line with c, sends it with S, and the agent is typed the
// review; esc closes the overlay.
func TestAttachReviewOverlayNotesAndSends(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	repo := w.gitRepo("repo", map[string]string{"a.txt": "hi\n"})
	// The agent's change: a line added, a file made.
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("hi\nchange\n"), 0o600)
	os.WriteFile(filepath.Join(repo, "b.txt"), []byte("new\n"), 0o600)

	w.ok("new", "--detach", "s1")
	w.ok("new-window", "-s", "s1", "ag", "--cwd", repo, "--", w.bin, "pretend-agent", "-prompt=false", "-steps", "2", "-step", "100ms")
	w.ok("wait-for", "window-output", "-s", "s1", "-w", "ag", "--pattern", `Done: tidy`, "--timeout", "20000")
	w.ok("set-agent-state", "done", "-s", "s1", "-w", "ag", "--harness", "claude-code")
	w.waitFocused("s1", "ag")

	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", `\[s1\]`)
	w.keys("c", "C-b", "v")
	w.waitFor("c", `Review s1 ag \S+  2 files \+2 -0  vs \S+`)
	w.waitFor("c", `M a\.txt +\+1 -0`)
	w.waitFor("c", `U b\.txt +\+1 -0`)
	w.waitFor("c", `› @@ -1 \+1,2 @@`)
	w.waitFor("c", `1 1   hi`)
	w.waitFor("c", `2 \+ change`)
	// j in the list shows the other file's diff.
	w.keys("c", "j")
	w.waitFor("c", `1 \+ new`)
	w.keys("c", "k")
	w.waitFor("c", `2 \+ change`)

	// Into the diff, down to the added line, and a note on it.
	w.keys("c", "Tab", "j", "j", "c")
	w.waitFor("c", `note on a\.txt:2:`)
	w.keys("c", "-l", "log this line too")
	w.keys("c", "Enter")
	w.waitFor("c", `▌ note from you: log this line too`)
	w.waitFor("c", `1 note`)

	// The CLI sees the person's note on line 2.
	var notes struct {
		Notes []struct {
			Path string `json:"path"`
			Line int    `json:"line"`
			Text string `json:"text"`
			By   string `json:"by"`
		} `json:"notes"`
	}
	if err := json.Unmarshal([]byte(w.ok("review", "notes", "-s", "s1", "-w", "ag", "--json")), &notes); err != nil {
		t.Fatal(err)
	}
	if len(notes.Notes) != 1 || notes.Notes[0].Path != "a.txt" || notes.Notes[0].Line != 2 ||
		notes.Notes[0].Text != "log this line too" || notes.Notes[0].By != "human" {
		t.Fatalf("the notes the CLI lists: %+v", notes.Notes)
	}

	// S sends it: the agent is typed the review once it rests, and takes
	// it as its next prompt.
	w.keys("c", "S")
	w.waitFor("c", `sent 1 note to ag`)
	w.waitFor("c", `\(sent\)`)
	if out, err := w.tuios("wait-for", "window-output", "-s", "s1", "-w", "ag", "--pattern", `Done: read [0-9]+ bytes of prompt`, "--timeout", "20000"); err != nil {
		q, _ := w.tuios("queue", "ls", "-s", "s1", "-w", "ag")
		a, _ := w.tuios("list-agents")
		p, _ := w.tuios("capture-pane", "-s", "s1", "-w", "ag")
		t.Fatalf("the agent was not typed the review: %v %s\nqueue:\n%s\nagents:\n%s\npane:\n%s", err, out, q, a, p)
	}
	// The pane wraps the prompt it was typed, at a space or not: read it
	// joined, spaces aside.
	nospace := strings.NewReplacer(" ", "", "\n", "")
	typed := nospace.Replace(w.ok("capture-pane", "-s", "s1", "-w", "ag"))
	if !strings.Contains(typed, nospace.Replace("from the person")) || !strings.Contains(typed, nospace.Replace(`a.txt:2, on "change" log this line too`)) {
		t.Fatalf("the agent's pane does not show the review:\n%s", typed)
	}

	// esc closes: the panes are drawn again.
	w.keys("c", "Escape")
	w.waitGone("c", `Review s1 ag`)
	w.waitFor("c", `ag`)
}
