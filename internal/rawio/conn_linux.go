package rawio

import (
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// Conn is a Unix socket as a File: a connection whose peer reads what
// it wrote does not wake this process (see File). It is a net.Conn and a
// syscall.Conn, and can close its writing half.
type Conn struct {
	*File
	local, remote net.Addr

	// Descriptors passed by the peer (AcceptFDs, fds_linux.go).
	fdsOn atomic.Bool
	fmu   sync.Mutex
	fds   []int
}

var errEOF = io.EOF

// NewConn moves c's socket out of the runtime's poller into a Conn: the
// socket is duplicated and c closed (the socket stays open through the
// duplicate; nothing is read or lost). Anything but a *net.UnixConn, or
// a socket that cannot be moved, is returned as it is.
func NewConn(c net.Conn) net.Conn {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return c
	}
	rc, err := uc.SyscallConn()
	if err != nil {
		return c
	}
	fd := -1
	rc.Control(func(s uintptr) {
		fd, err = unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0)
	})
	if fd < 0 || err != nil {
		return c
	}
	f, err := newFile(fd)
	if err != nil {
		return c
	}
	nc := &Conn{File: f, local: uc.LocalAddr(), remote: uc.RemoteAddr()}
	uc.Close()
	return nc
}

// Read is File's, with a closed connection's error as net's.
func (c *Conn) Read(p []byte) (int, error) {
	if c.fdsOn.Load() {
		return c.readMsg(p)
	}
	n, err := c.File.Read(p)
	return n, netErr(err)
}

// Write is File's, with a closed connection's error as net's.
func (c *Conn) Write(p []byte) (int, error) {
	n, err := c.File.Write(p)
	return n, netErr(err)
}

// Close closes the connection and every received descriptor not taken.
func (c *Conn) Close() error {
	err := c.File.Close()
	c.dropFDs()
	return netErr(err)
}

func (c *Conn) LocalAddr() net.Addr  { return c.local }
func (c *Conn) RemoteAddr() net.Addr { return c.remote }

// CloseWrite shuts the writing half: the peer reads EOF, and can still
// answer.
func (c *Conn) CloseWrite() error {
	return c.control(func(fd int) error { return syscall.Shutdown(fd, syscall.SHUT_WR) })
}

func (c *Conn) control(fn func(fd int) error) error {
	var ferr error
	err := c.irc.Control(func(uintptr) { ferr = fn(c.fd) })
	if err != nil {
		return netErr(c.closedErr(err))
	}
	return ferr
}

func netErr(err error) error {
	if errors.Is(err, os.ErrClosed) {
		return net.ErrClosed
	}
	return err
}
