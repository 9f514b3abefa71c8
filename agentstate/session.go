package agentstate

// SetSession records the agent session a pane's agent speaks for, without
// touching its state: harnesses whose hooks report only their
// conversation id (so the pane can be resumed after a restart) leave the
// state to the other sources. Mid-turn, a session or harness other than
// the one a report claim holds is refused, as for reports; at rest a new
// session takes over (/clear, /resume, a restart).
func (a *Arbiter) SetSession(paneID, harness, sessionID string) Result {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.get(paneID)
	c := p.claim
	if c.held && c.source == SourceReport && (p.state == Working || p.state == NeedsInput) {
		if p.sessionID != "" && sessionID != p.sessionID {
			return Result{State: p.state, Reason: ReasonForeignSession}
		}
		if harness != "" && p.harness != "" && harness != p.harness {
			return Result{State: p.state, Reason: ReasonForeignHarness}
		}
	}
	if p.sessionID == sessionID && (harness == "" || p.sessionHarness == harness) {
		return Result{State: p.state, Applied: true}
	}
	p.sessionID = sessionID
	if harness != "" {
		p.sessionHarness = harness
	}
	a.bump(p)
	return Result{State: p.state, Applied: true, Changed: true}
}
