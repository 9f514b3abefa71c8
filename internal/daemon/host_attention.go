package daemon

import (
	"context"
	"fmt"
	"os"
	"runtime"

	attn "github.com/tuios/tuios/internal/daemon/attention"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/sock"
)

// What the attention set (internal/daemon/attention) reads of the core,
// beyond the Host every feature sees.

// queueRest is how long a pane is at rest before the reply queue types
// into it (fan's prompts wait as long).
const queueRest = attn.QueueRest

// replyQueue is the reply queue (internal/daemon/attention) as the core
// reads it: a pane's queued count, for its rows and the rail.
type replyQueue struct{ *attn.Queue }

// Count is how many entries wait for window. It takes only the queue's
// lock, so it may be called under the table's lock.
func (q replyQueue) Count(window string) int { return q.Len(window) }

func (h host) IsPerson(c core.Call, nonce string) bool {
	cn, _ := c.(*conn)
	return cn != nil && h.s.isPerson(cn, nonce)
}

// Hold is a connection with no socket that carries c's caller: only the
// write path reads it.
func (h host) Hold(ctx context.Context, c core.Call, verb string) core.Call {
	cn, _ := c.(*conn)
	held := &conn{s: h.s, ctx: ctx, closed: ctx.Done(), verbName: verb}
	if cn != nil {
		held.call, held.callKnown = cn.call, true
	}
	return held
}

func (h host) RailChanged() { h.s.attach.LayoutChanged() }

func (h host) HungUp(c core.Call) bool {
	cn, _ := c.(*conn)
	if cn == nil {
		return true
	}
	// The daemon may not have read the hang-up yet: look at the socket
	// too (Linux tells a gone peer from a half-closed one; elsewhere only
	// the context says).
	return cn.ctx.Err() != nil || runtime.GOOS == "linux" && cn.c != nil && sock.HungUp(cn.c)
}

func (h host) CallerPlaced(c core.Call) string {
	if cn, _ := c.(*conn); cn != nil {
		return cn.placedID
	}
	return ""
}

func (h host) InFront(id string) bool { return h.s.inFront(id) }

func (h host) InReach(c core.Call, session string) *proto.Error {
	cn, _ := c.(*conn)
	return h.s.tab.SessionInReach(cn, session)
}

func (h host) Wide(c core.Call, what string) *proto.Error {
	cn, _ := c.(*conn)
	return h.s.wide(cn, what)
}

func (h host) PaneCwds() map[string]string { return h.s.tab.PaneDirs() }

// PaneDir is where the pane's shell is: its OSC 7 directory, else its
// process's cwd, else the directory it started in.
func (h host) PaneDir(id string) string {
	s := h.s
	w := s.tab.WindowByID(id) // table.go
	if w == nil {
		return ""
	}
	if d := w.DirNow(); d != "" {
		return d
	}
	if w.Proc() != nil {
		if d, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", w.Proc().Pid())); err == nil {
			return d
		}
	}
	return w.StartDir()
}

func (h host) TypeHeld(c core.Call, pane, text string) (core.Typed, *proto.Error) {
	s := h.s
	cn, _ := c.(*conn)
	if cn == nil {
		return core.Typed{}, proto.Errorf(proto.CodeForbidden, "typing into a pane from a call that was never checked (a bug): nothing was typed")
	}
	w := s.tab.WindowByID(pane) // table.go
	if w == nil {
		return core.Typed{}, proto.Errorf(proto.CodeWindowNotFound, "no window %s", clipText(pane, 64))
	}
	harness, gen, submitAt, err := s.typePrompt(cn, w, w.Tracked().Screen(), text)
	return core.Typed{Harness: harness, Output: gen, SubmitAt: submitAt}, err
}
