package agentproto

import (
	"sync"
	"time"

	"github.com/tuios/tuios/internal/client"
)

// holdLimit bounds a hold from this side, as the hooks do: the daemon
// holds at most 300 s (hold_seconds).
const holdLimit = 305 * time.Second

// holdResult is how a hold ended: a decision (once or deny) from the
// Inbox, respond or reply-approval, or none, with the daemon's reason.
type holdResult struct {
	permID   string
	decision string
	reason   string
	err      error
}

// hold asks the daemon to hold one permission request for the person's
// Inbox (request-approval, as a Claude Code hook does), on a connection
// of its own that blocks until the hold ends. Closing it ends the hold
// (the daemon reads caller_gone): the pane does that when the person
// answers in the pane or the request goes away.
type hold struct {
	mu     sync.Mutex
	c      *client.Client
	closed bool
}

func (h *hold) cancel() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	if h.c != nil {
		h.c.Close()
	}
}

// startHold runs the hold on its own goroutine once the pane's
// needs_input report (seq) reached the daemon, and sends its end to out.
func startHold(r *reporter, seq uint64, permID, summary, tool, target string, out chan<- holdResult) *hold {
	h := &hold{}
	go func() {
		res := holdResult{permID: permID}
		defer func() { out <- res }()
		if !r.waitApplied(seq, 5*time.Second) {
			res.reason = "not_reported"
			return
		}
		c, err := r.dial()
		if err != nil {
			res.err = err
			return
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			c.Close()
			res.reason = "cancelled"
			return
		}
		h.c = c
		h.mu.Unlock()
		defer c.Close()
		c.SetDeadline(time.Now().Add(holdLimit))
		var ar struct {
			Decision string `json:"decision"`
			Reason   string `json:"reason"`
		}
		err = c.Call("request-approval", map[string]any{"session": r.session, "window": r.window, "harness": r.harness,
			"options": []string{"once", "deny"}, "summary": summary, "kind": "approval", "tool": tool, "target": target}, &ar)
		res.decision, res.reason, res.err = ar.Decision, ar.Reason, err
	}()
	return h
}
