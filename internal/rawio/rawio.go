// Package rawio reads and writes non-blocking descriptors (sockets, a
// terminal opened afresh, a PTY master) the way the attach path needs:
// the runtime's poller does every wait, and deadlines hold, but a read or
// write that does not have to wait is a raw system call. The Go
// scheduler's system-call bookkeeping, on the first call after a quiet
// spell, wakes its monitor thread, which then polls every 20 µs for as
// long as the process is busy: for a process that wakes once per key and
// once per echo, most of what it spends. A raw call cannot be handed to
// another thread, so this is only for descriptors that never block.
//
// File and Conn (Linux) go one step further for a descriptor that a
// peer reads from while this process sleeps: the runtime's poller
// watches every descriptor for input and for room to write at once, so
// each time the peer takes what was written, the process wakes for room
// it did not ask for. File gives the descriptor epoll instances of its
// own, the one for room armed only while a write waits.
//
// On Linux it also passes descriptors over a Unix socket (SendFDs,
// Conn.AcceptFDs) and maps the small shared Page that goes with a pane's
// input passed to the person's attach client.
//
// It owns the calls, the readers and writers around them, File's
// watches and Page's mapping; it opens only what Open is given and
// configures nothing else. Off Linux it uses the ordinary calls, and NewConn returns its
// connection as it is.
package rawio

import (
	"io"
	"syscall"
)

// Reader reads a descriptor through its RawConn.
type Reader struct{ rc syscall.RawConn }

// NewReader is a Reader of c, or c itself when c has no usable RawConn
// or its descriptor blocks.
func NewReader(c io.Reader) io.Reader {
	if cc, ok := c.(*Conn); ok {
		return cc // its Read is raw already, and takes passed descriptors
	}
	if rc := rawConn(c); rc != nil {
		return &Reader{rc: rc}
	}
	return c
}

// rawConn is c's RawConn when its descriptor does not block, else nil.
func rawConn(c any) syscall.RawConn {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	ok = false
	if rc.Control(func(fd uintptr) { ok = nonBlocking(fd) }) != nil || !ok {
		return nil
	}
	return rc
}

// Read reads what is there, waiting (in the poller) until something is;
// 0 bytes at the end is io.EOF.
func (r *Reader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := r.rc.Read(func(fd uintptr) bool {
		n, errno = Read(fd, p)
		return errno != syscall.EAGAIN
	})
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, errno
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Writer writes a descriptor through its RawConn.
type Writer struct{ rc syscall.RawConn }

// NewWriter is a Writer of c, or c itself when c has no usable RawConn
// or its descriptor blocks.
func NewWriter(c io.Writer) io.Writer {
	if rc := rawConn(c); rc != nil {
		return &Writer{rc: rc}
	}
	return c
}

// Write writes all of p, waiting (in the poller) for room as it must.
func (w *Writer) Write(p []byte) (int, error) {
	done := 0
	var errno syscall.Errno
	err := w.rc.Write(func(fd uintptr) bool {
		for done < len(p) {
			n, e := Write(fd, p[done:])
			switch {
			case e == syscall.EAGAIN:
				return false
			case e != 0:
				errno = e
				return true
			}
			done += n
		}
		return true
	})
	switch {
	case err != nil:
		return done, err
	case errno != 0:
		return done, errno
	}
	return done, nil
}
