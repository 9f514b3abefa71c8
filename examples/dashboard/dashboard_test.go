package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/pty"
	"github.com/tuios/tuios/vt"
)

// build compiles the dashboard and the pretend agent. The pretend agent is
// named claude and told to claim no harness: the detector finds it by its
// process name, as it finds the real Claude Code.
func build(t *testing.T) (dashboard, agent string) {
	t.Helper()
	dir := t.TempDir()
	dashboard, agent = filepath.Join(dir, "dashboard"), filepath.Join(dir, "claude")
	for out, pkg := range map[string]string{dashboard: ".", agent: "../pretend-agent"} {
		if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	return dashboard, agent
}

// screen runs a program on a real PTY and keeps a screen of its output.
type screen struct {
	t    *testing.T
	proc *pty.Process
	vt   *vt.Screen
	done chan struct{}
}

func start(t *testing.T, argv ...string) *screen {
	t.Helper()
	proc, err := pty.Start(pty.Options{Argv: argv, Cols: 140, Rows: 20})
	if err != nil {
		t.Fatal(err)
	}
	s := &screen{t: t, proc: proc, vt: vt.New(vt.Options{Cols: 140, Rows: 20, Reply: proc}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		buf := make([]byte, 8192)
		for {
			n, err := proc.Read(buf)
			s.vt.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { proc.Close() })
	return s
}

// row is the table row of command n, "" while there is none.
func (s *screen) row(n string) string {
	for _, l := range strings.Split(s.vt.Capture(vt.CaptureOptions{}), "\n") {
		if strings.HasPrefix(l, n+" ") {
			return l
		}
	}
	return ""
}

// waitRow waits until command n's row holds every word.
func (s *screen) waitRow(n string, words ...string) {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		row := s.row(n)
		ok := row != ""
		for _, w := range words {
			ok = ok && strings.Contains(row, w)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("row %s never held %q; the screen:\n%s", n, words, s.vt.Capture(vt.CaptureOptions{}))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Three commands on three PTYs: an agent that stops on a permission
// prompt, one that works and exits, and a plain shell line. The table
// shows each one's state as it changes, and ctrl-c ends them all.
func TestDashboardTracksSeveralPTYs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the dashboard on a PTY")
	}
	dashboard, agent := build(t)
	s := start(t, dashboard,
		agent+" -as '' -steps 2 -step 100ms",
		agent+" -as '' -prompt=false -exit -steps 30 -step 100ms -task 'write the docs'",
		"echo plain output; sleep 1")

	s.waitRow("2", "● working", "claude-code")
	s.waitRow("1", "▲ needs_input", "screen", "claude-code", "approval: Do you want to proceed?")
	s.waitRow("3", "exited 0", "plain output")
	if row := s.row("3"); strings.Contains(row, "claude-code") {
		t.Errorf("the plain command was taken for an agent: %q", row)
	}
	s.waitRow("2", "exited 0", "Done: write the docs.")

	s.proc.Write([]byte{3}) // ctrl-c: the terminal sends SIGINT
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("the dashboard did not end on ctrl-c:\n%s", s.vt.Capture(vt.CaptureOptions{}))
	}
	if row := s.row("1"); !strings.Contains(row, "ended: killed") {
		t.Errorf("after ctrl-c the prompting agent's row is %q", row)
	}
	if st, _ := s.proc.Wait(); !st.Success() {
		t.Errorf("the dashboard ended with %v", st)
	}
}
