package tui_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The keys on a rail agent row (seed 003), with the real client in tmux
// and stand-in agents: panes whose scripts report their own state with
// tuios set-agent-state.

// attentionItem is one list-attention item, the fields these tests read.
type attentionItem struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Window string `json:"window"`
	Name   string `json:"name"`
}

// attention is the Inbox's items for a pane name, as list-attention says.
func (w *world) attention(name string, args ...string) []attentionItem {
	w.t.Helper()
	var res struct {
		Items []attentionItem `json:"items"`
	}
	out := w.ok(append([]string{"list-attention", "--json"}, args...)...)
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		w.t.Fatalf("list-attention: %v\n%s", err, out)
	}
	var mine []attentionItem
	for _, it := range res.Items {
		if it.Name == name {
			mine = append(mine, it)
		}
	}
	return mine
}

// waitAttention polls until the pane's items include (or, with want
// false, no longer include) one of kind.
func (w *world) waitAttention(name, kind string, want bool) attentionItem {
	w.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		for _, it := range w.attention(name) {
			if it.Kind == kind && want {
				return it
			}
		}
		if !want {
			found := false
			for _, it := range w.attention(name) {
				found = found || it.Kind == kind
			}
			if !found {
				return attentionItem{}
			}
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the Inbox never had %v a %s item for %s: %+v", want, kind, name, w.attention(name))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// queuedRows are tuios queue ls's entries.
type queuedRows struct {
	Entries []struct {
		ID      string `json:"id"`
		By      string `json:"by"`
		Preview string `json:"preview"`
	} `json:"entries"`
}

func (w *world) queued(session string) queuedRows {
	w.t.Helper()
	var q queuedRows
	out := w.ok("queue", "ls", "-s", session, "--json")
	if err := json.Unmarshal([]byte(out), &q); err != nil {
		w.t.Fatalf("queue ls: %v\n%s", err, out)
	}
	return q
}

// r on a rail agent row opens a reply line; enter queues it and the
// agent, at rest, is typed it. enter on the row then focuses the pane:
// the next keys are typed there.
func TestAttachRailAgentReplyAndEnter(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s1")
	w.ok("new-window", "-s", "s1", "ag", "--no-focus", "--", "sh", "-c",
		`stty -echo; tuios set-agent-state done -m "pb done" --harness claude-code; IFS= read -r l; echo "got:[$l]"; `+
			`tuios set-agent-state working; IFS= read -r l; echo "typed:[$l]"; sleep 600`)
	w.waitAttention("ag", "finished", true)
	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", ` ag pb done`)
	w.keys("c", "C-b", "s")
	w.waitFor("c", `rail: up/down move, enter attaches, esc leaves`)
	w.keys("c", "j")
	w.waitFor("c", `ag: enter go  r reply  u unread  z snooze  v review  esc leave`)
	w.keys("c", "r")
	w.waitFor("c", `Reply to ag \(done \d+s\):`)
	w.keys("c", "-l", "try again")
	w.waitFor("c", `Reply to ag \(done \d+s\): try again`)
	w.keys("c", "Enter")
	w.waitFor("c", `Queued for ag: typed when it is ready`)
	w.ok("wait-for", "window-output", "-s", "s1", "-w", "ag", "--pattern", `got:\[try again\]`, "--timeout", "10000")

	w.waitFor("c", `1:ag  working`) // the stand-in took it
	w.keys("c", "Enter")            // the cursor is still on ag's row
	w.waitFocused("s1", "ag")
	w.keys("c", "-l", "hello")
	w.keys("c", "Enter")
	w.ok("wait-for", "window-output", "-s", "s1", "-w", "ag", "--pattern", `typed:\[hello\]`, "--timeout", "10000")
}

// u on a rail agent row marks its finished turn unread again (it is
// back in the Inbox for every client); z then opens the Inbox on it with
// the snooze choice open, and 2 snoozes it for an hour.
func TestAttachRailAgentUnreadThenSnooze(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conf := filepath.Join(w.dir, "home", ".config", "tuios") // the test's shell dismisses, as the person
	os.MkdirAll(conf, 0o700)
	os.WriteFile(filepath.Join(conf, "config.toml"), []byte("[daemon]\nrespond_from_shell = true\n"), 0o600)
	w.ok("new", "--detach", "s1")
	w.ok("new-window", "-s", "s1", "ag", "--no-focus", "--", "sh", "-c",
		`tuios set-agent-state done -m "pb done" --harness claude-code; sleep 600`)
	it := w.waitAttention("ag", "finished", true)
	w.ok("dismiss-attention", it.ID) // seen: off the Inbox
	w.waitAttention("ag", "finished", false)

	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", ` ag pb done`)
	w.keys("c", "C-b", "s")
	w.keys("c", "j")
	w.waitFor("c", `ag: enter go`)
	w.keys("c", "u")
	w.waitFor("c", `ag's finished turn is unread again`)
	w.waitAttention("ag", "finished", true)

	w.keys("c", "z")
	w.waitFor("c", `Snooze \S*ag for how long\?`)
	w.keys("c", "2")
	w.waitFor("c", `Snoozed \S*ag for an hour`)
	w.waitAttention("ag", "finished", false)
	if got := w.attention("ag", "--snoozed"); len(got) != 1 || got[0].Kind != "finished" {
		t.Fatalf("the snoozed item: %+v", got)
	}
}

// x on a rail agent row drops the newest queued message, and u within
// 10 seconds queues it again, as the person. v reviews the row's pane.
func TestAttachRailAgentDropQueueAgainAndReview(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s1")
	w.ok("new-window", "-s", "s1", "ag", "--no-focus", "--", "sh", "-c",
		`tuios set-agent-state working -m "busy" --harness claude-code; sleep 600`)
	w.ok("wait-for", "agent-state", "-s", "s1", "-w", "ag", "--until", "working", "--timeout", "10000")
	w.ok("queue", "-s", "s1", "-w", "ag", "first")
	w.ok("queue", "-s", "s1", "-w", "ag", "make the backoff jitter configurable")

	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", ` ag 2 queued`)
	w.keys("c", "C-b", "s")
	w.keys("c", "j")
	w.waitFor("c", `ag: enter go  r reply  u unread  z snooze  x drop newest queued`)
	w.keys("c", "x")
	w.waitFor("c", `Dropped q2 for ag \(u within 10s queues it again\)`)
	w.waitFor("c", ` ag 1 queued`)
	if q := w.queued("s1"); len(q.Entries) != 1 || q.Entries[0].Preview != "first" {
		t.Fatalf("after x: %+v", q)
	}
	w.keys("c", "u")
	w.waitFor("c", `Queued for ag`)
	w.waitFor("c", ` ag 2 queued`)
	q := w.queued("s1")
	if len(q.Entries) != 2 || q.Entries[1].Preview != "make the backoff jitter configurable" || q.Entries[1].By != "human" {
		t.Fatalf("after u: %+v", q)
	}

	w.keys("c", "v")
	w.waitFor("c", `Review s1 ag`)
	w.keys("c", "Escape")
	w.waitFor("c", `ag: enter go`)
	if s := w.screen("c"); strings.Contains(s, "Review s1 ag") {
		t.Fatalf("esc left the review open:\n%s", s)
	}
}
