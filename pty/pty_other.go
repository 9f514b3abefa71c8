//go:build !linux

package pty

import (
	"io"
	"os"

	"github.com/creack/pty"
)

// openPTY opens a PTY pair. Outside Linux the master stays in blocking mode
// (kqueue support for PTYs varies): a Read blocked in another goroutine
// returns once the process tree has closed the slave side, which Close
// ensures by killing it.
func openPTY() (master masterFile, slave *os.File, err error) { return pty.Open() }

// tryWrite is not available here (the master blocks): nothing is written,
// and the caller queues it all.
func tryWrite(masterFile, []byte) (int, error) { return 0, nil }

// waitExited is not available here: the child is reaped directly.
func waitExited(int) bool { return false }

// exited reports whether pid has exited: kill(pid, 0) still finds a
// zombie, so ask the process table for its state where it can (darwin).
func exited(pid int) bool { return zombie(pid) }

// killSession is Linux-only (it scans /proc): Close kills the child's
// group and the foreground group instead.
func killSession(int) {}

func foregroundPgrpOf(int) (int, error) {
	return 0, &Error{code: CodeUnsupported, Op: "foreground_pgrp"}
}

// newReader is the master itself: it is a blocking file here.
func newReader(master masterFile) io.Reader { return master }
