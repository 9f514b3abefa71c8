package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A review note on an agent's change reaches the agent: review send
// composes the message, the reply queue types it once the agent rests,
// and the (pretend) agent takes it as its next prompt.
func TestAReviewNoteReachesTheAgentThroughTheQueue(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	e := newEnv(t)
	repo := filepath.Join(e.dir, "repo")
	os.MkdirAll(repo, 0o700)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "retry.go"), []byte("package api\n\nfunc retry() error {\n\treturn nil\n}\n"), 0o600)
	git("add", ".")
	git("commit", "-q", "-m", "base")
	// The agent's change.
	os.WriteFile(filepath.Join(repo, "retry.go"), []byte("package api\n\nfunc retry() error {\n\tfor i := 0; i < 3; i++ {\n\t}\n\treturn nil\n}\n"), 0o600)

	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "agent", "--no-focus", "--cwd", repo, "--", e.bin, "pretend-agent", "-prompt=false", "-steps", "2", "-step", "100ms")
	// Its turn ends; its hook says so, as the demo's does.
	e.ok("wait-for", "window-output", "-s", "work", "-w", "agent", "--pattern", `Done: tidy`, "--timeout", "20000")
	e.ok("set-agent-state", "done", "-s", "work", "-w", "agent", "--harness", "claude-code")

	if out := e.ok("review", "-s", "work", "-w", "agent", "--stat"); !strings.Contains(out, ": 1 file, +2 -0") {
		t.Fatalf("review --stat of one changed file:\n%s", out)
	}
	e.ok("review", "note", "-s", "work", "-w", "agent", "retry.go:4", "log the attempt number here too")
	e.ok("review", "send", "-s", "work", "-w", "agent")
	// Typed once the agent has rested 1 s, as one message: the agent reads
	// it as its next prompt and starts a turn on it.
	e.ok("wait-for", "window-output", "-s", "work", "-w", "agent", "--pattern", `log the attempt number here too`, "--timeout", "20000")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "agent", "--pattern", `Done: read [0-9]+ bytes of prompt`, "--timeout", "20000")
	if out := e.ok("queue", "ls", "-s", "work", "-w", "agent"); strings.Contains(out, "waiting") || strings.Contains(out, "stalled") {
		t.Fatalf("the queue still holds the review:\n%s", out)
	}
}

// review --host NAME SESSION names a session on that machine, which review
// does not read yet: it is refused, and never answered with this machine's
// session of the same name. --host local SESSION is this machine's.
func TestReviewWithHostNamesTheFarSession(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	e := newEnv(t)
	repo := filepath.Join(e.dir, "repo")
	os.MkdirAll(repo, 0o700)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"commit", "-q", "--allow-empty", "-m", "base"}} {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("hi\n"), 0o600)
	e.ok("new", "--detach", "api", "--cwd", repo)

	if out := e.ok("review", "--host", "local", "api", "--stat"); !strings.Contains(out, "U a.txt") {
		t.Fatalf("review --host local api:\n%s", out)
	}
	r := e.fails("not_repo", "review", "--host", "build", "api", "--stat")
	if !strings.Contains(r.err, "another machine") || r.out != "" {
		t.Fatalf("review --host build api reviewed something:\nstdout: %s\nstderr: %s", r.out, r.err)
	}
}
