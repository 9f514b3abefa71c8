//go:build !linux

package tui

import "os"

// reopenTTY is Linux's: elsewhere a terminal is not always one the
// runtime's poller can wait on (kqueue and ttys), so the client reads
// through a cancelable reader and writes the file it was given.
func reopenTTY(*os.File, int) ttyFile { return nil }
