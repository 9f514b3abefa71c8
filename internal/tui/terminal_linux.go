package tui

import (
	"os"
	"strconv"

	"github.com/charmbracelet/x/term"
)

// pollableInput opens the terminal behind in once more, as a file of its
// own: the new open file description is non-blocking without touching
// the one the shell shares, so the runtime's poller waits for keys
// instead of a thread parked in a system call (a thread that, woken per
// key, strands the goroutines it readied and keeps the scheduler's
// monitor polling). Closing it ends a pending read. nil when it cannot.
func pollableInput(in *os.File) *os.File {
	f, err := os.OpenFile("/proc/self/fd/"+strconv.Itoa(int(in.Fd())), os.O_RDONLY, 0)
	if err != nil {
		return nil
	}
	// Not f.Fd(): it would put the file back in blocking mode.
	isTTY := false
	if rc, err := f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) { isTTY = term.IsTerminal(fd) })
	}
	if !isTTY {
		f.Close()
		return nil
	}
	return f
}
