package tui

import (
	"encoding/json"
	"syscall"
	"time"

	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/rawio"
	"golang.org/x/sys/unix"
)

// Keys straight to the pane (Linux, this machine's daemon). A key sent
// with send-text wakes the daemon to read it and write it to the pane:
// one of the four wakeups between a key and its echo. So the client asks
// the daemon for the focused pane's input (attach-input, on the call
// connection) and, once it holds it, writes the person's keys to the
// pane's terminal itself (internal/daemon's attach_input.go has the
// daemon's side and its rules).
//
// Order is kept by one rule: a key for the held window goes over the
// socket only after the input was let go, and the input is asked for
// again on the call connection, behind every key sent before. So:
//
//   - a key for another window, or for this one while anything waits in
//     the call queue, lets the input go and goes over the socket;
//   - the daemon's mark on the shared page (the focus moved, the pane is
//     closing, input was queued for it) lets it go, read before every
//     write;
//   - a write is non-blocking: what the terminal does not take goes
//     over the socket (the daemon queues it, in order), and the input
//     is let go;
//   - an answer to an ask after which a key went over the socket is
//     thrown away, and the input asked for again.
//
// Each key's time goes in the page before the write, so the daemon sends
// its echo at once; a quiet attach-typed note follows within noteDelay,
// one per burst, for what else the daemon does when the person types.

const (
	// noteDelay is how long after a key written to the pane its note
	// waits: past the echo, so the daemon reads it off the key's path,
	// and one note stands for the keys typed meanwhile.
	noteDelay = 20 * time.Millisecond
	// askBackoff is how long a refused ask waits before the next.
	askBackoff = time.Second
	// inputTag marks attach-input's answer, handled here, not by the model.
	inputTag = "\x00attach-input"
)

// The shared page's words (internal/daemon's attach_input.go).
const (
	pageRevoked = 0
	pageTyped   = 1
)

// heldInput is a pane input the daemon passed.
type heldInput struct {
	session, window string
	fd              int
	page            *rawio.Page
}

// keyInput is the state of keys straight to the pane, guarded by
// conns.mu.
type keyInput struct {
	held    *heldInput
	asking  string            // the window asked for, "" when no ask is out
	spoiled bool              // a key for it went over the socket after the ask
	after   time.Time         // no ask before it (an ask was refused)
	owed    map[string]string // window → session of keys written and not yet noted
	timer   *time.Timer
	off     bool // never ask (tests, and a daemon that cannot pass one)
}

// writeKey writes r, a send-text for the held window, to the pane when
// it may: true when all of it went. Otherwise r is what is left to send
// over the socket, and the input was let go when it had to be. Called
// with c.mu held.
func (c *conns) writeKey(r *request) bool {
	k := &c.keys
	h := k.held
	st, ok := typedText(*r)
	if h == nil || !ok || r.tag != "" {
		return false
	}
	win, sess, text := st.Window, st.Session, st.Text
	switch {
	case win != h.window || sess != h.session:
		c.letGo() // the focus moved here before the daemon's mark
		return false
	case len(c.queue) > 0 || c.busy:
		c.letGo() // a call queued before it: the key waits behind it
		return false
	case h.page.Word(pageRevoked).Load() != 0:
		c.letGo()
		return false
	case text == "":
		return true
	}
	h.page.Word(pageTyped).Store(time.Now().UnixNano()) // before the write: the echo can come at once
	n, errno := rawio.Write(uintptr(h.fd), []byte(text))
	if n > 0 {
		c.owe(h)
	}
	if n == len(text) && errno == 0 {
		return true
	}
	// The terminal took part or none (full), or the write failed (n is
	// 0): the rest goes over the socket, behind what went, and the
	// daemon's queue keeps the order.
	c.letGo()
	if n > 0 {
		st.Text = text[n:]
		r.params = st
	}
	return false
}

// letGo closes the held input. Called with c.mu held.
func (c *conns) letGo() {
	h := c.keys.held
	if h == nil {
		return
	}
	c.keys.held = nil
	syscall.Close(h.fd)
	h.page.Close()
}

// askInput is the ask for r's window to send after r, a send-text that
// went over the socket; ok is false when none is due. Called with c.mu
// held.
func (c *conns) askInput(r request) (ask request, ok bool) {
	k := &c.keys
	st, ok := typedText(r)
	if !ok || r.tag != "" || k.off || !rawio.FDPassing {
		return ask, false
	}
	win, sess := st.Window, st.Session
	if k.asking != "" {
		if win == k.asking {
			k.spoiled = true // a key behind the ask: its answer is stale
		}
		return ask, false
	}
	c.smu.Lock()
	local, quiet := c.host == "", c.calls != nil && c.calls.quiet
	c.smu.Unlock()
	if win == "" || sess == "" || !local || !quiet || k.held != nil || time.Now().Before(k.after) {
		return ask, false
	}
	k.asking, k.spoiled = win, false
	return request{verb: "attach-input", params: proto.AttachInputParams{Session: sess, Window: win}, tag: inputTag}, true
}

// inputAnswer takes attach-input's answer off the call line: the input
// is held when the ask is still good, else its descriptors are closed.
func (c *conns) inputAnswer(line *callLine, r request, raw []byte, err error) {
	var fds []int
	var res proto.InputPassed
	if err == nil && json.Unmarshal(raw, &res) == nil && res.FDs > 0 && res.FDs <= 4 {
		fds = line.c.TakeFDs(res.FDs)
	}
	closeAll := func() {
		for _, fd := range fds {
			syscall.Close(fd)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k := &c.keys
	ask, _ := r.params.(proto.AttachInputParams)
	win, sess := ask.Window, ask.Session
	c.smu.Lock()
	current := c.calls == line && c.session == sess
	c.smu.Unlock()
	good := k.asking == win && !k.spoiled && current && len(fds) == 2
	spoiled := k.asking == win && k.spoiled && current && len(fds) == 2
	k.asking = ""
	if !good {
		closeAll()
		if err != nil || len(fds) != 2 {
			k.after = time.Now().Add(askBackoff)
		}
		if spoiled && k.held == nil && !k.off {
			// Keys went over the socket behind the ask: ask again,
			// behind them.
			k.asking, k.spoiled = win, false
			if c.callLocked(request{verb: "attach-input", params: proto.AttachInputParams{Session: sess, Window: win}, tag: inputTag}) {
				c.poke()
			}
		}
		return
	}
	page, perr := rawio.MapPage(fds[1])
	syscall.Close(fds[1])
	if perr != nil || !nonBlocking(fds[0]) {
		if page != nil {
			page.Close()
		}
		syscall.Close(fds[0])
		k.after = time.Now().Add(askBackoff)
		return
	}
	c.letGo()
	k.held = &heldInput{session: sess, window: win, fd: fds[0], page: page}
}

// nonBlocking: a passed terminal whose writes could wait is not used
// (its flags are shared with the daemon: never changed here).
func nonBlocking(fd int) bool {
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	return err == nil && fl&syscall.O_NONBLOCK != 0
}

// owe notes that h's window was typed into; the note goes noteDelay
// later, one for the burst. Called with c.mu held.
func (c *conns) owe(h *heldInput) {
	k := &c.keys
	if k.owed == nil {
		k.owed = map[string]string{}
	}
	k.owed[h.window] = h.session
	if k.timer == nil {
		k.timer = time.AfterFunc(noteDelay, c.sendNotes)
	}
}

// sendNotes sends the notes owed.
func (c *conns) sendNotes() {
	c.mu.Lock()
	k := &c.keys
	k.timer = nil
	owed := k.owed
	k.owed = nil
	queued := false
	for win, sess := range owed {
		queued = c.callLocked(request{verb: "attach-typed", params: proto.AttachTypedParams{Session: sess, Window: win}}) || queued
	}
	c.mu.Unlock()
	if queued {
		c.poke()
	}
}

// focusSeen lets the held input go when a layout shows another window
// focused (the daemon's mark says so too; this closes it sooner).
func (c *conns) focusSeen(session, focused string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if h := c.keys.held; h != nil && (h.session != session || h.window != focused) {
		c.letGo()
	}
}
