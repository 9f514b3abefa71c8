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
//
// One exception: a turn that only the detector said was work (it saw the
// agent appear, and no other source said working since) is not finished
// by idle, whoever says it: the agent's own word (a hook's SessionStart,
// its OSC 7501 program status) or a reading of its screen at the prompt.
// The agent is at its prompt, where it has been since it started, and
// counting that as a finished turn would mark a fresh agent as done with
// something the moment it took longer than MinTurn to start (opencode
// installing its plugin's dependency first, any agent on a busy machine).
// Going unknown (a stall) still finishes it, unless the turn began with
// the agent appearing: a fresh agent silent for the stall window while
// it starts (installing a dependency, a slow machine) was never given
// anything to finish, and only the agent's own word that it works (a
// report, its program status, its transcript, its screen) makes that
// start a turn. A detector-only turn that began from rest (the agent
// printing again at its prompt after a stall: the person typed) is still
// finished by a stall, the one way a harness without hooks or screen
// rules shows a finished turn.
//
// Nor does a session the pane did not have finish a turn by saying idle
// (write drops the turn): its SessionStart may come late, after other
// sources said the agent works (Codex starts its session, and runs the
// hook, only as the first turn begins), and what they read was not a
// turn of that session.
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
			p.turnWorked = p.claim.source != SourceDetect
			p.turnAtStart = old == None
		}
	case NeedsInput:
		// mid-turn: keep the turn running
	case Done:
		p.seq++
		p.inTurn = false
	case Idle, Unknown:
		if p.inTurn && old == Working && end.Sub(p.turnStart) >= MinTurn && (p.turnWorked || (next != Idle && !p.turnAtStart)) {
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
