package agentproto

import (
	"errors"
	"sync"
	"time"

	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/proto"
)

// report is one state report, as set-agent-state takes it.
type report struct {
	state, message, now, kind string
}

// reporter sends the pane's state to the daemon over one connection it
// keeps, the way an agent's hook reports (set-agent-state, source report,
// the top rank), for the pane it runs in. Every change of state reaches
// the daemon, in order: a working of a few milliseconds between an
// answered approval and the turn's end is still a working to whoever
// follows the pane's events. What is coalesced is the rest: a report of
// the same state as the newest one waiting replaces it (a message that
// moves on), and past maxPending waiting reports the newest replaces the
// last, so a flood costs a bounded backlog, never an unbounded one. Every
// report has a sequence number; waitApplied lets a hold wait until its
// needs_input is what the daemon reads.
type reporter struct {
	session, window, harness string
	dial                     func() (*client.Client, error)
	trace                    *tracer

	mu      sync.Mutex
	pending []pendingReport // not sent yet, oldest first
	seq     uint64
	applied uint64
	change  chan struct{} // closed and replaced when applied moves
	wake    chan struct{}
	stop    chan struct{}
	last    report // what the daemon read last, to skip a repeat
	c       *client.Client
}

func newReporter(session, window, harness string, dial func() (*client.Client, error), tr *tracer) *reporter {
	return &reporter{session: session, window: window, harness: harness, dial: dial, trace: tr,
		change: make(chan struct{}), wake: make(chan struct{}, 1), stop: make(chan struct{})}
}

// enabled: the pane runs in a tuios pane it can report for.
func (r *reporter) enabled() bool { return r != nil && r.window != "" }

// maxPending bounds the reports waiting to be sent.
const maxPending = 16

// pendingReport is a report waiting to be sent, with its sequence number.
type pendingReport struct {
	rep report
	seq uint64
}

// set queues a report and returns its sequence number.
func (r *reporter) set(rep report) uint64 {
	if !r.enabled() {
		return 0
	}
	r.mu.Lock()
	r.seq++
	seq := r.seq
	n := len(r.pending)
	if n > 0 && (r.pending[n-1].rep.state == rep.state || n >= maxPending) {
		r.pending[n-1] = pendingReport{rep, seq}
	} else {
		r.pending = append(r.pending, pendingReport{rep, seq})
	}
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return seq
}

// waitApplied waits until report seq (or a newer one) reached the
// daemon, or timeout.
func (r *reporter) waitApplied(seq uint64, timeout time.Duration) bool {
	if !r.enabled() {
		return false
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		r.mu.Lock()
		done, ch := r.applied >= seq, r.change
		r.mu.Unlock()
		if done {
			return true
		}
		select {
		case <-ch:
		case <-t.C:
			return false
		case <-r.stop:
			return false
		}
	}
}

// run sends reports until close.
func (r *reporter) run() {
	for {
		select {
		case <-r.wake:
		case <-r.stop:
			return
		}
		for {
			r.mu.Lock()
			if len(r.pending) == 0 {
				r.mu.Unlock()
				break
			}
			next := r.pending[0]
			r.pending = r.pending[1:]
			r.mu.Unlock()
			rep, seq := next.rep, next.seq
			if rep != r.last {
				if r.send(rep) {
					r.last = rep
				}
			}
			r.mu.Lock()
			r.applied = max(r.applied, seq)
			close(r.change)
			r.change = make(chan struct{})
			r.mu.Unlock()
		}
	}
}

// send makes one set-agent-state call, dialling (once more on a broken
// connection) when needed.
func (r *reporter) send(rep report) bool {
	p := map[string]any{"session": r.session, "window": r.window, "state": rep.state, "harness": r.harness,
		"message": rep.message, "now": rep.now, "source": "report"}
	if rep.kind != "" {
		p["kind"] = rep.kind
	}
	for try := 0; try < 2; try++ {
		if r.c == nil {
			c, err := r.dial()
			if err != nil {
				return false
			}
			r.c = c
		}
		r.c.SetDeadline(time.Now().Add(5 * time.Second))
		var res map[string]any
		err := r.c.Call("set-agent-state", p, &res)
		if err == nil {
			r.trace.note("applied", rep.state)
			return true
		}
		var pe *proto.Error
		if errors.As(err, &pe) {
			return false // the daemon refused it: a new connection would not help
		}
		r.c.Close()
		r.c = nil
	}
	return false
}

func (r *reporter) close() {
	if !r.enabled() {
		return
	}
	close(r.stop)
}

// finalReport sends one report on the caller's goroutine (the pane is
// quitting, the run loop may have stopped).
func (r *reporter) finalReport(rep report) {
	if !r.enabled() {
		return
	}
	c, err := r.dial()
	if err != nil {
		return
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	c.Call("set-agent-state", map[string]any{"session": r.session, "window": r.window, "state": rep.state,
		"harness": r.harness, "message": rep.message, "source": "report"}, nil)
}
