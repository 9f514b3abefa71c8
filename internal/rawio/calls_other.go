//go:build !linux

package rawio

import "syscall"

// nonBlocking is true: here the calls are the ordinary ones, which may
// wait.
func nonBlocking(uintptr) bool { return true }

// Read is read(2) on a non-blocking descriptor, retried on EINTR.
func Read(fd uintptr, p []byte) (int, syscall.Errno) {
	for {
		n, err := syscall.Read(int(fd), p)
		if err != syscall.EINTR {
			return max(n, 0), errnoOf(err)
		}
	}
}

// Write is write(2) on a non-blocking descriptor, retried on EINTR.
func Write(fd uintptr, p []byte) (int, syscall.Errno) {
	for {
		n, err := syscall.Write(int(fd), p)
		if err != syscall.EINTR {
			return max(n, 0), errnoOf(err)
		}
	}
}

func errnoOf(err error) syscall.Errno {
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	if err != nil {
		return syscall.EIO
	}
	return 0
}
