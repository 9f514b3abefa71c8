package daemon

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// leader starts a process that leads a terminal session of its own, as a
// pane shell does, a child of this process (the daemon here).
func leader(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd.Process.Pid
}

// notYet checks that placing has not finished while a window it waits
// for is still starting. A placement that returns early is the bug; one
// that is slow to get here only makes this check weaker.
func notYet[T any](t *testing.T, placed <-chan T, what string) {
	t.Helper()
	select {
	case v := <-placed:
		t.Fatalf("%s: placed (%+v) before the window it runs in was listed", what, v)
	case <-time.After(100 * time.Millisecond):
	}
}

// A process of a window that is still starting may call before the
// window is listed (its shell forks before the daemon learns its pid,
// and lists it a moment later): it is placed in that window once it is
// there, never as a caller in no pane.
func TestAPaneProcessThatCallsWhileItsWindowStartsIsPlacedInIt(t *testing.T) {
	t.Parallel()
	srv, _ := server(t)

	// The shell's pid is registered, the window not listed yet.
	pid := leader(t)
	listed := srv.panes.StartsWindow("w1")
	srv.panes.AddShell(pid, "w1")
	placed := make(chan *conn, 1)
	go func() {
		cn := &conn{s: srv, peer: pid}
		srv.place(cn)
		placed <- cn
	}()
	notYet(t, placed, "a process of a registered shell")
	listed()
	if cn := <-placed; cn.placedID != "w1" || !cn.inside {
		t.Fatalf("placed in %q (inside %v), want w1", cn.placedID, cn.inside)
	}

	// The shell has forked but its pid is not registered yet: a session
	// leader the daemon started that is no pane's shell.
	pid = leader(t)
	listed = srv.panes.StartsWindow("w2")
	where := make(chan placement, 1)
	go func() { where <- srv.locate(pid) }()
	notYet(t, where, "a shell not registered yet")
	srv.panes.AddShell(pid, "w2")
	listed()
	if pl := <-where; pl.pane != "w2" || !pl.inside {
		t.Fatalf("placed as %+v, want in w2", pl)
	}

	// With no window starting, such a process is inside, in no pane, at
	// once.
	if pl := srv.locate(leader(t)); pl.pane != "" || !pl.inside {
		t.Fatalf("an unknown session leader the daemon started: %+v", pl)
	}
}
