//go:build !linux

package tui

import "os"

// pollableInput is Linux's: elsewhere a terminal is not always one the
// runtime's poller can wait on (kqueue and ttys), so input is read
// through a cancelable reader.
func pollableInput(*os.File) *os.File { return nil }
