package daemon

import (
	"errors"
	"syscall"
	"time"

	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/rawio"
)

// A key's echo goes to the attached clients from the goroutine that read
// it from the pane. Handing it to the stream's goroutine instead (a poke)
// costs a hand-over and, with an idle P, a second thread woken to look
// for work, per key: more than the frame itself. So when a pane typed
// into within attachEcho prints a little, its reader builds the stream's
// frame and writes what the client's socket takes at once, unless the
// stream's goroutine is at work, or anything but screens changed (a
// layout, a bell, the end), or the socket has not taken the last frame
// whole: then it pokes, as for any output. It never waits on a client:
// what the socket does not take is left in the connection's buffer for
// the stream's goroutine to finish, poked.

const (
	// attachEchoBytes is the most a read may hold to be sent as an
	// echo: a flood comes in bigger reads, and waits for the pacing.
	attachEchoBytes = 512
	// attachEchoMax is the most a pane may print after a key for it to
	// be an echo, drawn at once: a prompt redrawn, a line of an editor.
	// Past it (the output of a command the key ran) frames are paced.
	attachEchoMax = 16 << 10
)

// echoing reports whether w was typed into since (unix ns) and has
// printed no more than an echo since.
func echoing(w *mux.Window, since int64) bool {
	at, printed := w.LastTyped()
	return at > since && printed <= attachEchoMax
}

// errNotEcho: the frame holds more than screens; the stream's goroutine
// sends it.
var errNotEcho = errors.New("not an echo")

// Printed is output for a pane's reader that read n bytes.
func (h *attachHub) Printed(w *mux.Window, titled bool, n int) {
	if h == nil || h.n.Load() == 0 {
		return
	}
	h.typedDirect(w, n) // attach_input.go: a key the client wrote itself
	if titled || n > attachEchoBytes || !echoing(w, time.Now().Add(-attachEcho).UnixNano()) {
		h.Output(w, titled)
		return
	}
	var held [4]*attachStream
	echo := held[:0]
	h.each(func(st *attachStream) {
		if st.ss != w.Session() {
			return
		}
		st.mu.Lock()
		shown := st.shown[w.ID]
		if shown {
			st.dirty[w.ID] = true
		}
		st.mu.Unlock()
		switch {
		case !shown:
		case len(echo) < cap(echo):
			echo = append(echo, st) // sent below, outside the hub's lock
		default:
			st.poke()
		}
	})
	for _, st := range echo {
		if !st.sendEcho() {
			st.poke()
		}
	}
}

// sendEcho sends the stream's next frame from the caller's goroutine;
// false when the stream's goroutine must (the caller pokes it).
func (st *attachStream) sendEcho() bool {
	if !st.fmu.TryLock() {
		return false // the stream's goroutine is at work: it sees the mark
	}
	defer st.fmu.Unlock()
	if st.stopped || !st.started || st.owed {
		return false
	}
	err := st.frame(true)
	switch {
	case errors.Is(err, errNotEcho):
		return false
	case err != nil:
		st.cn.stop() // the client is gone; its stream ends on its own
		return true
	}
	st.pacer.Wait(time.Now()) // a frame, counted: the pacing goes on from it
	return !st.owed
}

// writeNow writes b as far as the socket takes it at once. What it does
// not take is left for the stream's goroutine (st.owed, poked): the end
// of a line in the connection's buffer, or, when that buffer already
// holds something or b would not fit in it, all of b in st.rest.
func (st *attachStream) writeNow(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	cn := st.cn
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	if cn.w.Buffered() > 0 || len(b) > cn.w.Size() {
		st.owed = true
		st.rest = append(st.rest, b...)
		return nil
	}
	n := 0
	var werr syscall.Errno
	if sc, ok := cn.c.(syscall.Conn); ok {
		if rc, err := sc.SyscallConn(); err == nil {
			rc.Write(func(fd uintptr) bool {
				n, werr = rawio.Write(fd, b)
				return true // one try
			})
		}
	}
	switch werr {
	case 0, syscall.EAGAIN:
	default:
		return werr
	}
	if n < len(b) {
		st.owed = true
		cn.w.Write(b[n:]) // the buffer is empty and b fits: nothing is written here
	}
	return nil
}
