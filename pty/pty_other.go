//go:build !linux

package pty

import (
	"os"

	"github.com/creack/pty"
)

// openPTY opens a PTY pair. Outside Linux the master stays in blocking mode
// (kqueue support for PTYs varies): a Read blocked in another goroutine
// returns once the process tree has closed the slave side, which Close
// ensures by killing it.
func openPTY() (master, slave *os.File, err error) { return pty.Open() }

// waitExited is not available here: the child is reaped directly.
func waitExited(int) bool { return false }

func foregroundPgrpOf(int) (int, error) {
	return 0, &Error{Code: CodeUnsupported, Op: "foreground_pgrp"}
}
