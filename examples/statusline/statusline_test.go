package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tuios/tuios/pty"
)

// A private tmux server: a session with an agent pane and a plain shell.
type server struct {
	t    *testing.T
	sock string
}

func newServer(t *testing.T) *server {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux")
	}
	dir, err := os.MkdirTemp("", "statusline-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o700)
	s := &server{t: t, sock: filepath.Join(dir, "tmux.sock")}
	t.Cleanup(func() {
		exec.Command("tmux", "-S", s.sock, "kill-server").Run()
		os.RemoveAll(dir)
	})
	s.tmux("-f", "/dev/null", "new-session", "-d", "-s", "work", "-x", "120", "-y", "30", "sh")
	s.tmux("split-window", "-t", "work", "sh")
	return s
}

func (s *server) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.sock}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func build(t *testing.T) (statusline, agent string) {
	t.Helper()
	dir := t.TempDir()
	statusline, agent = filepath.Join(dir, "statusline"), filepath.Join(dir, "claude")
	for out, pkg := range map[string]string{statusline: ".", agent: "../pretend-agent"} {
		if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	return statusline, agent
}

// The status line follows an agent typed at a tmux pane's shell: the
// prompt it stops on, then its work once answered. The plain shell pane
// gets no line, and the tmux option is kept and cleared on exit.
func TestStatusLineFollowsAnAgentInATmuxPane(t *testing.T) {
	if testing.Short() {
		t.Skip("runs tmux, the status line and a pretend agent")
	}
	statusline, agent := build(t)
	srv := newServer(t)
	// The pretend agent, installed as claude and claiming no harness: the
	// detector finds it by its process, as it finds Claude Code.
	srv.tmux("send-keys", "-t", "work:0.0", agent+" -as '' -steps 2 -step 100ms", "Enter")

	proc, err := pty.Start(pty.Options{Argv: []string{statusline, "-S", srv.sock, "-interval", "200ms", "-tmux-option", "@agents"}})
	if err != nil {
		t.Fatal(err)
	}
	defer proc.Close()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(proc)
		for sc.Scan() {
			lines <- strings.TrimRight(sc.Text(), "\r")
		}
		close(lines)
	}()
	waitLine := func(want string) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the status line ended before %q", want)
				}
				if strings.Contains(l, "work:0.1") {
					t.Fatalf("the plain shell pane got a line: %q", l)
				}
				if l == want {
					return
				}
			case <-deadline:
				t.Fatalf("no line %q", want)
			}
		}
	}
	const prompt = "work:0.0 claude-code ▲ needs_input approval: Do you want to proceed?"
	waitLine(prompt)
	// The option is set before the lines are printed: it holds the prompt.
	if got := srv.tmux("show-option", "-gv", "@agents"); got != prompt {
		t.Errorf("@agents = %q, want %q", got, prompt)
	}
	srv.tmux("send-keys", "-t", "work:0.0", "1")
	waitLine("work:0.0 claude-code ● working")

	proc.Signal(syscall.SIGTERM)
	if st, _ := proc.Wait(); !st.Success() {
		t.Errorf("the status line ended with %v", st)
	}
	if out, err := exec.Command("tmux", "-S", srv.sock, "show-option", "-gv", "@agents").CombinedOutput(); err == nil && strings.TrimSpace(string(out)) != "" {
		t.Errorf("@agents is still %q after the status line ended", out)
	}
}
