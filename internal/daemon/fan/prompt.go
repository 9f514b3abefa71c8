package fan

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
)

// The first prompt of a fan's attempt (or a worktree new --prompt): typed
// once the agent is ready, the way start-agent and the queue type, through
// the one write path as the caller of the verb that made it.
//
// Ready is the agent reading idle or done for PromptRest, as the queue
// waits for a rest (an agent's hook can say idle as it starts, before its
// input takes keys). An agent whose state says nothing (none, or unknown:
// a shell, a script, or a known agent with neither hooks nor a screen rule
// for its prompt) is ready once it drew something and its screen rested:
// fanQuiet for a program tuios knows no harness for, fanQuietKnown for a
// known agent, whose own signals get the first chance (prompt_ready_by
// quiet). Until then the status is pending. held: the agent is on a prompt
// of its own (a trust dialog: the Inbox has it), or it has not reached its
// prompt 30 s after it started (the Inbox gets a question, as for
// start-agent: core.Host.WatchStartNotice); the prompt is still typed if
// it gets there within the ready timeout. not_sent: it exited first, the
// timeout passed, or the write path refused (the pane that ran the fan
// has closed, or may no longer type there). sent or stalled: typed, and
// taken or not within 5 s.

// Prompt statuses.
const (
	promptPending = "pending"
	promptHeld    = "held"
	promptNotSent = "not_sent"
)

// PromptRest is how long an agent must have read idle or done before its
// first prompt is typed: the reply queue's rest (attention.QueueRest; the
// daemon's tests hold the two equal).
const PromptRest = time.Second

// How long a screen that says nothing must rest before the prompt is
// typed: a program tuios knows nothing of, and a known agent.
const (
	fanQuiet      = time.Second
	fanQuietKnown = 3 * time.Second
)

// fanReadyDefault is fan's default ready timeout.
const fanReadyDefault = 10 * time.Minute

// promptDelivery is one prompt to deliver.
type promptDelivery struct {
	verb      string
	sessionID string
	w         core.WindowView
	text      string
	by        core.Call // the verb's call, whose caller types it
	harness   string    // the agent's harness as launched ("" none known)
	timeout   time.Duration
	settled   chan struct{}
}

// deliverPrompt starts the delivery on the daemon's clock; it returns at
// once.
func (t *Worktrees) deliverPrompt(d promptDelivery) {
	if d.timeout <= 0 {
		d.timeout = fanReadyDefault
	}
	h := t.h
	// Typed as whoever made the fan, held as it was admitted: the write
	// path checks that caller's grants and the prompt rule as they are
	// when it types (core.Host.Hold).
	ctx, cancel := context.WithCancel(context.Background())
	by := h.Hold(ctx, d.by, d.verb)
	expired := make(chan struct{})
	readyTimer := h.Clock().AfterFunc(d.timeout, func() { close(expired) })
	noticeDue := h.WatchStartNotice(d.w.ID) // the Inbox question at 30 s
	t.running.Add(1)
	go func() {
		defer t.running.Done()
		defer readyTimer.Stop()
		defer cancel()
		go func() {
			select {
			case <-h.Done():
				cancel()
			case <-ctx.Done():
			}
		}()
		t.runDelivery(d, by, expired, noticeDue)
	}()
}

func (t *Worktrees) runDelivery(d promptDelivery, by core.Call, expired, noticeDue <-chan struct{}) {
	h := t.h
	var once sync.Once
	settle := func() { once.Do(func() { close(d.settled) }) }
	defer settle()
	set := func(status, note, readyBy string) {
		t.update(d.sessionID, func(r *record) {
			r.PromptStatus, r.PromptNote = status, note
			if readyBy != "" {
				r.PromptReadyBy = readyBy
			}
		})
		if status != promptPending {
			settle()
		}
	}
	pane := d.w.Pane
	arb := h.Tracker().Arbiter()
	sub := arb.Subscribe(agentstate.SubscribeOptions{Pane: d.w.ID, Buffer: 16})
	defer sub.Close()
	held := false
	noticed := false
	readyBy := ""
	var restTimer agentstate.Timer // PromptRest after the agent came to rest
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
			left := snap.StateAt.Add(PromptRest).Sub(h.Clock().Now())
			if left <= 0 {
				readyBy = snap.State.String()
				continue
			}
			if restTimer != nil {
				restTimer.Stop()
			}
			ch := make(chan time.Time, 1)
			restTimer = h.Clock().AfterFunc(left, func() { ch <- time.Time{} })
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
			if last := pane.LastOutput(); !last.IsZero() {
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
		gen := pane.Output()
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
		case <-pane.Exited():
			code, _ := pane.ExitCode()
			set(promptNotSent, "the agent exited with status "+strconv.Itoa(code)+" before it was ready; nothing was typed", "")
			return
		case <-h.Done():
			return
		}
	}
	status, note, _ := h.FirstPrompt(by, d.w.ID, d.text)
	if status == "" {
		status = promptNotSent
	}
	set(status, note, readyBy)
}
