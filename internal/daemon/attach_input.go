package daemon

import (
	"bytes"
	"syscall"
	"time"

	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/rawio"
)

// The person's keys straight to the pane (Linux). A key typed through the
// daemon wakes it to read the key from the client's socket and write it
// to the pane's terminal: one of the four wakeups between a key and its
// echo. So the person's own attach client may take the focused pane's
// input: attach-input passes it, over the call connection (SCM_RIGHTS),
// a duplicate of the pane's PTY master and a small shared page
// (rawio.Page), and the client writes the keys itself.
//
//   - Who: only a caller placed outside every pane, as the person (never
//     a link, a restricted connection or a forwarded host call), whose
//     process holds an attached client's live nonce and streams the
//     window's session. Only a local pane whose input is its terminal
//     (no protocol pane), and only the session's focused window.
//   - Order: the input is passed only while nothing is queued for the
//     pane (pty.Input), and it is asked for on the call connection, so
//     every key the client sent over the socket before is in the
//     terminal first. The client writes with non-blocking calls; what the
//     terminal does not take it sends over the socket, and lets the
//     input go.
//   - Taking it back: the daemon marks the page (pageRevoked) when the
//     session's focus or workspace moves, the pane closes (before its
//     processes are killed), or anything is queued for its input; the
//     client reads the mark before every write and lets the descriptors
//     go. A passed master is the pane's own terminal: a stale one can
//     never reach another pane.
//   - What the daemon does on a key still happens: the client stores the
//     time of each key in the page (pageTyped) before it writes, and the
//     pane's reader reads it (typedDirect) so the echo goes out at once
//     (attach_echo.go); a quiet attach-typed note, sent shortly after,
//     makes the client the latest (attach_size.go), ends finished status
//     records (detect) and holds pushes (person_typed.go), as send-text does.
//
// Off Linux attach-input is refused and the client types over the socket.

// The page's words.
const (
	pageRevoked = 0 // the daemon took the input back: 1
	pageTyped   = 1 // unix ns of the client's last key, written before the key
)

// inputGrant is one pane input passed to a client.
type inputGrant struct {
	w    *mux.Window
	cn   *conn // the call connection it was passed on
	page *rawio.Page
	seen int64 // the last pageTyped read (under the hub's lock)
}

func (s *Server) attachInputVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.AttachInputParams) (any, *proto.Error) {
		return s.passInput(cn, p)
	})
	add("attach-input", outsideOnly, "Take the focused pane's input for the person's attached client (Linux): the answer passes a duplicate of the pane's PTY master and a shared page (SCM_RIGHTS), so keys go straight to the pane; the daemon takes it back when the focus moves, the pane closes or input is queued for it", "input_passed",
		`{"verb":"attach-input","params":{"session":"work","window":"3f2a9c1e"}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.AttachTypedParams) (any, *proto.Error) {
		w, err := s.tab.TargetWindow(cn, p.Session, p.Window) // table.go
		if err != nil {
			return nil, err
		}
		s.active(cn.peer, w.Session()) // attach_size.go: the client typed into is the latest
		w.Tracked().Typed()
		s.personTyped(cn, w.ID) // person_typed.go: the person at an attached client holds pushes
		return proto.TypedNoted{Type: "typed_noted", WindowID: w.ID}, nil
	})
	add("attach-typed", outsideOnly, "Note that the person's attached client typed into a window through its passed input (attach-input): what send-text does besides writing (the latest client, status records, pushes held); sent quiet", "typed_noted",
		`{"verb":"attach-typed","params":{"session":"work","window":"3f2a9c1e","quiet":true}}`, p, h)
}

// passInput is attach-input: the checks, then the grant, whose
// descriptors go with the answer (cn.passFDs, conn.go's serve).
func (s *Server) passInput(cn *conn, p *proto.AttachInputParams) (any, *proto.Error) {
	if !rawio.FDPassing {
		return nil, proto.Errorf(proto.CodeCommandFailed, "passing a pane's input is Linux only here: type over the socket (send-text)")
	}
	c := cn.call
	if !cn.callKnown || !c.Person() || c.Restrict != nil || cn.link != nil || cn.host != nil {
		return nil, proto.Errorf(proto.CodeForbidden, "only the person's attached client takes a pane's input").
			WithHint(proto.Hint{Detail: "type with send-text"})
	}
	if s.nonces == nil || !s.nonces.heldByClient(cn) { // human_nonce.go
		return nil, proto.Errorf(proto.CodeForbidden, "this process holds no attached client's nonce: attach first").
			WithHint(proto.Hint{Command: "tuios attach"})
	}
	w, focused, err := s.tab.TargetFocused(cn, p.Session, p.Window) // table.go
	switch {
	case err != nil:
		return nil, err
	case w.Protocol() != "":
		return nil, proto.Errorf(proto.CodeInvalidRequest, "window %s runs an agent over its protocol: its input is not taken", w.ID[:8]).
			WithHint(proto.Hint{Detail: "type with send-text"})
	case !focused:
		return nil, proto.Errorf(proto.CodeInvalidRequest, "window %s is not its session's focused window: only that one's input is taken", w.ID[:8]).
			WithHint(proto.Hint{Param: "window"})
	case !s.attach.showing(cn.peer, w.Session()):
		return nil, proto.Errorf(proto.CodeForbidden, "this process streams no attached client of session %q", w.Session().Name).
			WithHint(proto.Hint{Command: "tuios attach -s " + w.Session().Name})
	case w.Input().Queued() > 0:
		return nil, proto.Errorf(proto.CodeTimeout, "window %s has input queued: its input is not taken until the program read it", w.ID[:8]).
			WithHint(proto.Hint{Detail: "type with send-text meanwhile"})
	}
	fd, derr := w.Proc().DupInput()
	if derr != nil {
		return nil, proto.Errorf(proto.CodeWindowNotFound, "window %s is closing", w.ID[:8])
	}
	page, perr := rawio.NewPage()
	if perr != nil {
		closeFD(fd)
		return nil, proto.Errorf(proto.CodeInternal, "making the input page: %v", perr)
	}
	g := &inputGrant{w: w, cn: cn, page: page}
	if !s.attach.grant(g) {
		closeFD(fd)
		page.Close()
		return nil, proto.Errorf(proto.CodeWindowNotFound, "window %s is closing", w.ID[:8])
	}
	cn.passFDs = []int{fd, page.TakeFD()}
	cn.passed = g
	return proto.InputPassed{Type: "input_passed", WindowID: w.ID, FDs: len(cn.passFDs)}, nil
}

// showing reports whether the client process peer streams session ss.
func (h *attachHub) showing(peer int, ss *mux.Session) bool {
	found := false
	h.each(func(st *attachStream) {
		found = found || st.ss == ss && st.cn.peer == peer && peer > 0
	})
	return found
}

// grant records g, taking back every other input its connection holds
// (a client types into one window). false when g's window is closing.
func (h *attachHub) grant(g *inputGrant) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if g.w.InputsClosed() {
		return false
	}
	for w, gs := range h.inputs {
		for _, o := range gs {
			if o.cn == g.cn {
				h.revokeLocked(w, o)
			}
		}
	}
	h.inputs[g.w] = append(h.inputs[g.w], g)
	h.ninputs.Add(1)
	return true
}

// revokeLocked takes g back: the client sees the mark before its next
// write. Called with h.mu held.
func (h *attachHub) revokeLocked(w *mux.Window, g *inputGrant) {
	gs := h.inputs[w]
	for i, o := range gs {
		if o == g {
			gs = append(gs[:i:i], gs[i+1:]...)
			break
		}
	}
	if len(gs) == 0 {
		delete(h.inputs, w)
	} else {
		h.inputs[w] = gs
	}
	h.ninputs.Add(-1)
	g.page.Word(pageRevoked).Store(1)
	g.page.Close()
}

// revoke takes back the grant g if it is still held.
func (h *attachHub) revoke(g *inputGrant) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, o := range h.inputs[g.w] {
		if o == g {
			h.revokeLocked(g.w, g)
			return
		}
	}
}

// RevokeWindow takes back every input of w passed to a client; closing
// (the pane is about to close) refuses any later grant.
func (h *attachHub) RevokeWindow(w *mux.Window, closing bool) {
	if h == nil {
		return
	}
	if h.ninputs.Load() == 0 && !closing {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if closing {
		w.CloseInputs()
	}
	for _, g := range append([]*inputGrant(nil), h.inputs[w]...) {
		h.revokeLocked(w, g)
	}
}

// revokeSession takes back every input passed for a window of session
// name (its focus or workspace moved). Called from the event hook: it
// takes only h.mu.
func (h *attachHub) revokeSession(name string) {
	if h.ninputs.Load() == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for w, gs := range h.inputs {
		if w.Session().Name != name {
			continue
		}
		for _, g := range append([]*inputGrant(nil), gs...) {
			h.revokeLocked(w, g)
		}
	}
}

// typedDirect reads the pages of w's passed inputs: a key written since
// the last look makes w typed into then, as typeAs does, with the n
// bytes just read as the first output since. Grants whose connection
// has gone are dropped here.
func (h *attachHub) typedDirect(w *mux.Window, n int) {
	if h == nil || h.ninputs.Load() == 0 {
		return
	}
	now := time.Now().UnixNano()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, g := range append([]*inputGrant(nil), h.inputs[w]...) {
		select {
		case <-g.cn.closed:
			h.revokeLocked(w, g)
			continue
		default:
		}
		at := min(g.page.Word(pageTyped).Load(), now) // the client's word, bounded
		if at <= g.seen {
			continue
		}
		g.seen = at
		w.Typed(at, int64(n), false) // a later typing than the last recorded
	}
}

// inputQueued is the write path's hook: bytes wait in w's input queue,
// so keys written straight to the terminal would pass them.
func (h *attachHub) inputQueued(w *mux.Window) {
	if h == nil || h.ninputs.Load() == 0 || w.Input().Queued() == 0 {
		return
	}
	h.RevokeWindow(w, false)
}

// passInputFDs writes the answer of attach-input with its descriptors,
// then closes them here; a grant whose answer did not go is taken back.
func (cn *conn) passInputFDs(resp proto.Response, quiet bool) {
	fds, g := cn.passFDs, cn.passed
	cn.passFDs, cn.passed = nil, nil
	defer func() {
		for _, fd := range fds {
			closeFD(fd)
		}
	}()
	if quiet || resp.Error != nil {
		cn.s.attach.revoke(g)
		if resp.Error != nil {
			cn.send(resp)
		}
		return
	}
	var line bytes.Buffer
	err := proto.Encode(&line, resp)
	if err == nil {
		cn.wmu.Lock()
		err = cn.w.Flush()
		if err == nil {
			cn.c.SetWriteDeadline(time.Now().Add(cn.s.attach.writeTimeout()))
			err = syscall.EINVAL
			if sc, ok := cn.c.(syscall.Conn); ok {
				err = rawio.SendFDs(sc, line.Bytes(), fds)
			}
			cn.c.SetWriteDeadline(time.Time{})
		}
		cn.wmu.Unlock()
	}
	if err != nil {
		cn.s.attach.revoke(g)
		cn.stop()
	}
}

func closeFD(fd int) {
	if fd >= 0 {
		syscall.Close(fd)
	}
}
