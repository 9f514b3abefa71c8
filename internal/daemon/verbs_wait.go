package daemon

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/mailbox"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// recheckEvery spaces pattern checks while a pane prints.
const recheckEvery = 50 * time.Millisecond

// Every wait's timeout is capped at one day (86,400,000 ms) by its
// params' max tag.

func (s *Server) waitVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.WaitParams) (any, *proto.Error) { return s.waitFor(cn, p) })
	add("wait-for", reads|holdsConn, "Block until a pane prints a pattern, goes idle or exits, a session exists, or an agent reaches a state", "wait_result",
		`{"verb":"wait-for","params":{"condition":"agent-state","until":"needs_input","timeout":600000}}`, p, h)
}

func (s *Server) waitFor(cn *conn, p *proto.WaitParams) (any, *proto.Error) {
	timeout := time.Duration(p.Timeout) * time.Millisecond
	if p.Timeout <= 0 {
		timeout = 30 * time.Second
	}
	// A client that hangs up ends its wait (cn.ctx), as does the daemon
	// stopping.
	ctx, cancel := context.WithTimeout(cn.ctx, timeout)
	defer cancel()
	result := &proto.WaitResult{Type: "wait_result", Condition: p.Condition, Matched: true}
	// where names the watched pane in the hint (wait_hint.go); a pane
	// resolved below fills in what the caller left out.
	where := waitWhere{session: p.Session, window: p.Window}
	timedOut := func(what string) *proto.Error {
		if cn.ctx.Err() != nil { // not the deadline: say what ended it
			return proto.Errorf(proto.CodeTimeout, "the wait for %s ended before its timeout: the daemon is stopping or the caller hung up", what)
		}
		e := proto.Errorf(proto.CodeTimeout, "timed out after %dms waiting for %s", timeout.Milliseconds(), what)
		h := waitTimeoutHint(p.Condition, where)
		e.Hint = &h
		return e
	}

	if s.agentsOff && p.Condition == "agent-state" {
		return nil, agentsDisabled("wait-for " + p.Condition)
	}
	switch p.Condition {
	case "session-exists":
		if err := s.sessionInReach(cn, p.Session); err != nil {
			return nil, err
		}
		for {
			s.mu.Lock()
			ok := s.sessions[p.Session] != nil
			s.mu.Unlock()
			if ok {
				result.Session = p.Session
				return result, nil
			}
			select {
			case <-ctx.Done():
				return nil, timedOut("session " + p.Session)
			case <-time.After(20 * time.Millisecond):
			}
		}
	case "agent-state":
		return s.waitAgent(ctx, cn, p, result, timedOut)
	case "agent-message":
		// The mail feature (internal/daemon/mailbox) fills in the message it got.
		return s.mail.Wait(ctx, cn, mailbox.WaitFor{Session: p.Session, Inbox: p.Window, Thread: uint64(p.Thread)},
			map[string]any{"type": result.Type, "condition": result.Condition, "matched": true}, timedOut)
	case "window-output", "window-idle", "window-exit":
	default:
		return nil, proto.Errorf(proto.CodeInvalidParams, "unknown condition %q", p.Condition).
			WithHint(proto.Hint{Param: "condition", Accepted: []string{"window-output", "window-idle", "window-exit", "session-exists", "agent-state", "agent-message"}})
	}

	s.mu.Lock()
	_, w, err := s.target(cn, p.Session, p.Window)
	var gone exitRecord
	late := false
	if err != nil && err.Code == proto.CodeWindowNotFound && p.Condition == "window-exit" {
		gone, late = s.recentExitLocked(cn, p.Session, p.Window) // exited.go
	}
	if err == nil {
		where.fillLocked(w)
	}
	s.mu.Unlock()
	if late { // a program window that exited, and closed, before the wait
		code := gone.status.Code
		result.Window, result.ExitCode, result.Closed = gone.id, &code, true
		return result, nil
	}
	if err != nil {
		return nil, err
	}
	result.Window = w.ID
	switch p.Condition {
	case "window-exit":
		select {
		case <-w.exitCh:
			w.mu.Lock()
			code := w.exitStatus.Code
			result.ExitCode = &code
			w.mu.Unlock()
			return result, nil
		case <-ctx.Done():
			return nil, timedOut("the window to exit")
		}
	case "window-idle":
		idle := time.Duration(p.Idle) * time.Millisecond
		if p.Idle <= 0 {
			idle = 500 * time.Millisecond
		}
		for {
			w.mu.Lock()
			last, gen := w.lastOutput, w.outputGen
			if last.IsZero() {
				last = w.created
			}
			w.mu.Unlock()
			left := idle - time.Since(last)
			if left <= 0 {
				return result, nil
			}
			select {
			case <-ctx.Done():
				return nil, timedOut("the window to go idle")
			case <-gen:
			case <-time.After(left):
			}
		}
	}
	// window-output
	re, rerr := compileWaitPattern(p.Pattern) // wait_pattern.go: ^ and $ anchor to lines
	if rerr != nil {
		return nil, proto.Errorf(proto.CodeInvalidParams, "bad pattern: %v", rerr).WithHint(proto.Hint{Param: "pattern"})
	}
	result.Pattern = p.Pattern
	matched := func() bool {
		line, ok := matchedLine(w.pane.Screen().Capture(vt.CaptureOptions{Scrollback: true}), re) // wait_line.go
		if ok {
			result.Line = &line
		}
		return ok
	}
	var checked time.Time
	for {
		// A pane printing fast wakes this loop per chunk; matching the
		// whole scrollback each time would slow the pane down. Check at
		// most every recheckEvery while output flows.
		if wait := recheckEvery - time.Since(checked); wait > 0 {
			select {
			case <-ctx.Done():
				return nil, timedOut("output")
			case <-time.After(wait):
			}
		}
		checked = time.Now()
		w.mu.Lock()
		gen := w.outputGen
		w.mu.Unlock()
		if matched() {
			return result, nil
		}
		select {
		case <-ctx.Done():
			return nil, timedOut("output")
		case <-gen:
		case <-w.exitCh:
			if !matched() { // the exit waited for the last output
				return nil, proto.Errorf(proto.CodeTimeout, "the window exited without printing a match").
					WithHint(waitTimeoutHint(p.Condition, where))
			}
			return result, nil
		}
	}
}

func (s *Server) waitAgent(ctx context.Context, cn *conn, p *proto.WaitParams, result *proto.WaitResult, timedOut func(string) *proto.Error) (any, *proto.Error) {
	if p.Select != "" {
		return s.waitSelect(ctx, cn, p, result, timedOut)
	}
	set, err := agentstate.ParseStateSet(p.Until)
	if err != nil {
		se, _ := err.(*agentstate.StateError)
		h := proto.Hint{Param: "until", Accepted: stateNames()}
		if se != nil {
			h.DidYouMean = se.DidYouMean
		}
		return nil, proto.Errorf(proto.CodeInvalidParams, "until: unknown state").WithHint(h)
	}
	result.State = set.String()
	arb := s.tracker.Arbiter()
	if p.Window != "" {
		s.mu.Lock()
		_, w, perr := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
		if perr != nil {
			return nil, perr
		}
		snap, werr := arb.Wait(ctx, w.ID, set)
		switch {
		case errors.Is(werr, agentstate.ErrPaneRemoved):
			return nil, proto.Errorf(proto.CodeWindowNotFound, "the window closed while waited on")
		case werr != nil:
			return nil, timedOut("agent state " + set.String())
		}
		result.Window, result.State = w.ID, snap.State.String()
		return result, nil
	}
	// Any window in the session: subscribe first, then check, so a change
	// between the two cannot be missed.
	s.mu.Lock()
	ss, perr := s.session(cn, p.Session)
	s.mu.Unlock()
	if perr != nil {
		return nil, perr
	}
	sub := arb.Subscribe(agentstate.SubscribeOptions{Buffer: 256})
	defer sub.Close()
	check := func() (string, agentstate.State, bool) {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, w := range ss.windows {
			if st := arb.Brief(w.ID).State; set.Has(st) && (st != agentstate.None) {
				return w.ID, st, true
			}
		}
		return "", 0, false
	}
	for {
		if id, st, ok := check(); ok {
			result.Window, result.State = id, st.String()
			return result, nil
		}
		select {
		case <-ctx.Done():
			return nil, timedOut("agent state " + set.String())
		case <-sub.C:
		}
	}
}

// waitSelect is wait-for agent-state with a selector: the first pane the
// selector matches whose state is in until, in every session or the one
// named.
func (s *Server) waitSelect(ctx context.Context, cn *conn, p *proto.WaitParams, result *proto.WaitResult, timedOut func(string) *proto.Error) (any, *proto.Error) {
	if p.Window != "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "select and window do not go together").WithHint(proto.Hint{Param: "select"})
	}
	sel, perr := parseSelect(p.Select)
	if perr != nil {
		return nil, perr
	}
	var set agentstate.StateSet
	if p.Until != "" {
		var err error
		if set, err = agentstate.ParseStateSet(p.Until); err != nil {
			return nil, proto.Errorf(proto.CodeInvalidParams, "until: unknown state").WithHint(proto.Hint{Param: "until", Accepted: stateNames()})
		}
		result.State = set.String()
	}
	var only *Session
	if p.Session == "" {
		if err := s.wide(cn, "select and no session"); err != nil { // verbs_grants.go
			return nil, err
		}
	} else {
		s.mu.Lock()
		ss, err := s.session(cn, p.Session)
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		only = ss
	}
	result.Select = sel.String()
	arb := s.tracker.Arbiter()
	sub := arb.Subscribe(agentstate.SubscribeOptions{Buffer: 256})
	defer sub.Close()
	type seat struct {
		id string
		f  inbox.SelectorFields
	}
	check := func() (string, agentstate.State, bool) {
		s.mu.Lock()
		var seats []seat
		for _, w := range s.windows {
			if only != nil && w.session != only {
				continue
			}
			seats = append(seats, seat{id: w.ID, f: inbox.SelectorFields{Session: w.session.Name, Name: w.DisplayName(), Cwd: w.cwdNow()}})
		}
		s.mu.Unlock()
		sort.Slice(seats, func(i, j int) bool { return seats[i].id < seats[j].id })
		for _, st := range seats {
			b := arb.Brief(st.id)
			if b.State == agentstate.None || set != 0 && !set.Has(b.State) {
				continue
			}
			st.f.Harness, st.f.State = b.Harness, b.State
			if sel.Match(&st.f) {
				return st.id, b.State, true
			}
		}
		return "", 0, false
	}
	for {
		if id, st, ok := check(); ok {
			result.Window, result.State = id, st.String()
			return result, nil
		}
		select {
		case <-ctx.Done():
			return nil, timedOut("a pane matching " + sel.String())
		case <-sub.C:
		}
	}
}

func stateNames() []string {
	var out []string
	for _, s := range agentstate.States() {
		out = append(out, s.String())
	}
	return out
}
