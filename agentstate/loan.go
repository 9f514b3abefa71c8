package agentstate

// NoMatch tells the arbiter that a look read the pane and no rule of the
// given source matched. A screen loan is given back as it was: the claim it
// displaced returns exactly (state, source, harness, lifecycle, message,
// kind, and the notification mark of an event claim), stamped now. A rule
// that re-matched while the loan stood does not change what comes back.
// An idle the screen held is yielded. A look that found nothing on a pane
// holding no loan writes nothing.
func (a *Arbiter) NoMatch(paneID string, src Source) Result {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.panes[paneID]
	if p == nil {
		return Result{Applied: true}
	}
	if p.gate.active && p.gate.source == src {
		p.gate = idleGate{}
	}
	c := &p.claim
	if !c.held || c.source != src || src != SourceScreen {
		return Result{State: p.state, Applied: true}
	}
	if c.loan {
		pr := c.prior
		*c = claim{
			held: pr.held, source: pr.source, identity: pr.identity, event: pr.event,
			auto: pr.auto, bound: pr.bound, boundTo: pr.boundTo,
		}
		if !pr.held {
			*c = claim{}
		}
		p.harness = pr.harness
		p.message = pr.message
		p.kind = pr.kind
		p.kindIn = pr.kindIn
		a.setState(p, pr.state, a.clock.Now())
		return Result{State: p.state, Applied: true, Changed: true}
	}
	if p.state == Idle {
		a.yield(p)
		return Result{State: p.state, Applied: true, Changed: true}
	}
	return Result{State: p.state, Applied: true}
}

// Yield gives up src's claim on a pane without asserting anything: the
// shown state stays exactly as it is and weaker sources may take over.
// Only the owning source can yield; yielding another source's claim does
// nothing and returns false. A claim that carries the detector's lifecycle
// becomes a plain detector claim instead of vanishing, so the pane still
// clears when the agent leaves.
//
// A source whose claim a screen loan displaced yields the loan's prior:
// when the prompt leaves, the pane keeps the state it had then, unclaimed
// (or held by the detector's lifecycle).
func (a *Arbiter) Yield(paneID string, src Source) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.panes[paneID]
	if p == nil || !p.claim.held {
		return false
	}
	if c := &p.claim; c.loan && c.source != src && c.prior.held && c.prior.source == src {
		pr := &c.prior
		if pr.auto {
			pr.source = SourceDetect
		} else {
			pr.held, pr.source = false, SourceNone
		}
		return true
	}
	if p.claim.source != src {
		return false
	}
	a.yield(p)
	return true
}

func (a *Arbiter) yield(p *pane) {
	c := p.claim
	if c.auto {
		p.claim = claim{held: true, source: SourceDetect, identity: c.identity, auto: true, misses: c.misses, bound: c.bound, boundTo: c.boundTo}
	} else {
		p.claim = claim{}
	}
	// The source changed; readers of the claim must see it.
	a.version++
	p.version = a.version
	a.notify(p, p.state)
}
