package tui

import (
	"os"
	"strconv"

	"github.com/charmbracelet/x/term"
	"github.com/tuios/tuios/internal/rawio"
)

// reopenTTY opens the terminal behind f once more (flag: os.O_RDONLY or
// os.O_WRONLY), as a file of its own: the new open file description is
// non-blocking without touching the one the shell shares, so the
// runtime's poller waits on it instead of a thread parked in a system
// call (which, woken per key, strands the goroutines it readied and
// keeps the scheduler's monitor polling), and it is read and written
// with raw calls. It is a rawio.File: the outer terminal reading a frame
// wakes no one (the poller is told of room to write only while a write
// waits for it). Closing it ends a pending read. nil when it cannot.
func reopenTTY(f *os.File, flag int) ttyFile {
	g, err := rawio.Open("/proc/self/fd/"+strconv.Itoa(int(f.Fd())), flag)
	if err != nil {
		return nil
	}
	if !term.IsTerminal(g.Fd()) {
		g.Close()
		return nil
	}
	return g
}
