//go:build !linux

package sock

import (
	"net"

	"golang.org/x/sys/unix"
)

// Peer is the kernel's word on the process at the other end of c
// (LOCAL_PEERCRED for the uid, LOCAL_PEERPID for the pid).
func Peer(c net.Conn) (Cred, error) {
	var cred Cred
	var gerr error
	err := rawFD(c, func(fd int) {
		x, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		if err != nil {
			gerr = err
			return
		}
		cred.UID = int(x.Uid)
		if pid, err := unix.GetsockoptInt(fd, unix.SOL_LOCAL, unix.LOCAL_PEERPID); err == nil {
			cred.PID = pid
		}
	})
	if err == nil {
		err = gerr
	}
	return cred, err
}

// HungUp reports whether the peer has closed its end entirely. Without
// POLLRDHUP a half-closed peer cannot be told from a gone one, so an EOF
// counts as a hang-up here.
func HungUp(c net.Conn) bool { return true }
