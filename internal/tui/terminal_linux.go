package tui

import (
	"os"
	"strconv"

	"github.com/charmbracelet/x/term"
)

// reopenTTY opens the terminal behind f once more (flag: os.O_RDONLY or
// os.O_WRONLY), as a file of its own: the new open file description is
// non-blocking without touching the one the shell shares, so the
// runtime's poller waits on it instead of a thread parked in a system
// call (which, woken per key, strands the goroutines it readied and
// keeps the scheduler's monitor polling), and internal/rawio can read
// and write it with raw calls. Closing it ends a pending read. nil when
// it cannot.
func reopenTTY(f *os.File, flag int) *os.File {
	g, err := os.OpenFile("/proc/self/fd/"+strconv.Itoa(int(f.Fd())), flag, 0)
	if err != nil {
		return nil
	}
	// Not g.Fd(): it would put the file back in blocking mode.
	isTTY := false
	if rc, err := g.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) { isTTY = term.IsTerminal(fd) })
	}
	if !isTTY {
		g.Close()
		return nil
	}
	return g
}
