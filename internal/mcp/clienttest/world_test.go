package clienttest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	bin       string
	buildErr  error
)

// TestMain removes the binary the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if bin != "" {
		os.RemoveAll(filepath.Dir(bin))
	}
	os.Exit(code)
}

// tuiosBin builds the tuios binary of this checkout once.
func tuiosBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		root, err := filepath.Abs("../../..")
		if err != nil {
			buildErr = err
			return
		}
		dir, err := os.MkdirTemp("", "tuios-clienttest-")
		if err != nil {
			buildErr = err
			return
		}
		bin = filepath.Join(dir, "tuios")
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/tuios")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return bin
}

// world is a real daemon on a private socket, with a session "work"
// holding a shell (sh) and a pretend agent waiting on its permission
// prompt (agent).
type world struct {
	t    *testing.T
	bin  string
	dir  string
	vars []string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	if testing.Short() {
		t.Skip("runs a daemon")
	}
	dir, err := os.MkdirTemp("", "tuios-ct-")
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, bin: tuiosBin(t), dir: dir}
	for _, d := range []string{"home", "run", "state", "config"} {
		os.MkdirAll(filepath.Join(dir, d), 0o700)
	}
	w.vars = []string{
		"PATH=" + filepath.Dir(w.bin) + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + filepath.Join(dir, "home"),
		"XDG_RUNTIME_DIR=" + filepath.Join(dir, "run"),
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"SHELL=/bin/sh", "ENV=", "PS1=$ ", "TERM=xterm-256color",
	}
	t.Cleanup(func() {
		w.run("kill-server")
		os.RemoveAll(dir)
	})
	w.ok("new", "--detach", "work")
	w.ok("new-window", "-s", "work", "sh", "--no-focus")
	w.ok("new-window", "-s", "work", "agent", "--no-focus", "--", w.bin, "pretend-agent", "--steps", "12", "--step", "250ms")
	w.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "needs_input", "--timeout", "30000")
	return w
}

func (w *world) run(args ...string) (string, error) {
	cmd := exec.Command(w.bin, args...)
	cmd.Env = w.vars
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (w *world) ok(args ...string) string {
	w.t.Helper()
	out, err := w.run(args...)
	if err != nil {
		w.t.Fatalf("tuios %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// mcpCommand is `tuios mcp` as a harness outside TUIOS starts it.
func (w *world) mcpCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(w.bin, append([]string{"mcp", "--scope", "all"}, args...)...)
	cmd.Env = w.vars
	return cmd
}
