package agentstate

import "time"

// Snapshot is everything a reader needs about one pane, copied out under
// the arbiter's lock.
type Snapshot struct {
	Pane    string
	State   State
	Message string
	Kind    Kind      // what a needs_input pane waits for; see BlockedBy
	StateAt time.Time // when the state was last stamped; zero: never

	// Source is the claim's owner. Claimed is false when no source holds
	// the pane; Source is then SourceNone (SourceName prints "").
	Source  Source
	Claimed bool

	Harness    string
	Identity   Identity
	Confidence Confidence

	// EvidenceAge is how long ago the last evidence about the state
	// arrived; HasEvidence is false for a pane that never had a state.
	EvidenceAge time.Duration
	HasEvidence bool

	SessionID string
	// SessionHarness is the harness that reported SessionID, "" when the
	// report named none.
	SessionHarness string
	CompletionSeq  uint64
	FinishedUnread bool // at rest, and a turn finished since MarkSeen

	Auto   bool      // the detector will clear the pane when the agent leaves
	Loan   bool      // a screen prompt displaced Prior and will give it back
	Prior  PriorView // valid when Loan
	Misses int
	// Now is what the agent said it is doing (Report.Now), while it works
	// or waits mid-turn.
	Now string
	// Meta is what the agent stated about itself (SetMeta), expired keys
	// left out; nil when there is none.
	Meta      map[string]string
	Subagents int // running subagents
	// SubagentList is the rail's view: at most 16, in start order.
	SubagentList []Subagent
	// SubagentsChangeAt is when SubagentList next changes by the clock
	// alone, with no event: a finished subagent's row leaving it (a
	// minute after it finished, five after it failed), or the list going
	// quiet. A view that shows the list redraws then; zero when it will
	// not change by itself.
	SubagentsChangeAt time.Time

	Version uint64 // increases with every change to this pane
}

// PriorView is the claim a screen loan displaced, as it will come back.
type PriorView struct {
	Claimed bool
	Source  Source
	State   State
	Harness string
	Message string
	Kind    Kind // the kind stored with the prior (needs_input only)
}

// NeedsYou reports whether a person has to act.
func (s Snapshot) NeedsYou() bool { return s.State.NeedsYou() }

// ConversationHarness is the harness whose conversation SessionID names:
// the pane's attribution, else the harness that reported the id. A
// harness that reports only its conversation id (Droid, Qoder, Crush...)
// leaves no attribution once its process is gone, or in a pane the
// detector cannot read, and its id is still resumable.
func (s Snapshot) ConversationHarness() string {
	if s.Harness != "" {
		return s.Harness
	}
	return s.SessionHarness
}

// BlockedBy is the kind a needs_input pane waits for, and KindNone in any
// other state (the kind is checked, not trusted: the detector and the stall
// move panes without clearing it).
func (s Snapshot) BlockedBy() Kind {
	if s.State != NeedsInput {
		return KindNone
	}
	return s.Kind
}

// Seen reports whether a done pane has been looked at (it draws ○).
func (s Snapshot) Seen() bool { return !s.FinishedUnread }

// Glyph is the pane's title-bar glyph.
func (s Snapshot) Glyph() string { return s.State.Glyph(s.Seen()) }

// SourceName is the claim's source as printed: "" when unclaimed.
func (s Snapshot) SourceName() string {
	if !s.Claimed {
		return ""
	}
	return s.Source.String()
}

// Get returns a pane's snapshot. A pane the arbiter has never heard of
// reads as none, unclaimed, with no evidence.
func (a *Arbiter) Get(paneID string) Snapshot {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.panes[paneID]
	if p == nil {
		return Snapshot{Pane: paneID}
	}
	return a.snapshot(p, a.clock.Now())
}

func (a *Arbiter) snapshot(p *pane, now time.Time) Snapshot {
	c := p.claim
	s := Snapshot{
		Pane:           p.id,
		State:          p.state,
		Message:        p.message,
		Kind:           p.kind,
		StateAt:        p.stateAt,
		Source:         c.owner(),
		Claimed:        c.held,
		Harness:        p.harness,
		Identity:       c.identity,
		SessionID:      p.sessionID,
		SessionHarness: p.sessionHarness,
		CompletionSeq:  p.seq,
		FinishedUnread: p.seq > p.seenSeq && p.state.AtRest(),
		Auto:           c.held && c.auto,
		Loan:           c.held && c.loan,
		Misses:         c.misses,
		Now:            p.now,
		Meta:           p.metaView(now),
		Version:        p.version,
	}
	if p.harness == "" && c.identity != IdentityList {
		s.Identity = IdentityNone
	}
	s.Confidence = s.Identity.Confidence()
	if s.Loan {
		s.Prior = PriorView{Claimed: c.prior.held, Source: c.prior.owner(), State: c.prior.state, Harness: c.prior.harness,
			Message: c.prior.message, Kind: c.prior.kind}
	}
	if !p.stateAt.IsZero() {
		stamp := p.stateAt
		// A state the detector or the stall inferred is refreshed by the
		// pane printing: a pane that keeps printing reads fresh.
		if c.held && (c.source == SourceDetect || c.source == SourceStall) && p.lastOutput.After(stamp) {
			stamp = p.lastOutput
		}
		s.HasEvidence = true
		if age := now.Sub(stamp); age > 0 {
			s.EvidenceAge = age
		}
	}
	s.Subagents, s.SubagentList, s.SubagentsChangeAt = p.subagents.view(now)
	return s
}

// All returns a snapshot of every pane, in no fixed order.
func (a *Arbiter) All() []Snapshot {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.clock.Now()
	out := make([]Snapshot, 0, len(a.panes))
	for _, p := range a.panes {
		out = append(out, a.snapshot(p, now))
	}
	return out
}

// Brief is the part of a pane's state a hot path needs, read without
// building a Snapshot.
type Brief struct {
	State   State
	Harness string
	Source  Source
	Claimed bool
	Auto    bool // the detector's lifecycle claim is held
	// Agent says the pane is known to hold an agent: it has a state, a
	// harness, a claim or a harness pid. OSC 9;4 is believed only then.
	Agent bool
	// Subagents counts the running subagents.
	Subagents int
}

// Brief returns a pane's brief without allocating.
func (a *Arbiter) Brief(paneID string) Brief {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.panes[paneID]
	if p == nil {
		return Brief{}
	}
	c := p.claim
	return Brief{
		State: p.state, Harness: p.harness, Source: c.owner(), Claimed: c.held,
		Auto:      c.held && c.auto,
		Agent:     p.state != None || p.harness != "" || c.held || p.harnessPID > 1,
		Subagents: p.subagents.running(a.clock),
	}
}
