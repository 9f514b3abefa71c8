package rawio

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// unixPair is two ends of a real unix socket.
func unixPair(t *testing.T) (a, b net.Conn) {
	t.Helper()
	dir := t.TempDir()
	l, err := net.Listen("unix", filepath.Join(dir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	acc := make(chan net.Conn, 1)
	go func() {
		c, _ := l.Accept()
		acc <- c
	}()
	a, err = net.Dial("unix", filepath.Join(dir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	b = <-acc
	if b == nil {
		t.Fatal("no accept")
	}
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, b
}

// Bytes go through both ways whole, whatever the socket's buffer holds
// at a time: a writer that finds it full waits in the poller.
func TestReadWriteWhole(t *testing.T) {
	a, b := unixPair(t)
	w, r := NewWriter(a), NewReader(b)
	if _, ok := w.(*Writer); !ok {
		t.Fatalf("a socket is written with %T", w)
	}
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB: far more than the buffer
	go func() {
		n, err := w.Write(want)
		if err != nil || n != len(want) {
			t.Errorf("write: %d %v", n, err)
		}
		a.Close()
	}()
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, want %d", len(got), len(want))
	}
}

// Deadlines hold: a read with nothing to read ends at the deadline.
func TestReadDeadline(t *testing.T) {
	_, b := unixPair(t)
	b.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	_, err := NewReader(b).Read(make([]byte, 8))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read past the deadline: %v", err)
	}
}

// Closing the descriptor ends a read that waits.
func TestCloseEndsARead(t *testing.T) {
	_, b := unixPair(t)
	done := make(chan error, 1)
	go func() {
		_, err := NewReader(b).Read(make([]byte, 8))
		done <- err
	}()
	b.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a read on a closed socket succeeded")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("closing did not end the read")
	}
}

// Something without a RawConn is used as it is.
func TestPlainReadersPassThrough(t *testing.T) {
	var buf bytes.Buffer
	if NewReader(&buf) != io.Reader(&buf) || NewWriter(&buf) != io.Writer(&buf) {
		t.Fatal("a bytes.Buffer was wrapped")
	}
}

// A descriptor in blocking mode is left to the ordinary calls: a raw
// call on it could hold a thread the runtime cannot take back.
func TestABlockingFileIsLeftAlone(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if r := NewReader(f); r != io.Reader(f) && runtime.GOOS == "linux" {
		t.Fatalf("a blocking file is read with %T", r)
	}
}
