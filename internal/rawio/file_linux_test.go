package rawio

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// pending is how many events ep holds now, without waiting.
func pending(t *testing.T, ep *os.File) int {
	t.Helper()
	n := 0
	rc, _ := ep.SyscallConn()
	rc.Control(func(fd uintptr) {
		ev := make([]syscall.EpollEvent, 4)
		var err error
		n, err = syscall.EpollWait(int(fd), ev, 0)
		if err != nil {
			t.Fatal(err)
		}
	})
	return n
}

// A Conn carries bytes both ways whole, past the socket's buffer (the
// writer waits for room), and its writing half closes on its own.
func TestConnWhole(t *testing.T) {
	a0, b0 := unixPair(t)
	a, b := NewConn(a0), NewConn(b0)
	if _, ok := a.(*Conn); !ok {
		t.Fatalf("NewConn of a unix socket is %T", a)
	}
	defer a.Close()
	defer b.Close()
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	go func() {
		n, err := a.Write(want)
		if err != nil || n != len(want) {
			t.Errorf("write: %d %v", n, err)
		}
		if err := a.(*Conn).CloseWrite(); err != nil {
			t.Errorf("close write: %v", err)
		}
	}()
	got, err := io.ReadAll(b)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes of %d: %v", len(got), len(want), err)
	}
	// Half-closed: the other way still works.
	if _, err := b.Write([]byte("answer")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, err := a.Read(buf)
	if err != nil || string(buf[:n]) != "answer" {
		t.Fatalf("answer: %q %v", buf[:n], err)
	}
}

// The point of File: the peer reading what was written tells the poller
// nothing (no wakeup for room nobody waits for), while input does; a
// write that had to wait is woken by room, and parks the watch again.
func TestRoomWakesNoOneUnlessAWriteWaits(t *testing.T) {
	a0, b0 := unixPair(t)
	c := NewConn(a0).(*Conn)
	defer c.Close()
	if _, err := c.Write([]byte("key")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1<<20)
	if _, err := b0.Read(buf); err != nil {
		t.Fatal(err)
	}
	if n := pending(t, c.out); n != 0 {
		t.Fatalf("room after the peer read: %d events for the poller, want 0", n)
	}
	if n := pending(t, c.in); n != 0 {
		t.Fatalf("input watch has %d events with nothing to read", n)
	}
	b0.Write([]byte("echo"))
	if n := pending(t, c.in); n != 1 {
		t.Fatalf("input watch has %d events after the peer wrote, want 1", n)
	}

	// Fill the socket: the write waits for room, and gets it when the
	// peer reads.
	big := bytes.Repeat([]byte("x"), 4<<20)
	done := make(chan error, 1)
	go func() {
		_, err := c.Write(big)
		done <- err
	}()
	total := 0
	for total < len(big) {
		b0.SetReadDeadline(time.Now().Add(10 * time.Second))
		n, err := b0.Read(buf)
		if err != nil {
			t.Fatalf("after %d bytes: %v", total, err)
		}
		total += n
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	b0.Write([]byte("more"))
	if _, err := c.Write([]byte("k")); err != nil {
		t.Fatal(err)
	}
	b0.Read(buf)
	if n := pending(t, c.out); n != 0 {
		t.Fatalf("the room watch stayed armed after the write: %d events", n)
	}
}

// The kernel's word on the peer is read through a Conn as through the
// socket it came from.
func TestConnPeerCredentials(t *testing.T) {
	a0, _ := unixPair(t)
	c := NewConn(a0).(*Conn)
	defer c.Close()
	rc, err := c.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var uc *unix.Ucred
	rc.Control(func(fd uintptr) { uc, err = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED) })
	if err != nil || int(uc.Pid) != os.Getpid() {
		t.Fatalf("peer: %+v %v", uc, err)
	}
}

// A terminal opened as a File: input is read, a deadline ends a wait,
// and Close ends a pending read (the attach client's way out).
func TestFileTerminal(t *testing.T) {
	m, s, err := pty.Open()
	if err != nil {
		t.Skip("no pty:", err)
	}
	defer m.Close()
	defer s.Close()
	f, err := Open("/proc/self/fd/"+strconv.Itoa(int(s.Fd())), os.O_RDWR)
	if err != nil {
		t.Fatal(err)
	}
	// Ours is non-blocking; the description the slave shares keeps its mode.
	if fl, _ := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0); fl&unix.O_NONBLOCK == 0 {
		t.Fatal("the File is blocking")
	}
	if fl, _ := unix.FcntlInt(s.Fd(), unix.F_GETFL, 0); fl&unix.O_NONBLOCK != 0 {
		t.Fatal("opening a File made the shared description non-blocking")
	}
	m.Write([]byte("k\n")) // a line: the terminal is in canonical mode
	buf := make([]byte, 8)
	n, err := f.Read(buf)
	if err != nil || string(buf[:n]) != "k\n" {
		t.Fatalf("read %q %v", buf[:n], err)
	}
	if _, err := f.Write([]byte("echo")); err != nil {
		t.Fatal(err)
	}
	f.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	if _, err := f.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("past the deadline: %v", err)
	}
	f.SetReadDeadline(time.Time{})
	got := make(chan error, 1)
	go func() {
		_, err := f.Read(buf)
		got <- err
	}()
	f.Close() // whether the read waits already or not, it ends
	select {
	case err := <-got:
		if !errors.Is(err, os.ErrClosed) {
			t.Fatalf("read after close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the read")
	}
	if err := f.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
}

var _ net.Conn = (*Conn)(nil)
