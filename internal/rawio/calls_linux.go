package rawio

import (
	"syscall"
	"unsafe"
)

// nonBlocking reports whether fd has O_NONBLOCK: a raw call on it never
// waits.
func nonBlocking(fd uintptr) bool {
	fl, _, e := syscall.RawSyscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	return e == 0 && fl&syscall.O_NONBLOCK != 0
}

// Read is read(2) on a non-blocking descriptor, retried on EINTR.
func Read(fd uintptr, p []byte) (int, syscall.Errno) {
	if len(p) == 0 {
		return 0, 0
	}
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		if e != syscall.EINTR {
			if e != 0 {
				return 0, e
			}
			return int(n), 0
		}
	}
}

// Write is write(2) on a non-blocking descriptor, retried on EINTR.
func Write(fd uintptr, p []byte) (int, syscall.Errno) {
	if len(p) == 0 {
		return 0, 0
	}
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		if e != syscall.EINTR {
			if e != 0 {
				return 0, e
			}
			return int(n), 0
		}
	}
}
