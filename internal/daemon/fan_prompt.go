package daemon

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/proto"
)

// The first prompt of a fan's attempt (or a worktree new --prompt): typed
// once the agent is ready, the way start-agent and the queue type, through
// the one write path as the caller of the verb that made it.
//
// Ready is the agent reading idle or done for fanRest, as the queue waits
// for a rest (an agent's hook can say idle as it starts, before its input
// takes keys). An agent whose state says
// nothing (none, or unknown: a shell, a script, or a known agent with
// neither hooks nor a screen rule for its prompt) is ready once it drew
// something and its screen rested: fanQuiet for a program tuios knows no
// harness for, fanQuietKnown for a known agent, whose own signals get the
// first chance (prompt_ready_by quiet). Until then the status is pending. held: the agent is on a prompt of its own
// (a trust dialog: the Inbox has it), or it has not reached its prompt 30
// s after it started (the Inbox gets a question, as for start-agent); the
// prompt is still typed if it gets there within the ready timeout.
// not_sent: it exited first, the timeout passed, or the write path
// refused (the pane that ran the fan has closed, or may no longer type
// there). sent or stalled: typed, and taken or not within 5 s.

// Prompt statuses.
const (
	promptPending = "pending"
	promptHeld    = "held"
	promptSent    = "sent"
	promptNotSent = "not_sent"
	promptStalled = "stalled"
)

// How long a screen that says nothing must rest before the prompt is
// typed: a program tuios knows nothing of, and a known agent. fanRest is
// how long an agent must have read idle or done.
const (
	fanRest       = queueRest
	fanQuiet      = time.Second
	fanQuietKnown = 3 * time.Second
)

// fanReadyDefault is fan's default ready timeout.
const fanReadyDefault = 10 * time.Minute

// promptDelivery is one prompt to deliver.
type promptDelivery struct {
	verb      string
	sessionID string
	ss        *Session
	w         *Window
	text      string
	by        caller
	harness   string // the agent's harness as launched ("" none known)
	timeout   time.Duration
	settled   chan struct{}
}

// deliverPrompt starts the delivery on the daemon's clock; it returns at
// once.
func (s *Server) deliverPrompt(d promptDelivery) {
	if d.timeout <= 0 {
		d.timeout = fanReadyDefault
	}
	expired, noticeDue := make(chan struct{}), make(chan struct{})
	readyTimer := s.clock.AfterFunc(d.timeout, func() { close(expired) })
	noticeTimer := s.clock.AfterFunc(startAgentNoticeAfter, func() { close(noticeDue) })
	s.watchStartNotice(d.w, noticeDue, noticeTimer) // start_agent.go: the Inbox question at 30 s
	go func() {
		defer readyTimer.Stop()
		s.runDelivery(d, expired, noticeDue)
	}()
}

func (s *Server) runDelivery(d promptDelivery, expired, noticeDue <-chan struct{}) {
	var once sync.Once
	settle := func() { once.Do(func() { close(d.settled) }) }
	defer settle()
	set := func(status, note, readyBy string) {
		s.wts.update(d.sessionID, func(r *wtRecord) {
			r.PromptStatus, r.PromptNote = status, note
			if readyBy != "" {
				r.PromptReadyBy = readyBy
			}
		})
		if status != promptPending {
			settle()
		}
	}
	arb := s.tracker.Arbiter()
	sub := arb.Subscribe(agentstate.SubscribeOptions{Pane: d.w.ID, Buffer: 16})
	defer sub.Close()
	held := false
	noticed := false
	readyBy := ""
	var restTimer agentstate.Timer // fanRest after the agent came to rest
	defer func() {
		if restTimer != nil {
			restTimer.Stop()
		}
	}()
	for readyBy == "" {
		snap := arb.Get(d.w.ID)
		silent := snap.State == agentstate.None || snap.State == agentstate.Unknown
		rest := fanQuiet
		if d.harness != "" || arb.Brief(d.w.ID).Harness != "" {
			rest = fanQuietKnown
		}
		var quiet, rested <-chan time.Time
		switch {
		case snap.State == agentstate.Idle || snap.State == agentstate.Done:
			left := snap.StateAt.Add(fanRest).Sub(s.clock.Now())
			if left <= 0 {
				readyBy = snap.State.String()
				continue
			}
			if restTimer != nil {
				restTimer.Stop()
			}
			ch := make(chan time.Time, 1)
			restTimer = s.clock.AfterFunc(left, func() { ch <- time.Time{} })
			rested = ch
		case snap.State == agentstate.NeedsInput:
			if !held {
				what := snap.BlockedBy().String()
				if what == "" || what == "none" {
					what = "input"
				}
				held = true
				set(promptHeld, "the agent waits for "+what+" (the Inbox has it); the prompt is typed once it is at its prompt", "")
			}
		case silent:
			d.w.mu.Lock()
			last := d.w.lastOutput
			d.w.mu.Unlock()
			if !last.IsZero() {
				if left := rest - time.Since(last); left <= 0 {
					readyBy = "quiet"
					continue
				} else {
					quiet = time.After(left)
				}
			}
		}
		if noticed && !held && snap.State != agentstate.NeedsInput {
			held = true
			set(promptHeld, "the agent was not at its prompt 30 s after it started; the Inbox asks you to look at it, and the prompt is typed once it is ready", "")
		}
		d.w.mu.Lock()
		gen := d.w.outputGen
		d.w.mu.Unlock()
		select {
		case <-sub.C:
		case <-gen:
		case <-quiet:
		case <-rested:
		case <-noticeDue:
			noticeDue, noticed = nil, true
		case <-expired:
			set(promptNotSent, "the agent was not ready within "+d.timeout.String()+" (it reads "+arb.Get(d.w.ID).State.String()+"); nothing was typed", "")
			return
		case <-d.w.exitCh:
			d.w.mu.Lock()
			code := d.w.exitStatus.Code
			d.w.mu.Unlock()
			set(promptNotSent, "the agent exited with status "+strconv.Itoa(code)+" before it was ready; nothing was typed", "")
			return
		case <-s.done:
			return
		}
	}
	// Typed as whoever made the fan: the write path checks that caller's
	// grants and the prompt rule as they are now (write_path.go).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-s.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	tc := &conn{s: s, ctx: ctx, closed: ctx.Done(), call: d.by, callKnown: true, verbName: d.verb, acc: types}
	var res proto.AgentStarted
	s.typeFirstPrompt(tc, d.w, d.text, &res) // start_agent.go
	status := res.PromptStatus
	if status == "" {
		status = promptNotSent
	}
	set(status, res.PromptNote, readyBy)
}
