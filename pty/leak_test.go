package pty

import (
	"os"
	"runtime"
	"testing"
	"time"
)

func countFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	return len(ents)
}

// settle waits until the goroutine count drops to want or a deadline passes.
func settle(want int) int {
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		n := runtime.NumGoroutine()
		if n <= want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestNoLeaks runs 50 start/close cycles (with a reader blocked in Read
// when Close comes, a process that exited by itself, and failed starts) and
// checks that the numbers of open descriptors and goroutines come back to
// where they were.
func TestNoLeaks(t *testing.T) {
	// Warm up lazily created runtime state (poller, signal handling).
	p := mustStart(t, Options{Argv: []string{"true"}})
	p.Wait()
	p.Close()

	garbage := t.TempDir() + "/garbage" // executable but not a program: fails in exec, after the PTY was opened
	if err := os.WriteFile(garbage, []byte{0x7f, 'E', 'L', 'F', 0}, 0o755); err != nil {
		t.Fatal(err)
	}

	fds0 := countFDs(t)
	g0 := settle(runtime.NumGoroutine())
	for i := 0; i < 50; i++ {
		switch i % 5 {
		case 0, 1, 2: // busy cat with a reader blocked in Read
			p, err := Start(Options{Argv: []string{"cat"}})
			if err != nil {
				t.Fatal(err)
			}
			c := collect(p)
			p.Write([]byte("x\n"))
			c.waitFor(t, "x", 0)
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			<-c.done
		case 3: // exits by itself; Wait then Close
			p, err := Start(Options{Argv: []string{"sh", "-c", "echo done"}})
			if err != nil {
				t.Fatal(err)
			}
			c := collect(p)
			p.Wait()
			<-c.done
			p.Close()
		case 4: // failed starts
			if _, err := Start(Options{Argv: []string{"no-such-command-xyz"}}); err == nil {
				t.Fatal("want error")
			}
			if _, err := Start(Options{Argv: []string{"sh"}, Dir: "/nonexistent-dir-xyz"}); err == nil {
				t.Fatal("want error")
			}
			if _, err := Start(Options{Argv: []string{"/etc/hostname"}}); err == nil {
				t.Fatal("want error")
			}
			if _, err := Start(Options{Argv: []string{garbage}}); err == nil {
				t.Fatal("want error")
			}
		}
	}
	fds1 := countFDs(t)
	g1 := settle(g0)
	t.Logf("50 cycles: fds %d -> %d, goroutines %d -> %d", fds0, fds1, g0, g1)
	if fds1 > fds0 {
		t.Errorf("leaked %d file descriptors", fds1-fds0)
	}
	if g1 > g0 {
		buf := make([]byte, 1<<16)
		t.Errorf("leaked %d goroutines:\n%s", g1-g0, buf[:runtime.Stack(buf, true)])
	}
}
