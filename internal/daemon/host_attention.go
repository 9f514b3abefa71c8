package daemon

import (
	"fmt"
	"os"

	attn "github.com/tuios/tuios/internal/daemon/attention"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// What the attention set (internal/daemon/attention) reads of the core,
// beyond the Host every feature sees.

// PaneDir is where the pane's shell is: its OSC 7 directory, else its
// process's cwd, else the directory it started in.
func (h host) PaneDir(id string) string {
	s := h.s
	s.mu.Lock()
	w := s.windows[id]
	s.mu.Unlock()
	if w == nil {
		return ""
	}
	if d := w.dirNow(); d != "" {
		return d
	}
	if w.proc != nil {
		if d, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", w.proc.Pid())); err == nil {
			return d
		}
	}
	return w.cwd
}

func (h host) Worktree(session string) (core.Worktree, bool) {
	rec, ok := h.s.wts.bySession(session)
	if !ok {
		return core.Worktree{}, false
	}
	return core.Worktree{Session: rec.Session, SessionID: rec.SessionID, Repo: rec.Repo, Worktree: rec.Worktree, Base: rec.Base, Group: rec.Group}, true
}

func (h host) FanReach(c core.Call, session string) *proto.Error {
	cn, _ := c.(*conn)
	if cn == nil {
		return proto.Errorf(proto.CodeForbidden, "a fan reached by a call that was never checked (a bug)")
	}
	rec, ok := h.s.wts.bySession(session)
	if !ok {
		return nil
	}
	return h.s.fanInReach(cn, rec)
}

// reviewQueue is the reply queue as review notes send through it
// (attention.Queue), until the queue is the attention set's too.
type reviewQueue struct{ q *replyQueue }

func (r reviewQueue) Origin(c core.Call, nonce string) (string, *proto.Error) {
	cn, _ := c.(*conn)
	if cn == nil {
		return "", proto.Errorf(proto.CodeForbidden, "a call that was never checked queues nothing (a bug)")
	}
	return r.q.origin(cn, nonce)
}

func (r reviewQueue) Len(window string) int { return r.q.count(window) }

func (r reviewQueue) Add(c core.Call, session, window, text, nonce string) (attn.Queued, *proto.Error) {
	cn, _ := c.(*conn)
	if cn == nil {
		return attn.Queued{}, proto.Errorf(proto.CodeForbidden, "a call that was never checked queues nothing (a bug)")
	}
	res, err := r.q.add(cn, &queuePromptParams{Session: session, Window: window, Text: text, HumanNonce: nonce})
	if err != nil {
		return attn.Queued{}, err
	}
	m, _ := res.(map[string]any)
	id, _ := m["id"].(string)
	pos, _ := m["position"].(int)
	n, _ := m["queued"].(int)
	del, _ := m["delivering"].(bool)
	return attn.Queued{ID: id, Position: pos, Queued: n, Delivering: del}, nil
}
