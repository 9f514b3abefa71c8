package agentstate

import "time"

// applyHeld is the hold for sampled sources (OSC 9;4): a state at least as
// loud as the current one is published at once; a quieter one must stand
// for the hold before it is published, so a progress bar cleared between
// two steps of one task never blinks the pane through idle.
//
// A sample of the state the pane already shows ends any hold. From the
// source that holds the claim it is unchanged; from a higher-ranked source
// it takes the claim (see takesShown) through the guards like any other
// report; from a lower-ranked one it is refused as outranked.
func (a *Arbiter) applyHeld(p *pane, r Report) Result {
	if r.State == p.state {
		p.hold = hold{}
		if c := &p.claim; c.held && c.source == r.Source || !c.held && p.state == None {
			return Result{State: p.state, Reason: ReasonUnchanged}
		}
		if reason := a.admit(p, r); reason != ReasonNone {
			return Result{State: p.state, Reason: reason}
		}
		return a.publish(p, r, a.clock.Now())
	}
	if reason := a.admit(p, r); reason != ReasonNone {
		return Result{State: p.state, Reason: reason}
	}
	now := a.clock.Now()
	if r.State.Loudness() >= p.state.Loudness() {
		p.hold = hold{}
		return a.publish(p, r, now)
	}
	h := &p.hold
	if h.active && h.report.State == r.State && h.report.Source == r.Source {
		if now.Sub(h.since) >= a.opt.Hold {
			*h = hold{}
			return a.publish(p, r, now)
		}
		h.report = r
		return Result{State: p.state, Reason: ReasonHeld}
	}
	*h = hold{active: true, since: now, report: r}
	a.schedule(p, now.Add(a.opt.Hold))
	return Result{State: p.state, Reason: ReasonHeld}
}

// takesShown reports whether r, which says the state p already shows,
// takes the claim: r's source ranks above the claim's, or no source holds
// a pane that shows a state. Readers learn from the claim's source why the
// pane says what it says, so the stronger evidence must own it; the state
// itself does not change (see Change). A repeat from the holding source
// and a report from a lower rank do not take it.
func takesShown(p *pane, r Report) bool {
	if !p.claim.held {
		return p.state != None
	}
	return r.Source.Rank() > p.claim.source.Rank()
}

// publish writes a report that already passed the guards.
func (a *Arbiter) publish(p *pane, r Report, now time.Time) Result {
	r.Hold = false
	msg := cleanMessage(r.Message)
	harness := p.harness
	if r.State == None {
		harness = ""
	} else if r.Harness != "" {
		harness = r.Harness
	}
	a.write(p, r, msg, kindFor(r.State, r.Kind, msg), harness, now)
	return Result{State: p.state, Applied: true, Changed: true}
}

// confirmIdle is the idle confirmation gate. A working pane moves to idle
// on a look only when the reading holds on DefaultIdleLooks further looks
// at least DefaultIdleLookGap apart, or has held for the hold window. For
// a short while after a harness is first attributed, idle readings do not
// count at all (a starting agent draws its idle prompt before it works);
// a look is then due when that grace ends, so an agent already at rest
// when it was first seen (its turn ended before the detector's first
// look, or it was started and left at its prompt) is read again although
// it prints nothing more, rather than staying working until the stall.
// It reports wait=false when the reading is confirmed and may be written.
func (a *Arbiter) confirmIdle(p *pane, r Report, now time.Time) (Result, bool) {
	if !p.harnessAt.IsZero() && now.Sub(p.harnessAt) < DefaultHarnessGrace {
		p.graceLookAt = p.harnessAt.Add(DefaultHarnessGrace)
		a.schedule(p, p.graceLookAt)
		return Result{State: p.state, Reason: ReasonConfirming}, true
	}
	g := &p.gate
	if !g.active || g.source != r.Source {
		*g = idleGate{active: true, source: r.Source, first: now, last: now, report: r}
		a.schedule(p, a.gateDue(g))
		return Result{State: p.state, Reason: ReasonConfirming}, true
	}
	if now.Sub(g.last) >= DefaultIdleLookGap {
		g.looks++
		g.last = now
	}
	g.report = r
	if g.looks >= DefaultIdleLooks || now.Sub(g.first) >= a.opt.Hold {
		*g = idleGate{}
		return Result{}, false
	}
	a.schedule(p, a.gateDue(g))
	return Result{State: p.state, Reason: ReasonConfirming}, true
}

// gateDue is when the gate next needs the arbiter: the next re-look when
// there is a screen tier to ask, else the end of the window.
func (a *Arbiter) gateDue(g *idleGate) time.Time {
	if a.opt.Look != nil {
		last := g.last
		if g.asked.After(last) {
			last = g.asked
		}
		if end := g.first.Add(a.opt.Hold); end.Before(last.Add(DefaultIdleLookGap)) {
			return end
		}
		return last.Add(DefaultIdleLookGap)
	}
	return g.first.Add(a.opt.Hold)
}

// schedule records that p needs the arbiter at t and moves the one timer
// earlier if needed.
func (a *Arbiter) schedule(p *pane, t time.Time) {
	a.pending[p] = struct{}{}
	if !a.wakeAt.IsZero() && !t.Before(a.wakeAt) {
		return
	}
	a.arm(t, a.clock.Now())
}

// arm sets the one timer to fire at t (at least 1 ms from now). It is
// created on first use and reset afterwards.
func (a *Arbiter) arm(t, now time.Time) {
	a.wakeAt = t
	d := t.Sub(now)
	if d < time.Millisecond {
		d = time.Millisecond
	}
	if a.timer == nil {
		a.timer = a.clock.AfterFunc(d, a.wake)
	} else {
		a.timer.Reset(d)
	}
}

// due is when p next needs the arbiter, or zero.
func (a *Arbiter) due(p *pane) time.Time {
	var t time.Time
	earlier := func(x time.Time) {
		if t.IsZero() || x.Before(t) {
			t = x
		}
	}
	if p.hold.active {
		earlier(p.hold.since.Add(a.opt.Hold))
	}
	if p.gate.active {
		earlier(a.gateDue(&p.gate))
	}
	if p.state == Working && a.opt.StallAfter > 0 {
		earlier(a.stallDeadline(p))
	}
	if !p.relookAt.IsZero() {
		earlier(p.relookAt)
	}
	if !p.graceLookAt.IsZero() {
		earlier(p.graceLookAt)
	}
	return t
}

// wake is the timer's callback: it publishes due holds, drives idle
// confirmations and runs the stall deadline, then re-arms for what is
// left. Looks run without the lock.
func (a *Arbiter) wake() {
	a.mu.Lock()
	now := a.clock.Now()
	a.wakeAt = time.Time{}
	var relook, blocked, stalled []string
	for p := range a.pending {
		if !p.relookAt.IsZero() && !now.Before(p.relookAt) {
			p.relookAt = time.Time{}
			blocked = append(blocked, p.id)
		}
		if !p.graceLookAt.IsZero() && !now.Before(p.graceLookAt) {
			p.graceLookAt = time.Time{}
			if p.state == Working && a.opt.Look != nil && !p.gate.active {
				relook = append(relook, p.id) // the grace that refused an idle reading ended
			}
		}
		if p.hold.active && !now.Before(p.hold.since.Add(a.opt.Hold)) {
			r := p.hold.report
			p.hold = hold{}
			if a.admit(p, r) == ReasonNone && (r.State != p.state || takesShown(p, r)) {
				a.publish(p, r, now)
			}
		}
		if p.gate.active && !now.Before(a.gateDue(&p.gate)) {
			if p.state != Working {
				p.gate = idleGate{}
			} else if a.opt.Look != nil && now.Sub(p.gate.first) < a.opt.Hold {
				p.gate.asked = now
				relook = append(relook, p.id)
			} else {
				r := p.gate.report
				p.gate = idleGate{}
				if a.admit(p, r) == ReasonNone {
					a.publish(p, r, now)
				}
			}
		}
		if p.state == Working && a.opt.StallAfter > 0 && !now.Before(a.stallDeadline(p)) {
			stalled = append(stalled, p.id)
		}
	}
	a.rearm(now)
	a.mu.Unlock()

	for _, id := range relook {
		a.opt.Look(id, LookConfirmIdle)
	}
	for _, id := range blocked {
		a.opt.Look(id, LookBlocker)
	}
	for _, id := range stalled {
		a.stall(id)
	}
	if len(relook)+len(blocked)+len(stalled) > 0 {
		a.mu.Lock()
		a.rearm(a.clock.Now())
		a.mu.Unlock()
	}
}

// rearm drops panes that need nothing and arms the timer for the rest.
// A pane already due is being handled outside the lock and re-arms after.
func (a *Arbiter) rearm(now time.Time) {
	var next time.Time
	for p := range a.pending {
		t := a.due(p)
		if t.IsZero() {
			delete(a.pending, p)
			continue
		}
		if !t.After(now) {
			// Being handled (a look or a stall runs after the lock is
			// released); it reschedules itself.
			continue
		}
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	a.wakeAt = time.Time{}
	if next.IsZero() {
		if a.timer != nil {
			a.timer.Stop()
		}
		return
	}
	a.arm(next, now)
}
