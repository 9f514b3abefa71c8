package waitfor

import (
	"context"
	"time"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// recheckEvery spaces pattern checks while a pane prints.
const recheckEvery = 50 * time.Millisecond

// Every wait's timeout is capped at one day (86,400,000 ms) by its
// params' max tag.

func (f *Feature) addVerb(h core.Host) {
	params, run := core.Handle(f.waitFor)
	h.AddVerb(core.Verb{Name: "wait-for", Class: core.Reads, Holds: true, Returns: "wait_result", Params: params, Run: run,
		Desc:    "Block until a pane prints a pattern, goes idle or exits, a session exists, or an agent reaches a state",
		Example: `{"verb":"wait-for","params":{"condition":"agent-state","until":"needs_input","timeout":600000}}`})
}

func (f *Feature) waitFor(c core.Call, p *proto.WaitParams) (any, *proto.Error) {
	timeout := time.Duration(p.Timeout) * time.Millisecond
	if p.Timeout <= 0 {
		timeout = 30 * time.Second
	}
	// A client that hangs up ends its wait (its call's context), as does
	// the daemon stopping.
	ctx, cancel := context.WithTimeout(c.Context(), timeout)
	defer cancel()
	result := &proto.WaitResult{Type: "wait_result", Condition: p.Condition, Matched: true}
	// where names the watched pane in the hint (hint.go); a pane
	// resolved below fills in what the caller left out.
	where := waitWhere{session: p.Session, window: p.Window}
	timedOut := func(what string) *proto.Error {
		if c.Context().Err() != nil { // not the deadline: say what ended it
			return proto.Errorf(proto.CodeTimeout, "the wait for %s ended before its timeout: the daemon is stopping or the caller hung up", what)
		}
		e := proto.Errorf(proto.CodeTimeout, "timed out after %dms waiting for %s", timeout.Milliseconds(), what)
		h := waitTimeoutHint(p.Condition, where)
		e.Hint = &h
		return e
	}

	if f.h.Options().AgentsOff && p.Condition == "agent-state" {
		return nil, core.AgentsDisabled("wait-for " + p.Condition)
	}
	switch p.Condition {
	case "session-exists":
		if err := f.h.InReach(c, p.Session); err != nil {
			return nil, err
		}
		for {
			if _, ok := f.h.FindSession(p.Session); ok {
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
		return f.waitAgent(ctx, c, p, result, timedOut) // agent.go
	case "agent-message":
		// The mail feature (internal/daemon/mailbox) answers with the message it got.
		return f.opt.Mail(ctx, c, MailWait{Session: p.Session, Inbox: p.Window, Thread: uint64(p.Thread)}, timedOut)
	case "window-output", "window-idle", "window-exit":
	default:
		return nil, proto.Errorf(proto.CodeInvalidParams, "unknown condition %q", p.Condition).
			WithHint(proto.Hint{Param: "condition", Accepted: []string{"window-output", "window-idle", "window-exit", "session-exists", "agent-state", "agent-message"}})
	}

	w, err := f.h.Window(c, p.Session, p.Window)
	if err != nil {
		if err.Code == proto.CodeWindowNotFound && p.Condition == "window-exit" {
			// A program window that exited, and closed, before the wait (exits.go).
			if gone, ok := f.recentExit(c, p.Session, p.Window); ok {
				code := gone.code
				result.Window, result.ExitCode, result.Closed = gone.id, &code, true
				return result, nil
			}
		}
		return nil, err
	}
	where.fill(w)
	result.Window = w.ID
	pane := w.Pane
	switch p.Condition {
	case "window-exit":
		select {
		case <-pane.Exited():
			code, _ := pane.ExitCode()
			result.ExitCode = &code
			return result, nil
		case <-ctx.Done():
			return nil, timedOut("the window to exit")
		}
	case "window-idle":
		idle := time.Duration(p.Idle) * time.Millisecond
		if p.Idle <= 0 {
			idle = 500 * time.Millisecond
		}
		// Silence counts from the wait's start at the earliest: a pane
		// quiet before it would answer at once, before the echo of what
		// the caller typed a moment ago arrives (send-text, then wait).
		start := time.Now()
		for {
			last, gen := pane.Quiet()
			if last.Before(start) {
				last = start
			}
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
	re, rerr := compileWaitPattern(p.Pattern) // pattern.go: ^ and $ anchor to lines
	if rerr != nil {
		return nil, proto.Errorf(proto.CodeInvalidParams, "bad pattern: %v", rerr).WithHint(proto.Hint{Param: "pattern"})
	}
	result.Pattern = p.Pattern
	matched := func() bool {
		// Join: a line the pane wrapped at its width is one line, so a
		// marker printed across the wrap still matches.
		line, ok := matchedLine(pane.Tracked().Screen().Capture(vt.CaptureOptions{Scrollback: true, Join: true}), re) // line.go
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
		gen := pane.Output()
		if matched() {
			return result, nil
		}
		select {
		case <-ctx.Done():
			return nil, timedOut("output")
		case <-gen:
		case <-pane.Exited():
			if !matched() { // the exit waited for the last output
				return nil, proto.Errorf(proto.CodeTimeout, "the window exited without printing a match").
					WithHint(waitTimeoutHint(p.Condition, where))
			}
			return result, nil
		}
	}
}
