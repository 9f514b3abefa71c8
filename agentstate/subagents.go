package agentstate

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of subagent tracking.
const (
	maxSubagents       = 64 // tracked per pane; a start past that is ignored
	maxSubagentsShown  = 16
	subagentTextBytes  = 80
	subagentDoneLinger = time.Minute
	subagentFailLinger = 5 * time.Minute
	subagentQuiet      = time.Hour
	activityBurst      = 64
	activityPerSecond  = 10
	maxIntents         = 16
	intentLinger       = 30 * time.Second
)

// ActivityKind is what an activity event says.
type ActivityKind uint8

const (
	SubagentStart ActivityKind = iota + 1 // a subagent started (or is still there)
	SubagentTool                          // a running subagent called a tool
	SubagentStop                          // a subagent ended
	SessionStart                          // a new agent session: forget every subagent
	// SubagentIntent: the agent asked for a subagent of Type to do
	// Description (its Task tool call). The next start of that type that
	// brings no description of its own takes it, because the start
	// event itself does not carry what the subagent was asked.
	SubagentIntent
)

// Activity is one event about a pane's subagents, from the agent's hooks.
// It never changes the pane's state or message.
type Activity struct {
	Kind        ActivityKind
	ID          string
	Type        string // "general-purpose"
	Description string // what the agent asked it to do
	Tool        string // SubagentTool: the tool it runs ("Bash: go test ./...")
	Result      string // SubagentStop: the first line it ended with, or the error
	Failed      bool   // SubagentStop: it failed

	// SessionID and Harness name the agent session and harness the event
	// speaks for. When the pane has one and the event names another, the
	// event is refused: activity never moves between agents.
	SessionID string
	Harness   string
}

// ActivityResult says what became of an activity event.
type ActivityResult struct {
	Recorded bool   // the event changed what the pane shows
	Reason   Reason // why not: foreign_session, foreign_harness, rate_limited; "" when it changed nothing to change
}

// Subagent is one row of subagent_list.
type Subagent struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	Description string `json:"description"`
	State       string `json:"state"` // running, done, failed or stopped
	Now         string `json:"now,omitempty"`
	Last        string `json:"last,omitempty"`
	Tools       int    `json:"tools"`
	Result      string `json:"result,omitempty"`
}

type subagent struct {
	Subagent
	seen  time.Time
	ended time.Time
}

type intent struct {
	typ, desc string
	at        time.Time
}

type subagentSet struct {
	list    []*subagent // start order
	intents []intent    // descriptions waiting for their start, oldest first
	tokens  float64
	tokenAt time.Time
	last    time.Time
}

func (s *subagentSet) forget() { s.list, s.intents = nil, nil }

// takeIntent returns the oldest waiting description for a subagent type.
func (s *subagentSet) takeIntent(typ string, now time.Time) string {
	for i, in := range s.intents {
		if now.Sub(in.at) >= intentLinger {
			continue
		}
		if in.typ == typ {
			s.intents = append(s.intents[:i:i], s.intents[i+1:]...)
			return in.desc
		}
	}
	return ""
}

func (s *subagentSet) find(id string) *subagent {
	for _, x := range s.list {
		if x.ID == id {
			return x
		}
	}
	return nil
}

// allow is a token bucket: a burst of activityBurst, refilled at
// activityPerSecond.
func (s *subagentSet) allow(now time.Time) bool {
	if s.tokenAt.IsZero() {
		s.tokens = activityBurst
	} else if d := now.Sub(s.tokenAt); d > 0 {
		s.tokens = min(activityBurst, s.tokens+d.Seconds()*activityPerSecond)
	}
	s.tokenAt = now
	if s.tokens < 1 {
		return false
	}
	s.tokens--
	return true
}

// Activity records a subagent event for a pane. A start on a pane with no
// state is ignored, a repeated start renews it, a stop for an unknown id
// does nothing, and a session start forgets every subagent. An event that
// names another agent session or harness than the pane's is refused
// whatever the state (stricter than a report's guard, which only holds
// mid-turn), and past the per-pane rate (a burst of 64, then 10 a second)
// events are refused as rate_limited.
func (a *Arbiter) Activity(paneID string, ev Activity) ActivityResult {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.get(paneID)
	if ev.SessionID != "" && p.sessionID != "" && ev.SessionID != p.sessionID {
		return ActivityResult{Reason: ReasonForeignSession}
	}
	if ev.Harness != "" && p.harness != "" && ev.Harness != p.harness {
		return ActivityResult{Reason: ReasonForeignHarness}
	}
	now := a.clock.Now()
	set := &p.subagents
	if !set.allow(now) {
		return ActivityResult{Reason: ReasonRateLimited}
	}
	set.prune(now)
	if ev.Kind == SessionStart {
		set.forget()
		a.bump(p)
		return ActivityResult{Recorded: true}
	}
	if ev.Kind == SubagentIntent {
		if p.state == None || ev.Type == "" || ev.Description == "" {
			return ActivityResult{}
		}
		if len(set.intents) >= maxIntents {
			set.intents = set.intents[1:]
		}
		set.intents = append(set.intents, intent{typ: oneLine(ev.Type), desc: oneLine(ev.Description), at: now})
		return ActivityResult{Recorded: true}
	}
	ev.ID = oneLine(ev.ID)
	x := set.find(ev.ID)
	switch ev.Kind {
	case SubagentStart:
		if p.state == None || ev.ID == "" {
			return ActivityResult{}
		}
		if x == nil {
			if len(set.list) >= maxSubagents {
				return ActivityResult{}
			}
			x = &subagent{Subagent: Subagent{ID: ev.ID}}
			set.list = append(set.list, x)
		}
		x.State = "running"
		x.ended = time.Time{}
		if ev.Type != "" {
			x.Type = oneLine(ev.Type)
		}
		if ev.Description != "" {
			x.Description = oneLine(ev.Description)
		} else if x.Description == "" {
			x.Description = set.takeIntent(x.Type, now)
		}
		x.seen = now
	case SubagentTool:
		if x == nil || x.State != "running" {
			return ActivityResult{}
		}
		x.Now = oneLine(ev.Tool)
		x.Tools++
		x.seen = now
	case SubagentStop:
		if x == nil {
			return ActivityResult{}
		}
		x.Result = oneLine(ev.Result)
		switch {
		case ev.Failed:
			x.State = "failed"
		case x.Result != "":
			x.State = "done"
		default:
			x.State = "stopped"
		}
		if x.Now != "" {
			x.Last, x.Now = x.Now, ""
		}
		x.seen, x.ended = now, now
	default:
		return ActivityResult{}
	}
	set.last = now
	a.bump(p)
	return ActivityResult{Recorded: true}
}

// bump records a change that is not a state change.
func (a *Arbiter) bump(p *pane) {
	a.version++
	p.version = a.version
	a.notify(p, p.state)
}

// prune drops finished subagents past their linger, and everything after
// an hour with no event. It runs lazily, so no timer is needed.
func (s *subagentSet) prune(now time.Time) {
	if len(s.list) == 0 {
		return
	}
	if now.Sub(s.last) >= subagentQuiet {
		s.list = nil
		return
	}
	kept := s.list[:0]
	for _, x := range s.list {
		if !x.gone(now) {
			kept = append(kept, x)
		}
	}
	s.list = kept
}

// gone reports whether a finished subagent has lingered long enough: a
// minute, or five when it failed.
func (x *subagent) gone(now time.Time) bool {
	return !x.ended.IsZero() && !now.Before(x.leaves())
}

// leaves is when an ended subagent's row leaves the list: a minute after
// it finished, five after it failed.
func (x *subagent) leaves() time.Time {
	if x.State == "failed" {
		return x.ended.Add(subagentFailLinger)
	}
	return x.ended.Add(subagentDoneLinger)
}

// running counts the subagents still running; the clock is read only
// when there are any.
func (s *subagentSet) running(c Clock) int {
	if len(s.list) == 0 || c.Now().Sub(s.last) >= subagentQuiet {
		return 0
	}
	n := 0
	for _, x := range s.list {
		if x.ended.IsZero() {
			n++
		}
	}
	return n
}

// view counts running subagents, lists at most 16 in start order, and
// says when that list next changes with no event to say so: an ended
// subagent's row leaving it, or the whole list going quiet (zero when it
// will not change by itself).
func (s *subagentSet) view(now time.Time) (int, []Subagent, time.Time) {
	if len(s.list) == 0 {
		return 0, nil, time.Time{}
	}
	running := 0
	var out []Subagent
	var next time.Time
	sooner := func(t time.Time) {
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	quiet := now.Sub(s.last) >= subagentQuiet
	for _, x := range s.list {
		if quiet {
			break
		}
		if x.gone(now) {
			continue
		}
		if x.ended.IsZero() {
			running++
		} else {
			sooner(x.leaves())
		}
		if len(out) < maxSubagentsShown {
			out = append(out, x.Subagent)
		}
	}
	if len(out) > 0 {
		sooner(s.last.Add(subagentQuiet))
	}
	return running, out, next
}

// oneLine keeps the first line of s, masks likely secrets and cuts it to
// 80 bytes at a rune boundary.
func oneLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, s)
	s = MaskSecrets(strings.TrimSpace(s))
	if len(s) > subagentTextBytes {
		cut := subagentTextBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}
