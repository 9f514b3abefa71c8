//go:build linux

package pty

import (
	"io"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/creack/pty"
	"github.com/tuios/tuios/internal/rawio"
	"golang.org/x/sys/unix"
)

// openPTY opens a PTY pair with creack/pty and re-opens the master in
// non-blocking mode, as a rawio.File: the runtime's poller serves it and
// Close interrupts a blocked Read (creack/pty leaves it blocking), but it
// is watched for room to write only while a write waits. Every write to
// a terminal's master wakes whoever polls it for room (the kernel's tty
// layer does, at the end of each write), so an *os.File here would wake
// the daemon for each key the person's client writes to the pane itself
// (internal/daemon's attach_input.go).
func openPTY() (master masterFile, slave *os.File, err error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, nil, err
	}
	fd, err := unix.FcntlInt(m.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	m.Close()
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		s.Close()
		return nil, nil, err
	}
	f, err := rawio.NewFile(fd)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return f, s, nil
}

// waitExited blocks until pid has exited, leaving it unreaped (a zombie),
// and reports true; false if it could not wait that way.
func waitExited(pid int) bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err == unix.EINTR {
			continue
		}
		return err == nil
	}
}

// exited reports whether pid has exited, leaving it unreaped.
func exited(pid int) bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err == unix.ECHILD
		}
		// With WNOHANG and no child in a waitable state, Linux writes a
		// zero si_signo; otherwise SIGCHLD.
		return info.Signo != 0
	}
}

// killSession sends SIGKILL to every process whose session id is sid and
// returns once none of them runs: each is gone or a zombie (dead, waiting
// to be reaped). A SIGKILL is delivered at once but a process ends a
// moment later, so a caller told "closed" could otherwise still find it
// running. A member forking while this runs is caught by the next scan.
// It gives up after killSessionWait: a process stuck in the kernel
// (uninterruptible sleep) cannot be waited out.
func killSession(sid int) {
	self := os.Getpid()
	deadline := time.Now().Add(killSessionWait)
	pause := 100 * time.Microsecond
	for {
		dir, err := os.Open("/proc")
		if err != nil {
			return
		}
		names, _ := dir.Readdirnames(-1)
		dir.Close()
		alive := false
		for _, name := range names {
			pid, err := strconv.Atoi(name)
			if err != nil || pid == self || pid <= 1 {
				continue
			}
			b, err := os.ReadFile("/proc/" + name + "/stat")
			if err != nil {
				continue
			}
			if s, err := parseStatSession(b); err != nil || s != sid || statZombie(b) {
				continue
			}
			if unix.Kill(pid, unix.SIGKILL) == nil {
				alive = true
			}
		}
		if !alive || time.Now().After(deadline) {
			return
		}
		time.Sleep(pause)
		pause = min(2*pause, 10*time.Millisecond)
	}
}

// killSessionWait bounds how long killSession waits for the killed to end.
const killSessionWait = 2 * time.Second

func foregroundPgrpOf(pid int) (int, error) {
	path := "/proc/" + strconv.Itoa(pid) + "/stat"
	b, err := os.ReadFile(path)
	if err != nil {
		code := CodeProcessDone
		if !os.IsNotExist(err) {
			code = CodeIoctlFailed
		}
		return 0, &Error{code: code, Op: "foreground_pgrp", Path: path, Err: err}
	}
	tpgid, err := parseStatTpgid(b)
	if err != nil {
		return 0, &Error{code: CodeIoctlFailed, Op: "foreground_pgrp", Path: path, Err: err}
	}
	if tpgid <= 0 {
		return 0, &Error{code: CodeNoForeground, Op: "foreground_pgrp", Path: path}
	}
	return tpgid, nil
}

// tryWrite writes what the terminal's input buffer takes at once, without
// waiting: the master is non-blocking, and one write is tried whatever it
// does. n is what was written (0 when it would have had to wait).
func tryWrite(f masterFile, b []byte) (int, error) {
	raw, err := f.SyscallConn()
	if err != nil {
		return 0, nil
	}
	n := 0
	var werr syscall.Errno
	if err := raw.Write(func(fd uintptr) bool {
		n, werr = rawio.Write(fd, b)
		return true
	}); err != nil {
		return 0, err
	}
	switch werr {
	case 0:
		return n, nil
	case syscall.EAGAIN:
		return 0, nil
	}
	return 0, werr
}

// newReader reads the master with raw calls (internal/rawio): the
// runtime's poller waits, and a read that finds output skips the
// scheduler's system-call bookkeeping, which wakes its monitor thread on
// every burst. The rawio.File openPTY made reads that way itself.
func newReader(master masterFile) io.Reader { return rawio.NewReader(master) }
