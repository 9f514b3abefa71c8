package sock

import (
	"fmt"
	"net"
	"syscall"

	"github.com/tuios/tuios/internal/rawio"
)

// Cred is what the kernel says about the process at the other end of a
// unix socket. Nothing in it comes from the peer's own words.
type Cred struct {
	PID int // 0 where the platform does not say
	UID int
}

// PeerError says the socket is served (or used) by another user.
type PeerError struct {
	Socket string
	UID    int
}

func (e *PeerError) Error() string {
	return fmt.Sprintf("the socket %s is served by uid %d, not by you: refusing to talk to it", e.Socket, e.UID)
}

// Code is the stable error code.
func (e *PeerError) Code() string { return "peer_foreign" }

// Hint says what to do.
func (e *PeerError) Hint() string {
	return "another user planted a socket where yours belongs: remove its directory, or point TUIOS_SOCKET somewhere private"
}

// rawFD runs fn with c's descriptor without changing its mode.
func rawFD(c net.Conn, fn func(fd int)) error {
	var sc syscall.Conn
	switch c := c.(type) {
	case *net.UnixConn:
		sc = c
	case *rawio.Conn: // a Unix socket out of the runtime's poller
		sc = c
	default:
		return fmt.Errorf("not a unix socket")
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return err
	}
	return raw.Control(func(fd uintptr) { fn(int(fd)) })
}
