package agentstate

import "time"

// stallDeadline is when a working pane counts as stalled: the stall window
// after the last sign of life (a stamp, output, or a stall look the screen
// answered). It is exact per pane, not a periodic tick.
func (a *Arbiter) stallDeadline(p *pane) time.Time {
	t := p.stateAt
	if p.lastOutput.After(t) {
		t = p.lastOutput
	}
	if p.stallLookAt.After(t) {
		t = p.stallLookAt
	}
	return t.Add(a.opt.StallAfter)
}

// stall handles one pane whose deadline passed: the screen is read once
// more first, and a pane whose screen answers is left alone. Otherwise the
// pane goes to unknown (the screen was read and said nothing) or, with no
// screen tier at all, to idle. The stall writes past the rank gate: its
// purpose is to demote a working claim that went quiet, whoever made it.
func (a *Arbiter) stall(id string) {
	var look LookResult
	if a.opt.Look != nil {
		look = a.opt.Look(id, LookStall)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.panes[id]
	if p == nil || p.state != Working {
		return
	}
	now := a.clock.Now()
	if now.Before(a.stallDeadline(p)) {
		return // it wrote, or was restamped, while the look ran
	}
	if look.Answered {
		p.stallLookAt = now
		a.schedule(p, a.stallDeadline(p))
		return
	}
	next := Idle
	if look.Screen {
		next = Unknown
	}
	old := p.state
	p.state = next
	p.message = ""
	p.kind = KindNone
	p.stateAt = now
	p.claim.held = true
	p.claim.source = SourceStall
	p.claim.loan = false
	p.claim.event = false
	// A stall-ended turn is measured to the pane's last output, not to
	// when the deadline noticed.
	end := p.lastOutput
	if end.IsZero() || end.Before(p.turnStart) {
		end = p.turnStart
	}
	a.turn(p, old, next, now, end)
	a.changed(p, old)
}
