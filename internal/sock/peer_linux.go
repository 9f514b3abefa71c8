package sock

import (
	"net"

	"golang.org/x/sys/unix"
)

// Peer is the kernel's word on the process at the other end of c
// (SO_PEERCRED: its pid and uid when it connected).
func Peer(c net.Conn) (Cred, error) {
	var cred Cred
	var gerr error
	err := rawFD(c, func(fd int) {
		uc, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
		if err != nil {
			gerr = err
			return
		}
		cred = Cred{PID: int(uc.Pid), UID: int(uc.Uid)}
	})
	if err == nil {
		err = gerr
	}
	return cred, err
}

// HungUp reports whether the peer has closed its end entirely (not only
// its writing half): a read that returned EOF may be a client that still
// waits for its answers after shutdown(SHUT_WR), or one that is gone.
// It never blocks and never consumes data.
func HungUp(c net.Conn) bool {
	hup := false
	rawFD(c, func(fd int) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN | unix.POLLRDHUP}}
		n, err := unix.Poll(fds, 0)
		for err == unix.EINTR { // the runtime's preemption signal: a gone peer must not read as present
			n, err = unix.Poll(fds, 0)
		}
		if err == nil && n > 0 {
			hup = fds[0].Revents&(unix.POLLHUP|unix.POLLERR) != 0
		}
	})
	return hup
}
