package agentstate

import "time"

// Foreground is what the detector found in a pane's foreground.
type Foreground uint8

const (
	// ForegroundNone: nothing readable (the process vanished between reads).
	ForegroundNone Foreground = iota
	// ForegroundShell: the pane's own shell is back in the foreground.
	ForegroundShell
	// ForegroundProgram: some program other than the shell.
	ForegroundProgram
	// ForegroundExited: the pane's process has exited.
	ForegroundExited
)

// Sighting is one reading of a pane's foreground by the detector.
type Sighting struct {
	Agent      bool       // a known agent CLI is in the foreground
	Harness    string     // its manifest id ("" for a name-list match)
	Identity   Identity   // how it was recognised
	Foreground Foreground // what else is there
	// Group is the agent's process group (the terminal's foreground
	// group), 0 when unknown. It tells an agent that said it left and is
	// still exiting from a new one started in the pane.
	Group int
}

// Detected applies one detector tick. The detector only ever makes a pane
// appear (working, when it had no state) or leave (none):
//
//   - An agent on a pane with no state promotes it to working with the
//     detector's lifecycle ("auto") claim (also when that claim is there
//     already: a program status that ended left the pane at none). On a
//     pane that already has a state nothing changes, except that a
//     report made by a live agent is adopted: the detector will clear it
//     when the agent leaves.
//   - On an auto-owned pane, the shell back, nothing readable or an exited
//     process clears it at once; another program in the foreground counts
//     a miss, and MissLimit misses in a row clear it.
//   - A pane at its shell whose non-report claim came while an agent was
//     seen there clears too. A person's note on a plain shell pane never
//     does.
//   - An agent whose own report said it left (a hook's none naming its
//     harness) does not promote the pane again while it exits: the
//     sighting of its process group is ignored until another group, the
//     shell or a report comes.
//   - An agent of another harness than the pane's, on a pane whose claim
//     came only from rules or the detector (no report, program status or
//     transcript), names the pane's harness: the harness had been guessed
//     before the process could be read.
func (a *Arbiter) Detected(paneID string, s Sighting) Result {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.get(paneID)
	now := a.clock.Now()
	c := &p.claim
	p.agentNow = s.Agent
	owned := c.held && c.auto
	if p.leftGroup != 0 && (!s.Agent || s.Group != p.leftGroup) {
		p.leftGroup = 0
	}

	if s.Agent {
		p.agentGroup = s.Group
		if p.leftGroup != 0 && p.state == None {
			return Result{State: p.state, Applied: true}
		}
		p.sawAgent = true
		if s.Harness != "" && p.harness != "" && s.Harness != p.harness && readByRules(c) {
			// The pane's harness was named before its process could be
			// read: a caller's hint, or a title or screen read with that
			// hint's rules. The process in front is what the pane runs;
			// the claim stays until that harness's own rules read it.
			p.harness = s.Harness
			p.harnessAt = now
			if c.loan {
				c.prior.harness = s.Harness
			}
		}
		switch {
		case owned && p.state != None:
			c.misses = 0
		case p.state == None:
			// Also an owned pane left at none: a program status that
			// ended yields to the detector's lifecycle claim, and the
			// agent still there is working again.
			*c = claim{held: true, source: SourceDetect, identity: s.Identity, auto: true}
			p.message = ""
			p.kind = KindNone
			if p.harness != s.Harness {
				p.harness = s.Harness
				if s.Harness != "" {
					p.harnessAt = now
				}
			}
			a.setState(p, Working, now)
			return Result{State: p.state, Applied: true, Changed: true}
		case c.held && c.source == SourceReport && (c.bound || (c.boundTo != "" && c.boundTo == s.Harness)):
			c.auto = true
			c.misses = 0
		case c.held && c.loan && c.prior.source == SourceReport && (c.prior.bound || (c.prior.boundTo != "" && c.prior.boundTo == s.Harness)):
			c.prior.auto = true
			c.auto = true
			c.misses = 0
		}
		return Result{State: p.state, Applied: true}
	}

	if owned {
		if s.Foreground == ForegroundProgram && c.misses+1 < a.opt.MissLimit {
			c.misses++
			return Result{State: p.state, Applied: true}
		}
		a.clear(p, now)
		return Result{State: p.state, Applied: true, Changed: true}
	}
	if p.state != None && s.Foreground == ForegroundShell && p.sawAgent && c.held && c.source != SourceReport {
		a.clear(p, now)
		return Result{State: p.state, Applied: true, Changed: true}
	}
	return Result{State: p.state, Applied: true}
}

// readByRules says whether a claim (and the one it displaced, on a loan)
// came only from reading the pane with some harness's rules or from the
// detector, so a sighting of another harness may name the pane's harness.
// An agent's report, its program status and its transcript name their
// harness themselves.
func readByRules(c *claim) bool {
	if !c.held || c.source.Rank() > SourceOSC.Rank() {
		return false
	}
	return !c.loan || !c.prior.held || c.prior.source.Rank() <= SourceOSC.Rank()
}

// Reconcile is the check the owner runs with a reading taken off the
// detection tick (package detect: when the pane printed, or shortly
// after), on an auto-owned pane: the agent still in
// the foreground takes a resting pane the detector or the stall timer
// demoted back to working; the shell back clears it at once; another
// program is left to the tick's miss count. Other panes are untouched.
func (a *Arbiter) Reconcile(paneID string, s Sighting) Result {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.panes[paneID]
	if p == nil {
		return Result{Applied: true}
	}
	c := &p.claim
	if !c.held || !c.auto {
		return Result{State: p.state, Applied: true}
	}
	now := a.clock.Now()
	p.agentNow = s.Agent
	if s.Agent {
		p.agentGroup = s.Group
	}
	switch {
	case s.Agent:
		if (p.state == Idle || p.state == Unknown) && c.source.Rank() <= SourceDetect.Rank() {
			c.source = SourceDetect
			c.misses = 0
			c.loan = false
			if s.Harness != "" && s.Harness != p.harness {
				p.harness = s.Harness
				p.harnessAt = now
			}
			p.message = ""
			p.kind = KindNone
			a.setState(p, Working, now)
			return Result{State: p.state, Applied: true, Changed: true}
		}
	case s.Foreground != ForegroundProgram:
		a.clear(p, now)
		return Result{State: p.state, Applied: true, Changed: true}
	}
	return Result{State: p.state, Applied: true}
}

// clear takes a pane back to none: no claim, no harness, nothing pending.
func (a *Arbiter) clear(p *pane, now time.Time) {
	p.claim = claim{}
	p.harness = ""
	p.harnessPID = 0
	p.message = ""
	p.kind = KindNone
	p.hold = hold{}
	p.gate = idleGate{}
	p.sawAgent = false
	p.subagents.forget()
	a.setState(p, None, now)
}
