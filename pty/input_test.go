package pty

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// notReading starts a program in raw mode that never reads its input.
func notReading(t *testing.T) (*Process, *collector) {
	t.Helper()
	p := mustStart(t, Options{Argv: []string{"sh", "-c", "stty raw -echo; echo READY; exec sleep 1000"}, Env: shEnv()})
	c := collect(p)
	c.waitFor(t, "READY", 0)
	return p, c
}

// TestInputWriteNeverBlocks queues far more than a terminal's input buffer
// into a program that does not read: every Write returns at once, and the
// one that does not fit is refused whole.
func TestInputWriteNeverBlocks(t *testing.T) {
	p, _ := notReading(t)
	in := NewInput(p, InputOptions{Max: 64 << 10})
	defer in.Close()
	chunk := bytes.Repeat([]byte("x"), 4<<10)
	for i := 0; i < 16; i++ { // 64 KiB: 16 times a PTY's input buffer
		if n, err := in.Write(chunk); err != nil || n != len(chunk) {
			t.Fatalf("write %d: n=%d err=%v", i, n, err)
		}
	}
	before := in.Queued()
	if before == 0 {
		t.Fatal("nothing queued although the program does not read")
	}
	_, err := in.Write(bytes.Repeat([]byte("y"), 64<<10))
	var pe *Error
	if !errors.As(err, &pe) || pe.Code() != CodeInputFull || pe.Hint() == "" {
		t.Fatalf("over-full write: %v", err)
	}
	if got := in.Queued(); got > before {
		t.Fatalf("a refused write queued %d bytes", got-before)
	}
}

// TestInputSendStopsAtContext: Send waits for room and gives up when its
// context ends, saying how much it queued.
func TestInputSendStopsAtContext(t *testing.T) {
	p, _ := notReading(t)
	in := NewInput(p, InputOptions{Max: 16 << 10})
	defer in.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var n int
	var err error
	go func() {
		n, err = in.Send(ctx, bytes.Repeat([]byte("z"), 200<<10))
		close(done)
	}()
	cancel()
	<-done
	if !errors.Is(err, context.Canceled) || n >= 200<<10 {
		t.Fatalf("Send = %d, %v; want fewer than all bytes and context.Canceled", n, err)
	}
}

// TestInputDeliversInOrder sends 300 KB through a reader that copies its
// input to a file: every byte arrives, in order.
func TestInputDeliversInOrder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	const size = 300_000
	p := mustStart(t, Options{Argv: []string{"sh", "-c", "stty raw -echo; echo READY; head -c " + strconv.Itoa(size) + " > " + out + "; echo DONE"}, Env: shEnv()})
	c := collect(p)
	c.waitFor(t, "READY", 0)
	in := NewInput(p, InputOptions{Max: 8 << 10})
	defer in.Close()
	want := make([]byte, size)
	for i := range want {
		want[i] = 'a' + byte(i%26)
	}
	if n, err := in.Send(context.Background(), want); err != nil || n != size {
		t.Fatalf("Send = %d, %v", n, err)
	}
	c.waitFor(t, "DONE", 0)
	got, err := os.ReadFile(out)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("delivered %d bytes (err %v), equal=%v", len(got), err, bytes.Equal(got, want))
	}
}

// TestInputCloseReleasesBlockedWrite: the writer goroutine stuck in a
// write to a program that never reads ends when the Input is closed, while
// the program still runs.
func TestInputCloseReleasesBlockedWrite(t *testing.T) {
	p, _ := notReading(t)
	base := runtime.NumGoroutine()
	in := NewInput(p, InputOptions{})
	if _, err := in.Write(bytes.Repeat([]byte("q"), 100<<10)); err != nil {
		t.Fatal(err)
	}
	in.Close()
	if n := settle(base); n > base {
		t.Fatalf("%d goroutines after Close, want %d", n, base)
	}
	var pe *Error
	if _, err := in.Write([]byte("a")); !errors.As(err, &pe) || pe.Code() != CodeClosed {
		t.Fatalf("write after Close: %v", err)
	}
	if p.Exited() {
		t.Fatal("the program should still run")
	}
}

// TestExitedIgnoresChildrenHoldingTheTerminal: the child's own exit is the
// exit, even while a background job that ignores SIGHUP keeps the terminal.
func TestExitedIgnoresChildrenHoldingTheTerminal(t *testing.T) {
	p := mustStart(t, Options{Argv: []string{"sh", "-c", "trap '' HUP; sleep 1000 & echo BG $!; read x; exit 0"}, Env: shEnv()})
	c := collect(p)
	c.waitFor(t, "BG ", 0)
	if p.Exited() {
		t.Fatal("Exited before the child exited")
	}
	p.Write([]byte("go\n"))
	deadline := time.Now().Add(10 * time.Second)
	for !p.Exited() {
		if time.Now().After(deadline) {
			t.Fatal("Exited never reported the child's exit")
		}
		time.Sleep(5 * time.Millisecond)
	}
	select {
	case <-c.done:
		t.Fatal("the terminal closed although the background job holds it")
	default:
	}
	if st, err := p.Wait(); err != nil || !st.Success() {
		t.Fatalf("Wait = %v, %v", st, err)
	}
}

// TestCloseKillsTheWholeSession: background jobs in groups of their own
// (set -m) that ignore SIGHUP are killed by Close too.
func TestCloseKillsTheWholeSession(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("session members are found through /proc")
	}
	p := mustStart(t, Options{Argv: []string{"sh", "-c", "set -m; (trap '' HUP TERM; exec sleep 1000) & echo BG $!; wait"}, Env: shEnv()})
	c := collect(p)
	end := c.waitFor(t, "BG ", 0)
	c.waitFor(t, "\n", end)
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(c.String()[end:], "\n", 2)[0]))
	if err != nil {
		t.Fatal(err)
	}
	if !alive(pid) {
		t.Fatal("background job not running")
	}
	p.Close()
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("background job %d survived Close", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// alive reports whether pid runs (a zombie awaiting its reaper is dead).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] != 'Z'
}
