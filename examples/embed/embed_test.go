package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// With EMBED_TEST_ASK set, the test binary is the command under embed: it
// asks the terminal for the cursor position once (CPR), counts the
// answers that arrive within a second, prints the count and waits.
func TestMain(m *testing.M) {
	if os.Getenv("EMBED_TEST_ASK") != "" {
		askOnce()
		return
	}
	os.Exit(m.Run())
}

func askOnce() {
	t, err := unix.IoctlGetTermios(0, unix.TCGETS)
	if err == nil { // raw: an answer has no newline to end a line with
		t.Lflag &^= unix.ICANON | unix.ECHO
		t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 0, 1
		unix.IoctlSetTermios(0, unix.TCSETS, t)
	}
	os.Stdout.WriteString("\x1b[6n")
	var got []byte
	buf := make([]byte, 256)
	for end := time.Now().Add(time.Second); time.Now().Before(end); {
		n, _ := os.Stdin.Read(buf) // VTIME: returns every 100 ms
		got = append(got, buf[:n]...)
	}
	answers := len(regexp.MustCompile(`\x1b\[\d+;\d+R`).FindAll(got, -1))
	fmt.Printf("\r\nanswers=%d\r\n", answers)
	time.Sleep(time.Hour) // until killed: the test reads the screen
}

type outer struct {
	t    *testing.T
	tmux string
	sock string
}

// newOuter is a private tmux server: the real terminal embed runs in.
func newOuter(t *testing.T) *outer {
	if testing.Short() {
		t.Skip("runs embed in tmux")
	}
	tm, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	o := &outer{t: t, tmux: tm, sock: filepath.Join(t.TempDir(), "tmux.sock")}
	t.Cleanup(func() { o.run("kill-server") })
	return o
}

func (o *outer) run(args ...string) string {
	cmd := exec.Command(o.tmux, append([]string{"-S", o.sock, "-f", "/dev/null"}, args...)...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// start runs a shell line in a new tmux session; it stays after the line.
func (o *outer) start(name, dir, line string) {
	o.t.Helper()
	cmd := exec.Command(o.tmux, "-S", o.sock, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-s", name, "-c", dir, "sh", "-c", line+"; sleep 3600")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	if out, err := cmd.CombinedOutput(); err != nil {
		o.t.Fatalf("tmux new-session: %v %s", err, out)
	}
}

func (o *outer) screen(name string) string { return o.run("capture-pane", "-p", "-t", name) }

// waitFor waits until what read returns matches re, and returns it.
func waitFor(t *testing.T, what string, read func() string, re string, within time.Duration) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(within)
	for {
		s := read()
		if rx.MatchString(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q in %s within %v:\n%s", re, what, within, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func fileText(path string) func() string {
	return func() string { b, _ := os.ReadFile(path); return string(b) }
}

func buildEmbed(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "embed")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// On a terminal, a query the command sends is answered once, by the
// terminal; with the output going to a file, nothing else can answer, so
// the tracker's screen does, once.
func TestEmbedAnswersEveryQueryOnce(t *testing.T) {
	o := newOuter(t)
	embed := buildEmbed(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	line := fmt.Sprintf("EMBED_TEST_ASK=1 %q -- %q -test.run=^$", embed, self)
	o.start("term", dir, line)
	s := waitFor(t, "the screen", func() string { return o.screen("term") }, `answers=\d`, 30*time.Second)
	if !strings.Contains(s, "answers=1") {
		t.Errorf("on a terminal the command got other than one answer:\n%s", s)
	}

	out := filepath.Join(dir, "out")
	o.start("file", dir, line+" >"+out)
	s = waitFor(t, "the output file", fileText(out), `answers=\d`, 30*time.Second)
	if !strings.Contains(s, "answers=1") {
		t.Errorf("with the output in a file the command got other than one answer (the tracker's):\n%q", s)
	}
}

// The README's line, `go run` in front of both programs: the states are
// printed as the pretend agent goes through its turn (go run's `go` leads
// the terminal's foreground at first, and hides the agent from a tracker
// unless the agent takes the foreground itself).
func TestEmbedGoRunPretendAgentPrintsTheStates(t *testing.T) {
	o := newOuter(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// The states go to stderr: kept in a file, as the agent paints over
	// its prompt on the terminal.
	states := filepath.Join(t.TempDir(), "states")
	o.start("t", root, "go run ./examples/embed -- go run ./examples/pretend-agent 2>"+states)
	waitFor(t, "the states", fileText(states), `\[▲ needs_input from screen\] "approval: Do you want to proceed\?"`, 120*time.Second)
	o.run("send-keys", "-t", "t", "1")
	s := waitFor(t, "the states", fileText(states), `\[○ idle from osc\]`, 30*time.Second)
	var order []string
	for _, l := range strings.Split(s, "\n") {
		if m := regexp.MustCompile(`^\[\S+ (\w+) from \w+\]`).FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			order = append(order, m[1])
		}
	}
	if got := strings.Join(order, " "); got != "working needs_input working idle" {
		t.Errorf("states %q, want working needs_input working idle:\n%s", got, s)
	}
	o.run("send-keys", "-t", "t", "q", "Enter")
	s = waitFor(t, "the states", fileText(states), `exited: exit status 0`, 30*time.Second)
	// The agent left: the pane is unclaimed, and no source is named.
	if !strings.Contains(s, `[ none] ""`) || strings.Contains(s, "from none") {
		t.Errorf("the agent's exit should print [ none] with no source:\n%s", s)
	}
}
