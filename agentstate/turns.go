package agentstate

import "time"

// turn counts finished turns (completion_seq). A turn starts when a pane
// starts working from rest; needs_input mid-turn neither ends nor restarts
// it. Going from a turn to idle, done or unknown after MinTurn of work
// finishes it; an explicit done finishes it however short. errored is not
// a finished turn. end is when the work ended (for a stall, the last
// output). A write that keeps the state (a restamp, or a higher-ranked
// source taking the claim of the state shown) neither starts nor ends a
// turn.
func (a *Arbiter) turn(p *pane, old, next State, now, end time.Time) {
	if old == next {
		return
	}
	if next != Working && next != NeedsInput {
		p.now = ""
	}
	switch next {
	case Working:
		if !p.inTurn {
			p.inTurn = true
			p.turnStart = now
		}
	case NeedsInput:
		// mid-turn: keep the turn running
	case Done:
		p.seq++
		p.inTurn = false
	case Idle, Unknown:
		if p.inTurn && old == Working && end.Sub(p.turnStart) >= MinTurn {
			p.seq++
		}
		p.inTurn = false
	default:
		p.inTurn = false
	}
}

// MarkSeen records that a person looked at the pane: finished turns up to
// now are read, and a done pane draws the idle circle.
func (a *Arbiter) MarkSeen(paneID string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if p := a.panes[paneID]; p != nil && p.seenSeq != p.seq {
		p.seenSeq = p.seq
		a.version++
		p.version = a.version
		a.notify(p, p.state)
	}
}
