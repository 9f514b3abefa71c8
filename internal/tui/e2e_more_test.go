package tui_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// More of the real client in a real terminal (the world of e2e_test.go):
// two clients on one session, the Inbox answering the pretend agent,
// agents off, and the bad input a terminal meets: garbage, a huge line,
// a flood while the person types, a tiny terminal, and an attach from
// inside a pane.

// TestAttachTwoClients: two terminals of different sizes on one session
// see the same panes: what is typed in one shows in both, and so does a
// state change; list-sessions says the session is attached while either
// is.
func TestAttachTwoClients(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("a", w.bin+" attach -t s")
	w.waitFor("a", `(?m)│\$`)
	w.startAt("b", 100, 25, w.bin+" attach -t s")
	w.waitFor("b", `(?m)│\$`)
	if out := w.ok("ls"); !strings.Contains(out, "s (attached)") {
		t.Errorf("ls with two clients:\n%s", out)
	}

	// The session takes the size of the client typed into last; the
	// larger one dots what it does not use.
	w.keys("a", "echo from-a$((6*7))", "Enter")
	w.waitFor("a", `(?m)│from-a42\s*$`)
	w.waitFor("b", `(?m)│from-a42\s*$`)
	w.keys("b", "echo from-b$((6*7))", "Enter")
	w.waitFor("b", `(?m)│from-b42\s*$`)
	w.waitFor("a", `(?m)│from-b42[\s·]*$`)

	w.ok("set-agent-state", "needs_input", "-s", "s", "-w", "0", "-m", "approve?")
	w.waitFor("a", `▲ 0:.*needs input`)
	w.waitFor("b", `▲ 0:.*needs input`)

	// One leaves; the other goes on, and the session is still attached.
	w.detach("b")
	w.keys("a", "echo still$((6*7))", "Enter")
	w.waitFor("a", `(?m)│still42\s*$`)
	if out := w.ok("ls"); !strings.Contains(out, "s (attached)") {
		t.Errorf("ls with one client left:\n%s", out)
	}
}

// TestAttachInboxAnswersPretendAgent: the pretend agent stops on a
// Claude-like permission prompt (rm -rf build/, so risky); the person
// opens the Inbox, peeks at the approval, reads it, and presses 1 twice
// (the second press acknowledges the risk). The agent goes on.
func TestAttachInboxAnswersPretendAgent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s", "agent", "--no-focus", "--", w.bin, "pretend-agent", "-steps", "2", "-step", "100ms")
	w.ok("wait-for", "agent-state", "-s", "s", "-w", "agent", "--until", "needs_input", "--timeout", "20000")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `▲ 1:agent\s+needs input`)

	w.keys("c", "C-b", "i")
	// Approvals sort first, so the approval is the selected row.
	w.waitFor("c", `Approvals \(1\)\s*\n.*│ > ▲\s+\d+s\s+s/agent\s+risky: Do you want to proceed`) // rm -rf: the row reads risky:
	w.keys("c", "Space")
	w.waitFor("c", `(?s)rm -rf build/.*1\. Yes.*risky: recursive delete`)
	// A person reads before answering: the digits act once the prompt
	// has stood unchanged for 0.4 s, so wait until the screen has.
	w.steady("c", 600*time.Millisecond)
	w.keys("c", "1")
	// The first press on a risky allow only names the risk.
	w.waitFor("c", `risky: recursive delete\. Press 1 again`)
	if s, err := w.tuios("capture-pane", "-s", "s", "-w", "agent"); err != nil || !strings.Contains(s, "Do you want to proceed?") {
		t.Fatalf("one press answered a risky prompt: %v\n%s", err, s)
	}
	w.keys("c", "1")
	w.waitFor("c", `Sent "1" to agent`)
	w.ok("wait-for", "agent-state", "-s", "s", "-w", "agent", "--until", "working,idle,done", "--timeout", "20000")
	if s := w.ok("capture-pane", "-s", "s", "-w", "agent", "--scrollback"); !strings.Contains(s, "Allowed") {
		t.Errorf("the pretend agent did not take the answer:\n%s", s)
	}
	// Back on the tiles, its title bar no longer asks for the person.
	w.keys("c", "q")
	s := w.waitFor("c", ` 1:agent`)
	if regexp.MustCompile(`1:agent\s+needs input`).MatchString(s) {
		t.Errorf("after the answer the screen still says needs input:\n%s", s)
	}
}

// TestAttachAgentsOff: with [agents] enabled = false the daemon tracks no
// agent and the client draws none of the agent UI, even with the pretend
// agent on its prompt; the multiplexer goes on as ever.
func TestAttachAgentsOff(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conf := filepath.Join(w.dir, "home", ".config", "tuios")
	os.MkdirAll(conf, 0o700)
	if err := os.WriteFile(filepath.Join(conf, "config.toml"), []byte("[agents]\nenabled = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The daemon reads the file when it starts: this one starts here.
	w.ok("new", "--detach", "s")
	if out, err := w.tuios("set-agent-state", "needs_input", "-s", "s", "-w", "0"); err == nil || !strings.Contains(out, "agents_disabled") {
		t.Errorf("set-agent-state with agents off: %v %s", err, out)
	}
	w.ok("new-window", "-s", "s", "agent", "--no-focus", "--", w.bin, "pretend-agent", "-steps", "2", "-step", "100ms")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `Do you want to proceed\?`)
	// Detection, were it on, looks every 2 s: watch for longer than that.
	// The pane itself prints glyphs (● Reading the tree): a state glyph
	// is one before a title bar's index or a rail row's session name.
	w.never("c", `needs input|[^\s│┬├┤┼─] [01]:(agent|Terminal)|(?m)^>\S s |(?m)^ Agents`, 3*time.Second)
	w.keys("c", "echo $((6*7))off", "Enter")
	w.waitFor("c", `(?m)│42off\s`)
}

// TestAttachGarbage: a pane that prints 2 MB of random bytes neither
// breaks the client nor reaches the outer terminal: the rail, the dock
// and the outer terminal's title are as they were, and typing into the
// shell still works.
func TestAttachGarbage(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `(?m)│\$`)
	title := w.paneVar("c", "pane_title")
	// Not from a shell: the pane's answers to whatever queries the
	// garbage holds go to its input, where no one reads them. ESC c
	// resets the pane, so the marker is drawn in plain text.
	w.ok("new-window", "-s", "s", "junk", "--no-focus", "--", "sh", "-c",
		`head -c 2000000 /dev/urandom; printf '\033c'; echo garbage$((6*7)); exec sleep 600`)
	s := w.waitFor("c", `garbage42`)
	if !strings.HasPrefix(s, " Sessions") || !regexp.MustCompile(`(?m)^\[s\] 1\*`).MatchString(s) {
		t.Errorf("the client's own rows are broken:\n%s", s)
	}
	if got := w.paneVar("c", "pane_title"); got != title {
		t.Errorf("the outer terminal's title changed from %q to %q", title, got)
	}
	w.keys("c", "echo $((6*7))ok", "Enter")
	w.waitFor("c", `(?m)│42ok\s`)
	w.detach("c")
}

// TestAttachHugeLine: a pane that prints one 10 MB line, then a marker.
func TestAttachHugeLine(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `(?m)│\$`)
	w.ok("new-window", "-s", "s", "long", "--no-focus", "--", "sh", "-c",
		`head -c 10000000 /dev/zero | tr '\0' x; echo; echo long$((6*7)); exec sleep 600`)
	w.waitFor("c", `(?m)xxxx\s*\n.*long42\s*$`)
	w.keys("c", "echo $((6*7))ok", "Enter")
	w.waitFor("c", `(?m)│42ok\s`)
	w.detach("c")
}

// TestAttachFloodWhileTyping: one pane floods (yes) while the person
// types into another: the keys reach their pane, and the client still
// answers prefix d.
func TestAttachFloodWhileTyping(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `(?m)│\$`)
	w.ok("new-window", "-s", "s", "flood", "--no-focus", "--", "yes")
	w.waitFor("c", `(?m)[ │]y$`)
	start := time.Now()
	w.keys("c", "echo typed$((6*7))", "Enter")
	w.waitFor("c", `(?m)│typed42\s`)
	t.Logf("figure: a typed line echoed through the flood in %v", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	w.detach("c")
	t.Logf("figure: detached during the flood in %v", time.Since(start).Round(time.Millisecond))
}

// TestAttachTinyTerminal: an outer terminal of 20x5 has no room for the
// rail and three rows for a pane; the client draws it, its overlays and
// two tiles without falling over, detaches, and gives the terminal back.
func TestAttachTinyTerminal(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.startAt("c", 20, 5, w.bin+" attach -t s")
	w.waitFor("c", `(?m)^\[s\] 1\*`)
	w.keys("c", "echo $((6*7))t", "Enter")
	w.waitFor("c", `(?m)^42t\s*$`)
	w.keys("c", "C-b", "c")
	w.waitFor("c", `1:`)
	w.keys("c", "C-b", "i")
	w.waitFor("c", `Inbox`)
	w.keys("c", "q", "C-b", "[")
	w.waitFor("c", `copy mo`)
	w.keys("c", "q")
	w.steady("c", 300*time.Millisecond)
	w.keys("c", "C-b", "d")
	w.waitFor("c", `exit=\d+`)
	// The note wraps at 20 columns; tmux joins it again when the
	// terminal widens, so the usual checks read it whole.
	if out, err := w.tmuxRun("resize-window", "-t", "c", "-x", "120", "-y", "30"); err != nil {
		t.Fatalf("resize-window: %v %s", err, out)
	}
	w.restored("c")
}

// TestAttachNested: `tuios attach` typed into a pane of the daemon it
// would attach to refuses, exits 1, and leaves the pane's shell usable.
func TestAttachNested(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `(?m)│\$`)
	w.keys("c", "tuios attach; echo nested=$?", "Enter")
	s := w.waitFor("c", `(?m)│nested=\d+\s`)
	if !strings.Contains(s, "already a tuios pane") || !strings.Contains(s, "nested=1") {
		t.Errorf("a nested attach:\n%s", s)
	}
	w.keys("c", "echo $((6*7))after", "Enter")
	w.waitFor("c", `(?m)│42after\s`)
}

// detach presses prefix d and checks the client left as it should.
func (w *world) detach(target string) {
	w.t.Helper()
	w.keys(target, "C-b", "d")
	w.restored(target)
}

// restored waits for the client in target to have exited, and checks it
// said so, exited 0, and left the terminal in cooked mode with echo.
func (w *world) restored(target string) {
	w.t.Helper()
	s := w.waitFor(target, `exit=\d+\n.*echo`)
	if !strings.Contains(s, "[detached (from session s)]") || !strings.Contains(s, "exit=0") {
		w.t.Errorf("after detach:\n%s", s)
	}
	if !regexp.MustCompile(`(?m)^icanon echo`).MatchString(s) {
		w.t.Errorf("terminal left in raw mode:\n%s", s)
	}
}

// steady polls until the screen has stayed the same for d, as a person
// would wait for it to settle before reading it.
func (w *world) steady(target string, d time.Duration) string {
	w.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	last, since := w.screen(target), time.Now()
	for {
		time.Sleep(50 * time.Millisecond)
		s := w.screen(target)
		if s != last {
			last, since = s, time.Now()
		}
		if time.Since(since) >= d {
			return s
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the screen did not settle for %v; the last:\n%s", d, s)
		}
	}
}

// never watches the screen for d and fails as soon as re shows: the only
// way to see that something does not happen is to look for a while.
func (w *world) never(target, re string, d time.Duration) {
	w.t.Helper()
	rx := regexp.MustCompile(re)
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if s := w.screen(target); rx.MatchString(s) {
			w.t.Fatalf("%q showed; the screen:\n%s", re, s)
		}
	}
}

// paneVar is a tmux format variable of the outer terminal's pane.
func (w *world) paneVar(target, name string) string {
	w.t.Helper()
	out, err := w.tmuxRun("display-message", "-p", "-t", target, "#{"+name+"}")
	if err != nil {
		w.t.Fatalf("display-message: %v %s", err, out)
	}
	return strings.TrimSpace(out)
}
