package daemon

import (
	"context"
	"errors"
	"time"

	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/pty"
)

// The one write path. Every byte a caller types into a pane goes through
// typeAs: send-text and send-keys, respond and held approvals, ask-agent
// and start-agent's first prompt (typePrompt), the reply queue, resume,
// and the herdr adapter (through those verbs). Right before the bytes are
// queued it checks the typing rules again (gate.go's typingRuleLocked, with the
// arbiter's word on the target's state now, since a prompt can appear
// between the call's check and the write) and, for a pane, its grants as
// they are now. What the terminal itself answers (a reply to a query the
// program sent) is the screen's, not a caller's, and goes straight to the
// pane's input.

// typeTimeout is how long typing into a pane waits, by default, for the
// program to read what is already queued before it gives up.
const typeTimeout = 30 * time.Second

// typeInto types b into w as the caller of cn's verb: in order after
// everything queued before it, waiting (without any lock) for room while
// the program reads. A program that reads nothing for the timeout (0:
// typeTimeout) gets what fit; the rest is not typed, and the caller is
// told how much was.
func (s *Server) typeInto(cn *conn, w *mux.Window, b []byte, timeout time.Duration) *proto.Error {
	by, err := s.typistOf(cn)
	if err != nil {
		return err
	}
	if err := s.typeAs(cn.ctx, cn.verbName, cn.acc, by, w, b, timeout, !cn.quick); err != nil {
		return err
	}
	s.active(cn.peer, w.Session()) // attach_size.go: the client typed into is the latest
	return nil
}

// typistOf is who types for cn: the caller admit placed, or the daemon
// for a connection of its own. Any other connection types nothing: a
// writer that never passed the gate is a bug, and is refused.
func (s *Server) typistOf(cn *conn) (mux.Caller, *proto.Error) {
	switch {
	case cn.own:
		return mux.Caller{Own: true}, nil
	case cn.callKnown:
		return cn.call, nil
	}
	return mux.Caller{}, proto.Errorf(proto.CodeForbidden, "typing into a pane from a call that was never checked (a bug): nothing was typed")
}

// errWouldWait is typeAs's answer, with noWait, when the pane's input has
// no room for the bytes now: nothing was typed, and the caller types
// them again from where waiting is fine (conn.go's quickType).
var errWouldWait = &proto.Error{Code: proto.CodeTimeout, Message: "the pane's input is full"}

// typeAs is the write path: the check, then b queued on the pane's input.
// verb and a are what the typing is for (a verb's name and declaration).
// Unless mayWait it never waits for room: errWouldWait, and nothing typed.
func (s *Server) typeAs(ctx context.Context, verb string, a access, by mux.Caller, w *mux.Window, b []byte, timeout time.Duration, mayWait bool) *proto.Error {
	if verb == "" {
		verb = "typing"
	}
	if err := s.tab.MayTypeNow(verb, a, by, w); err != nil {
		return err
	}
	w.Typed(time.Now().UnixNano(), 0, true) // its echo is drawn at once (attach_echo.go)
	// What fits is queued (or written) at once, with no deadline to
	// arm: a key is a few bytes and the queue is almost always empty.
	var full *pty.Error
	_, err := w.Input().Write(b)
	switch {
	case err == nil:
		s.attach.inputQueued(w) // attach_input.go: queued bytes take a passed input back
		return nil
	case !errors.As(err, &full) || full.Code() != pty.CodeInputFull:
		// Closed or failed: Send below says so as it always did.
	case !mayWait:
		return errWouldWait
	}
	if timeout <= 0 {
		timeout = typeTimeout
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	n, err := w.Input().Send(tctx, b)
	s.attach.inputQueued(w)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return proto.Errorf(proto.CodeTimeout, "the pane did not read its input for %v: %d of %d bytes were queued, the rest was not typed", timeout, n, len(b)).
			WithHint(proto.Hint{Command: "tuios capture-pane -w " + w.ID[:8], Detail: "the program in the pane is not reading its input"})
	case ctx.Err() != nil:
		return proto.Errorf(proto.CodeTimeout, "the caller hung up: %d of %d bytes were queued", n, len(b))
	}
	return proto.Errorf(proto.CodeCommandFailed, "typing into the pane: %v", err)
}

// focusIn reports focus to a program that asked for focus reports, as
// cn's caller, before a submit: a key like any other, so the same check.
// It never waits: a full input queue drops it.
func (s *Server) focusIn(cn *conn, w *mux.Window) {
	by, err := s.typistOf(cn)
	if err != nil || s.tab.MayTypeNow(cn.verbName, cn.acc, by, w) != nil {
		return
	}
	w.Input().Write([]byte("\x1b[I"))
}
