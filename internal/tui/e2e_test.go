package tui_test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/e2e"
)

// These tests run the real binary: a daemon of their own (its own
// runtime dir and home) and `tuios attach` inside a tmux server of its
// own, at a fixed size, driven by send-keys and read by capture-pane.

func TestMain(m *testing.M) {
	os.Exit(e2e.Main(m))
}

func tuiosBin(t *testing.T) string {
	t.Helper()
	return e2e.Binary(t)
}

type world struct {
	t    *testing.T
	bin  string
	dir  string
	vars []string
	tmux string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end")
	}
	tm, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	bin := tuiosBin(t)
	ew := e2e.NewWorld(t, bin)
	w := &world{t: t, bin: bin, dir: ew.Dir, tmux: tm}
	w.vars = append(ew.Vars, "XDG_CONFIG_HOME="+filepath.Join(ew.Home, ".config"), "LANG=C.UTF-8")
	t.Cleanup(func() {
		w.tmuxRun("kill-server")
		w.tuios("kill-server")
	})
	return w
}

func (w *world) tuios(args ...string) (string, error) {
	cmd := exec.Command(w.bin, args...)
	cmd.Env = w.vars
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (w *world) ok(args ...string) string {
	w.t.Helper()
	out, err := w.tuios(args...)
	if err != nil {
		w.t.Fatalf("tuios %v: %v\n%s", args, err, out)
	}
	return out
}

func (w *world) tmuxRun(args ...string) (string, error) {
	cmd := exec.Command(w.tmux, append([]string{"-L", "tuios-e2e-" + filepath.Base(w.dir), "-f", "/dev/null"}, args...)...)
	cmd.Env = w.vars
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// start runs a shell line in a new tmux session of 120x30; the line's
// exit status and the terminal's mode are printed after it, and the pane
// stays.
func (w *world) start(name, line string) {
	w.t.Helper()
	w.startAt(name, 120, 30, line)
}

// startAt is start in a tmux session of cols×rows.
func (w *world) startAt(name string, cols, rows int, line string) {
	w.t.Helper()
	script := line + `; echo "exit=$?"; stty -a | tr ' ;' '\n\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\n' ' '; echo; sleep 600`
	args := []string{"new-session", "-d", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), "-s", name, "sh", "-c", script}
	out, err := w.tmuxRun(args...)
	// A test that killed its last session left a tmux server on its way
	// out; a client that reached it as it went finds it gone, and the
	// next one starts a new server.
	for try := 0; err != nil && strings.Contains(out, "server exited unexpectedly") && try < 20; try++ {
		time.Sleep(50 * time.Millisecond)
		out, err = w.tmuxRun(args...)
	}
	if err != nil {
		w.t.Fatalf("tmux new-session: %v %s", err, out)
	}
}

func (w *world) keys(target string, keys ...string) {
	w.t.Helper()
	if out, err := w.tmuxRun(append([]string{"send-keys", "-t", target}, keys...)...); err != nil {
		w.t.Fatalf("send-keys: %v %s", err, out)
	}
}

func (w *world) screen(target string) string {
	out, _ := w.tmuxRun("capture-pane", "-p", "-t", target)
	return out
}

// waitFor polls the tmux pane until re matches, or fails with the screen.
func (w *world) waitFor(target, re string) string {
	w.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := w.screen(target)
		if rx.MatchString(s) {
			return s
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("timed out waiting for %q; the screen:\n%s", re, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestAttachTypeDetachReattach(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `\[s\] 1\*`)
	w.waitFor("c", `(?m)│ 0:\S`)
	w.keys("c", "echo $((6*7))x", "Enter")
	w.waitFor("c", `(?m)│42x\s*$`)

	w.keys("c", "C-b", "d")
	s := w.waitFor("c", `exit=\d+\n.*echo`)
	if !strings.Contains(s, "[detached (from session s)]") || !strings.Contains(s, "exit=0") {
		t.Errorf("after detach:\n%s", s)
	}
	if !regexp.MustCompile(`(?m)^icanon echo`).MatchString(s) {
		t.Errorf("terminal left in raw mode:\n%s", s)
	}
	if out := w.ok("ls"); !strings.Contains(out, "s") {
		t.Errorf("session gone after detach: %s", out)
	}

	w.start("c2", w.bin+" attach -t s")
	w.waitFor("c2", `(?m)│42x\s*$`)

	w.ok("set-agent-state", "needs_input", "-s", "s", "-w", "0", "-m", "approve?")
	w.waitFor("c2", `▲ 0:.*needs input`)
}

func TestAttachASCIIOnly(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.ok("set-agent-state", "needs_input", "-s", "s", "-w", "0")
	w.start("c", w.bin+" attach -t s --ascii-only")
	s := w.waitFor("c", `! 0:.*needs input`)
	if strings.ContainsAny(s, "▲●│") {
		t.Errorf("glyphs in ASCII mode:\n%s", s)
	}
}

func TestAttachDaemonGone(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `\[s\] 1\*`)
	w.killDaemon()
	s := w.waitFor("c", `exit=\d+\n.*echo`)
	if !strings.Contains(s, "tuios: the daemon went away") || !strings.Contains(s, "exit=1") {
		t.Errorf("after the daemon was killed:\n%s", s)
	}
	if !regexp.MustCompile(`(?m)^icanon echo`).MatchString(s) {
		t.Errorf("terminal left in raw mode:\n%s", s)
	}
}

// killDaemon kills this world's daemon with SIGKILL, so it says nothing
// to its clients.
func (w *world) killDaemon() {
	w.t.Helper()
	pid := w.daemonPID()
	if proc, err := os.FindProcess(pid); err == nil {
		proc.Kill()
	}
	// SIGKILL lands at once but the process ends a moment later: until
	// its last thread has gone, its listening socket still takes a
	// connection and then resets it, so the caller's next verb would fail
	// instead of starting a daemon again. A zombie leader is not enough
	// (its other threads may still hold the descriptors): wait until the
	// socket refuses, or another daemon (one a link started) serves it.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("unix", w.socketPath())
		if err != nil {
			return
		}
		c.Close()
		if now := w.findDaemonPID(); now != 0 && now != pid {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the daemon (pid %d) still serves 10 s after SIGKILL", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// gitRepo makes a repository named name under the world's folder with
// base (file name → content) committed on main, and returns its path
// (skipping the test when git is missing).
func (w *world) gitRepo(name string, base map[string]string) string {
	w.t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		w.t.Skip("git is not installed")
	}
	repo := filepath.Join(w.dir, name)
	os.MkdirAll(repo, 0o700)
	git := func(args ...string) {
		w.t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = w.vars
		if out, err := cmd.CombinedOutput(); err != nil {
			w.t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	for f, body := range base {
		os.WriteFile(filepath.Join(repo, f), []byte(body), 0o600)
	}
	git("add", ".")
	git("commit", "-q", "-m", "base")
	return repo
}
