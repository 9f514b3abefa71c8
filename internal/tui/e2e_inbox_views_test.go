package tui_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
)

// End-to-end tests of the Inbox's headings, its prompt view and its
// views of the list (z, S, f, /), with the client in tmux and stand-in
// agents: panes the daemon is told about with set-agent-state, and the
// pretend agent, which draws a real Claude-style permission prompt.
// Every step waits for what the screen or the daemon shows.

// waitGone polls until re no longer matches the screen.
func (w *world) waitGone(target, re string) string {
	w.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := w.screen(target)
		if !rx.MatchString(s) {
			return s
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%q never went; the screen:\n%s", re, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// attention is one item of list-attention --json.
type attention struct {
	ID           string `json:"id"`
	Kind         string `json:"kind"`
	Name         string `json:"name"`
	Summary      string `json:"summary"`
	SnoozedUntil int64  `json:"snoozed_until"`
}

// items lists the Inbox from a shell, snoozed items too.
func (w *world) items() []attention {
	w.t.Helper()
	var res struct {
		Items []attention `json:"items"`
	}
	if err := json.Unmarshal([]byte(w.ok("list-attention", "--snoozed", "--json")), &res); err != nil {
		w.t.Fatal(err)
	}
	return res.Items
}

// itemOf waits until the daemon's Inbox has an item of a pane (by name)
// for which ok holds, and returns it.
func (w *world) itemOf(name string, ok func(attention) bool) attention {
	w.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		for _, it := range w.items() {
			if it.Name == name && ok(it) {
				return it
			}
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("no item of %s as wanted; the Inbox: %+v", name, w.items())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// standIn opens a pane that only sleeps and reports a state for it as its
// agent would.
func (w *world) standIn(session, name string, state ...string) {
	w.t.Helper()
	w.ok("new-window", "-s", session, name, "--no-focus", "--", "sleep", "600")
	w.ok(append([]string{"set-agent-state", "-s", session, "-w", name}, state...)...)
}

// footerRow is the Inbox's key line: the row above the dock.
func footerRow(screen string) string {
	rows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if len(rows) < 2 {
		return ""
	}
	row := rows[len(rows)-2]
	if i := strings.LastIndex(row, "│"); i >= 0 {
		row = row[i+len("│"):]
	}
	return strings.TrimSpace(row)
}

// inboxText is the screen without the rail: what is right of its rule.
func inboxText(screen string) string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		if i := strings.Index(l, "│"); i >= 0 {
			l = l[i+len("│"):]
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestAttachInboxHeadings: the client groups rows under the documented
// headings, as list-attention does: an ask-human question and a pane's
// question under Questions, an error under Errored, a finished turn under
// Done. Each row starts with its kind's glyph, and a question asked from
// no pane reads "s1", not "s1/".
func TestAttachInboxHeadings(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s1")
	w.standIn("s1", "st", "needs_input", "-m", "which retry policy?", "--kind", "question")
	w.standIn("s1", "er", "errored", "-m", "the build broke")
	// The finished pane is in a session the client does not show, so
	// nobody looks at it and its Done item stays.
	w.ok("new", "--detach", "s2")
	w.standIn("s2", "pd", "done", "-m", "pd done", "--harness", "codex")
	// --no-wait leaves the question pending (exit 2) for the Inbox.
	if out, err := w.tuios("ask-human", "Deploy the branch to staging?", "-o", "yes", "-o", "no", "-s", "s1", "--no-wait"); !strings.Contains(out, "stays in the Inbox") {
		t.Fatalf("ask-human --no-wait: %v\n%s", err, out)
	}
	w.itemOf("", func(it attention) bool { return it.Kind == "ask" })
	for _, name := range []string{"st", "er", "pd"} {
		w.itemOf(name, func(attention) bool { return true })
	}
	cli := w.ok("list-attention")
	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", `\[s1\]`)
	w.keys("c", "C-b", "i")
	s := w.waitFor("c", `(?s)Questions \(2\).*Errored \(1\).*Done \(1\)`)
	for _, re := range []string{
		`▲\s+\d+s  s1  Deploy the branch to staging\?`,
		`▲\s+\d+s  s1/st  which retry policy\?`,
		`×\s+\d+s  s1/er  the build broke`,
		`■\s+\d+s  s2/pd  pd done`,
	} {
		if !regexp.MustCompile(re).MatchString(s) {
			t.Errorf("no row %q; the screen:\n%s", re, s)
		}
	}
	for _, old := range []string{"Asks", "Finished", "Errors", "s1/  Deploy"} {
		if strings.Contains(s, old) {
			t.Errorf("the Inbox shows %q; the screen:\n%s", old, s)
		}
	}
	// The shell's list has the same headings, in the same order.
	if !regexp.MustCompile(`(?s)^Questions\n.*s1  Deploy.*\n\nErrored\n.*\n\nDone\n`).MatchString(cli) {
		t.Errorf("list-attention:\n%s", cli)
	}
}

// TestAttachInboxPromptView: Space on the pretend agent's approval shows
// the prompt as the pane draws it (its spacing kept), how long the agent
// has waited, and only the answers the prompt has: 1-2 (two options), a
// and d, no A (the menu has no "always" option). A does nothing; 2, the
// "No" option, denies with one press although the prompt is risky.
func TestAttachInboxPromptView(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s", "agent", "--no-focus", "--", w.bin, "pretend-agent", "-steps", "2", "-step", "100ms")
	w.ok("wait-for", "agent-state", "-s", "s", "-w", "agent", "--until", "needs_input", "--timeout", "20000")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `▲ 1:agent\s+needs input`)
	w.keys("c", "C-b", "i")
	w.waitFor("c", `Approvals \(1\)`)
	w.keys("c", "Space")
	s := w.waitFor("c", `agent \(s\) needs input, waiting \d+s`)
	// The pane's own indentation inside its box is kept.
	if !regexp.MustCompile(`│ │   rm -rf build/`).MatchString(s) {
		t.Errorf("the prompt's lines lost their spacing:\n%s", s)
	}
	s = w.waitGone("c", `reading…`)
	if f := footerRow(s); f != "1-2 choose  a approve  d deny  enter go to pane  r read again  esc back" {
		t.Errorf("footer %q; the screen:\n%s", f, s)
	}
	// The wait counts up while the view is open.
	first := regexp.MustCompile(`waiting (\d+)s`).FindStringSubmatch(s)
	w.waitGone("c", `waiting `+first[1]+`s\b`)

	// A is no answer here: not even a first press of a risky allow.
	w.keys("c", "A")
	w.never("c", `Press A again|approve_always`, time.Second)
	// 2 is "No, and tell the agent…": a deny, sent at once.
	w.keys("c", "2")
	w.waitFor("c", `Sent "2" to agent`)
	w.ok("wait-for", "agent-state", "-s", "s", "-w", "agent", "--until", "idle,done,working", "--timeout", "20000")
	if out := w.ok("capture-pane", "-s", "s", "-w", "agent", "--scrollback"); !strings.Contains(out, "Denied") {
		t.Errorf("the agent was not denied:\n%s", out)
	}
}

// TestAttachInboxPromptViewNoPrompt: a stand-in's question has no prompt
// on screen to read, so its view offers no answer at all, and a does
// nothing.
func TestAttachInboxPromptViewNoPrompt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s1")
	w.standIn("s1", "st", "needs_input", "-m", "which retry policy?", "--kind", "question")
	w.itemOf("st", func(attention) bool { return true })
	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", `\[s1\]`)
	w.keys("c", "C-b", "i")
	w.waitFor("c", `> ▲\s+\d+s  s1/st  which retry policy\?`)
	w.keys("c", "Space")
	s := w.waitFor("c", `st \(s1\) needs input, waiting \d+s`)
	if f := footerRow(s); f != "enter go to pane  r read again  esc back" {
		t.Errorf("footer %q; the screen:\n%s", f, s)
	}
	w.keys("c", "a")
	w.never("c", `Sent|not the one to answer|not offered`, time.Second)
	w.keys("c", "Escape")
	w.waitFor("c", `space peek  enter go  d dismiss  z snooze`)
}

// TestAttachInboxSnooze: z asks for how long and snoozes through the
// daemon: esc cancels, 2 is an hour, 3 until 9:00 tomorrow, 4 until it
// changes. S lists the snoozed item under Snoozed, and z on it wakes it.
func TestAttachInboxSnooze(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s1")
	w.standIn("s1", "st", "needs_input", "-m", "which retry policy?", "--kind", "question")
	w.itemOf("st", func(attention) bool { return true })
	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", `\[s1\]`)
	w.keys("c", "C-b", "i")
	w.waitFor("c", `> ▲\s+\d+s  s1/st  which retry policy\?`)

	// esc takes z back: nothing is snoozed.
	w.keys("c", "z")
	w.waitFor("c", `1 15 minutes  2 an hour  3 until 9:00 tomorrow  4 until it changes  esc cancel`)
	w.waitFor("c", `Snooze s1/st for how long\?`)
	w.keys("c", "Escape")
	w.waitFor("c", `space peek  enter go  d dismiss  z snooze`)
	if it := w.itemOf("st", func(attention) bool { return true }); it.SnoozedUntil != 0 {
		t.Fatalf("esc snoozed it: %+v", it)
	}

	snooze := func(digit, says string) attention {
		t.Helper()
		w.keys("c", "z")
		w.waitFor("c", `4 until it changes`)
		before := time.Now()
		w.keys("c", digit)
		w.waitFor("c", `Snoozed s1/st `+says)
		w.waitFor("c", `Inbox  0 waiting`)
		it := w.itemOf("st", func(it attention) bool { return it.SnoozedUntil != 0 })
		if until := time.Unix(0, it.SnoozedUntil); digit == "2" && (until.Before(before.Add(59*time.Minute)) || until.After(time.Now().Add(61*time.Minute))) {
			t.Errorf("2 snoozed until %v, not an hour from %v", until, before)
		}
		// S shows it under Snoozed; z wakes it.
		w.keys("c", "S")
		w.waitFor("c", `(?s)Snoozed \(1\)\s*\n.*> ▲\s+\d+s  s1/st  which retry policy\?  \[until `)
		w.waitFor("c", `z wake`)
		return it
	}
	wake := func() {
		t.Helper()
		w.keys("c", "z")
		w.waitFor("c", `Woke s1/st`)
		w.waitFor("c", `Inbox  1 waiting`)
		w.itemOf("st", func(it attention) bool { return it.SnoozedUntil == 0 })
		w.keys("c", "S")
		w.waitGone("c", `snoozed shown`)
	}

	snooze("2", `for an hour`)
	wake()
	it := snooze("3", `until 9:00 tomorrow`)
	now := time.Now()
	nine := time.Date(now.Year(), now.Month(), now.Day()+1, 9, 0, 0, 0, time.Local)
	if got := time.Unix(0, it.SnoozedUntil); !got.Equal(nine) {
		t.Errorf("3 snoozed until %v, want %v", got, nine)
	}
	wake()
	it = snooze("4", `until it changes`)
	if it.SnoozedUntil != -1 {
		t.Errorf("4 snoozed until %d, want -1 (until it changes)", it.SnoozedUntil)
	}
	w.waitFor("c", `\[until it changes\]`)
	// It comes back when the pane reports something new.
	w.ok("set-agent-state", "needs_input", "-s", "s1", "-w", "st", "-m", "which backoff?", "--kind", "question")
	w.itemOf("st", func(it attention) bool { return it.SnoozedUntil == 0 })
}

// TestAttachInboxKindAndSelector: f shows one heading at a time, then all
// again; / narrows the list with a selector the daemon reads, enter keeps
// it, and an emptied selector shows everything again.
func TestAttachInboxKindAndSelector(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s1")
	w.ok("new", "--detach", "s2")
	w.standIn("s1", "st", "needs_input", "-m", "which retry policy?", "--kind", "question")
	w.standIn("s2", "er", "errored", "-m", "the build broke")
	w.itemOf("st", func(attention) bool { return true })
	w.itemOf("er", func(attention) bool { return true })
	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", `\[s1\]`)
	w.keys("c", "C-b", "i")
	w.waitFor("c", `(?s)Questions \(1\).*Errored \(1\)`)
	w.waitFor("c", `f kind  / select  S snoozed`)

	w.keys("c", "f")
	s := w.waitFor("c", `Inbox  2 waiting  only Questions`)
	if strings.Contains(inboxText(s), "the build broke") {
		t.Errorf("f showed more than Questions:\n%s", s)
	}
	w.keys("c", "f")
	s = w.waitFor("c", `only Errored`)
	if strings.Contains(inboxText(s), "which retry policy") || !strings.Contains(s, "s2/er  the build broke") {
		t.Errorf("f did not show Errored alone:\n%s", s)
	}
	w.keys("c", "f")
	w.waitGone("c", `only `)
	w.waitFor("c", `(?s)Questions \(1\).*Errored \(1\)`)

	w.keys("c", "/")
	w.waitFor("c", `Select \(.*\):`)
	w.waitFor("c", `enter keep  esc cancel`)
	w.keys("c", "-l", "session:s2")
	w.waitFor("c", `Errored \(1\)`)
	w.waitGone("c", `s1/st  which retry policy`)
	w.keys("c", "Enter")
	s = w.waitFor("c", `Inbox  1 waiting  select: session:s2`)
	if strings.Contains(inboxText(s), "which retry policy") {
		t.Errorf("the selector let s1's row through:\n%s", s)
	}
	// esc on a new line puts the selector in force back.
	w.keys("c", "/")
	w.waitFor("c", `Select .*session:s2`)
	w.keys("c", "C-u")
	w.waitFor("c", `s1/st  which retry policy`)
	w.keys("c", "Escape")
	w.waitFor("c", `select: session:s2`)
	w.waitGone("c", `s1/st  which retry policy`)
	// An emptied selector kept with enter shows everything again.
	w.keys("c", "/")
	w.waitFor("c", `Select .*session:s2`)
	w.keys("c", "C-u", "Enter")
	w.waitGone("c", `select: `)
	w.waitFor("c", `(?s)Questions \(1\).*Errored \(1\)`)
}
