package rawio

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// File is a non-blocking descriptor the runtime's poller waits on only
// in the direction a caller waits for. A descriptor handed to the poller
// itself is watched for reading and writing at once, edge-triggered: a
// terminal or socket the peer reads from wakes the process each time,
// for room to write nobody asked for. That is one wakeup per key and
// one per echo on the attach path, as many as the work itself. So the
// descriptor gets two epoll instances of its own, registered with the
// poller: one watching it for input, always; one for room, armed only
// while a write waits (one-shot). A write-space wakeup then reaches no
// one unless a write is waiting for it.
//
// Reads and writes are raw calls (Read, Write); Close ends a pending
// Read or Write.
type File struct {
	fd  int
	in  *os.File // epoll: fd readable, hung up
	out *os.File // epoll: fd writable, armed by a waiting write
	irc syscall.RawConn
	orc syscall.RawConn

	once   sync.Once
	closed atomic.Bool
	err    error // Close's
}

// Open opens path (a terminal, a FIFO: anything epoll can watch) as a
// File; flag is os.O_RDONLY, os.O_WRONLY or os.O_RDWR. The open file
// description is new and non-blocking: one shared with another process
// (the shell's terminal) keeps its mode.
func Open(path string, flag int) (*File, error) {
	fd, err := syscall.Open(path, flag|syscall.O_NONBLOCK|syscall.O_CLOEXEC|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f, err := newFile(fd)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return f, nil
}

// NewFile makes a File of fd, a non-blocking descriptor (a PTY master)
// it owns from then on: closed by Close, or at once on failure. Nothing
// else may hand fd to the runtime's poller (os.NewFile would).
func NewFile(fd int) (*File, error) {
	if !nonBlocking(uintptr(fd)) {
		syscall.Close(fd)
		return nil, syscall.EINVAL
	}
	return newFile(fd)
}

// newFile makes a File of fd, which it owns from then on (closed on
// failure too); fd must be non-blocking.
func newFile(fd int) (*File, error) {
	f := &File{fd: fd}
	var err error
	if f.in, f.irc, err = watch(fd, syscall.EPOLLIN|syscall.EPOLLRDHUP); err == nil {
		// Only hang-ups and errors until a write arms it.
		f.out, f.orc, err = watch(fd, 0)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// watch is an epoll instance watching fd for events, as a file the
// poller waits on (an epoll instance is readable while it holds events).
func watch(fd int, events uint32) (*os.File, syscall.RawConn, error) {
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, nil, err
	}
	ev := syscall.EpollEvent{Events: events}
	if events == 0 {
		ev.Events = syscall.EPOLLONESHOT // parked: see Write
	}
	if err := syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
		syscall.Close(ep)
		return nil, nil, err
	}
	if err := syscall.SetNonblock(ep, true); err != nil {
		syscall.Close(ep)
		return nil, nil, err
	}
	f := os.NewFile(uintptr(ep), "epoll")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, rc, nil
}

// Fd is the descriptor, for ioctls (its size, its mode).
func (f *File) Fd() uintptr { return uintptr(f.fd) }

// SetReadDeadline ends a Read waiting past t (os.ErrDeadlineExceeded).
func (f *File) SetReadDeadline(t time.Time) error { return f.in.SetReadDeadline(t) }

// SetWriteDeadline ends a Write waiting past t.
func (f *File) SetWriteDeadline(t time.Time) error { return f.out.SetReadDeadline(t) }

// SetDeadline is both.
func (f *File) SetDeadline(t time.Time) error {
	if err := f.SetReadDeadline(t); err != nil {
		return err
	}
	return f.SetWriteDeadline(t)
}

// SyscallConn is the descriptor's RawConn: Read waits for input, Write
// for room (armed as Write arms it), each as the poller's own would.
func (f *File) SyscallConn() (syscall.RawConn, error) { return fileRaw{f}, nil }

type fileRaw struct{ f *File }

func (r fileRaw) Control(fn func(fd uintptr)) error {
	return r.f.irc.Control(func(uintptr) { fn(uintptr(r.f.fd)) })
}

func (r fileRaw) Read(fn func(fd uintptr) bool) error {
	return r.f.closedErr(r.f.irc.Read(func(uintptr) bool { return fn(uintptr(r.f.fd)) }))
}

func (r fileRaw) Write(fn func(fd uintptr) bool) error {
	armed := false
	err := r.f.orc.Read(func(ep uintptr) bool {
		if fn(uintptr(r.f.fd)) {
			if armed {
				arm(ep, r.f.fd, 0)
			}
			return true
		}
		// fn found no room (EAGAIN): wait for some.
		if e := arm(ep, r.f.fd, syscall.EPOLLOUT); e != 0 {
			return true // cannot wait: fn is not called again
		}
		armed = true
		return false
	})
	return r.f.closedErr(err)
}

// Read reads what is there, waiting (in the poller) until something is;
// 0 bytes at the end is io.EOF.
func (f *File) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	// The raw call runs inside the wait's callback: Close waits for it,
	// so the descriptor is never closed under it.
	err := f.irc.Read(func(uintptr) bool {
		n, errno = Read(uintptr(f.fd), p)
		return errno != syscall.EAGAIN
	})
	switch {
	case err != nil:
		return 0, f.closedErr(err)
	case errno == syscall.EIO:
		return 0, io.EOF // a terminal whose other side is gone
	case errno != 0:
		return 0, errno
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Write writes all of p, waiting (in the poller) for room as it must.
func (f *File) Write(p []byte) (int, error) {
	done := 0
	var errno syscall.Errno
	armed := false
	// The watch for room is armed only while this write waits, and
	// parked again before it returns: nobody reads the epoll instance,
	// so one-shot alone would never disarm it.
	err := f.orc.Read(func(ep uintptr) bool {
		for done < len(p) {
			n, e := Write(uintptr(f.fd), p[done:])
			if e == syscall.EAGAIN {
				// Room that came since the write is seen by the
				// arming itself: the instance turns readable.
				if e = arm(ep, f.fd, syscall.EPOLLOUT); e == 0 {
					armed = true
					return false
				}
			}
			if e != 0 {
				errno = e
				break
			}
			done += n
		}
		if armed {
			arm(ep, f.fd, 0)
		}
		return true
	})
	switch {
	case err != nil:
		return done, f.closedErr(err)
	case errno != 0:
		return done, errno
	}
	return done, nil
}

// arm sets what ep watches fd for: events, or (0) hang-ups and errors.
func arm(ep uintptr, fd int, events uint32) syscall.Errno {
	ev := syscall.EpollEvent{Events: events | syscall.EPOLLONESHOT}
	if err := syscall.EpollCtl(int(ep), syscall.EPOLL_CTL_MOD, fd, &ev); err != nil {
		return err.(syscall.Errno)
	}
	return 0
}

// Close ends a pending Read or Write and closes the descriptor once no
// call is under way on it (closing a non-blocking os.File waits for its
// callers, and every raw call runs inside one).
func (f *File) Close() error {
	f.once.Do(func() {
		f.closed.Store(true)
		if f.in != nil {
			f.in.Close()
		}
		if f.out != nil {
			f.out.Close()
		}
		f.err = syscall.Close(f.fd)
	})
	return f.err
}

// closedErr is os.ErrClosed for a call that failed because of Close (the
// poller's own error for it is not os.ErrClosed).
func (f *File) closedErr(err error) error {
	if err != nil && f.closed.Load() {
		return os.ErrClosed
	}
	return err
}
