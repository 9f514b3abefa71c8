package mailbox

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
	"github.com/tuios/tuios/vt"
)

// ask is ask-agent: the question typed into the pane as one prompt once
// its agent is not mid-turn (through the core's one write path), then
// what the pane printed until it settled, recorded in the session's ring.
func (m *Mail) ask(c core.Call, p *proto.AskAgentParams) (any, *proto.Error) {
	if p.Window == mail.Human {
		return nil, proto.Errorf(codeNoKeyboard, "human has no keyboard to type into").
			WithHint(proto.Hint{Command: "tuios send-agent-message -w human TEXT; tuios wait-for agent-message -w \"$TUIOS_PANE_ID\"", Detail: "send the person a message and wait for the reply"})
	}
	if strings.TrimSpace(p.Text) == "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the question is blank").WithHint(proto.Hint{Param: "text"})
	}
	ms := func(v, def int) time.Duration {
		if v == 0 {
			v = def
		}
		return time.Duration(v) * time.Millisecond
	}
	readyTimeout, settle, timeout, stallTimeout := ms(p.ReadyTimeout, 30000), ms(p.Settle, 2000), ms(p.Timeout, 300000), ms(p.StallTimeout, 5000)
	maxLines := p.Lines
	if maxLines == 0 {
		maxLines = 200
	}
	w, err := m.h.Window(c, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	from, fromLabel, _, err := m.sender(c, p.From)
	if err != nil {
		return nil, err
	}
	ring, name, pane := m.Ring(w.Session, w.SessionID), w.DisplayName, w.Pane
	if from == w.ID {
		return nil, proto.Errorf(codeLoopRefused, "a pane cannot ask itself").WithHint(proto.Hint{Param: "window"})
	}
	asker := from
	if asker == mail.Human {
		asker = ""
	}
	done, aerr := ring.OpenAsk(asker, w.ID)
	if aerr != nil {
		return nil, mailErr(aerr)
	}
	defer done()

	ctx := c.Context() // a client that hangs up ends its ask
	arb := m.h.Tracker().Arbiter()
	blocked := func(snap agentstate.Snapshot) *proto.Error {
		what := snap.BlockedBy().String()
		if what == "" || what == "none" {
			what = "input"
		}
		msg := snap.Message
		if msg == "" {
			msg = "no message"
		}
		return proto.Errorf(codeAgentBlocked, "%s waits for %s (%s); nothing was typed", name, what, msg).
			WithHint(proto.Hint{Command: "tuios capture-pane -w " + w.ID[:8], Detail: "answer it first, or pass allow_blocked to type anyway"})
	}
	start := time.Now()
	snap := arb.Get(w.ID)
	if snap.State == agentstate.NeedsInput && !p.AllowBlocked {
		return nil, blocked(snap)
	}
	if !p.Force {
		ready, _ := agentstate.ParseStateSet("idle,done,errored,none,needs_input")
		rctx, rcancel := context.WithTimeout(ctx, readyTimeout)
		got, werr := arb.Wait(rctx, w.ID, ready)
		rcancel()
		switch {
		case errors.Is(werr, agentstate.ErrPaneRemoved):
			return nil, proto.Errorf(proto.CodeWindowNotFound, "the window closed while waited on")
		case werr != nil:
			st := arb.Brief(w.ID).State
			detail := "it is mid-turn; try again later, or pass force"
			if st == agentstate.Unknown {
				detail = "its state is unknown: nothing says it is at a prompt; pass force if you know it is"
			}
			return nil, proto.Errorf(codeNotReady, "%s was still %s after %dms; nothing was typed", name, st, readyTimeout.Milliseconds()).
				WithHint(proto.Hint{Detail: detail})
		case got.State == agentstate.NeedsInput && !p.AllowBlocked:
			return nil, blocked(got)
		}
	}
	waited := time.Since(start)

	// Baseline, then a last look at the blocked state right before typing.
	screen := pane.Tracked().Screen()
	base := contentLines(screen)
	snap = arb.Get(w.ID)
	if snap.State == agentstate.NeedsInput && !p.AllowBlocked {
		return nil, blocked(snap)
	}
	baseSeq := snap.CompletionSeq
	typed, err := m.h.TypeHeld(c, w.ID, p.Text) // the one write path, as c
	if err != nil {
		return nil, err
	}
	harness, gen, submitAt := typed.Harness, typed.Output, typed.SubmitAt

	record := func(reply, settledBy string) {
		ring.RecordAsk(mail.AskRecord{From: from, FromLabel: fromLabel, To: w.ID, ToLabel: name, Question: p.Text, Reply: reply, SettledBy: settledBy})
	}
	sub := arb.Subscribe(agentstate.SubscribeOptions{Pane: w.ID, Buffer: 16})
	defer sub.Close()

	// Stall gate: the pane must show it took the question.
	took := false
	stall := time.NewTimer(stallTimeout)
	defer stall.Stop()
	for !took {
		sn := arb.Get(w.ID)
		if sn.State == agentstate.Working || sn.State == agentstate.NeedsInput || sn.CompletionSeq > baseSeq {
			took = true
			break
		}
		select {
		case <-gen:
			if harness == "" { // no rules to say working: output is the sign
				took = true
			}
			gen = pane.Output()
		case <-sub.C:
		case <-stall.C:
			record("", "stalled")
			return nil, proto.Errorf(codePromptStalled, "%s showed no sign of taking the question within %dms; the text was typed", name, stallTimeout.Milliseconds()).
				WithHint(proto.Hint{Command: "tuios capture-pane -w " + w.ID[:8], Detail: "do not resend blindly: look at the pane first"})
		case <-pane.Exited():
			record("", "window-closed")
			return nil, proto.Errorf(proto.CodeWindowNotFound, "the window closed during the ask")
		case <-ctx.Done():
			return nil, proto.Errorf(proto.CodeTimeout, "the asker hung up")
		}
	}

	// Settle: a rest or needs_input state stamped after submit, or settle
	// ms of silence, or the overall timeout.
	tookAt := time.Now()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	settledBy := ""
	for settledBy == "" {
		sn := arb.Get(w.ID)
		if sn.StateAt.After(submitAt) && (sn.State.AtRest() || sn.State == agentstate.NeedsInput) {
			settledBy = "agent-state"
			break
		}
		g := pane.Output() // before the time it stamps: output between the two closes g
		last := pane.LastOutput()
		if last.Before(tookAt) {
			last = tookAt
		}
		quiet := settle - time.Since(last)
		if quiet <= 0 {
			settledBy = "idle"
			break
		}
		select {
		case <-g:
		case <-sub.C:
		case <-time.After(quiet):
		case <-deadline.C:
			settledBy = "timeout"
		case <-pane.Exited():
			settledBy = "window-closed"
		case <-m.h.Done():
			settledBy = "shutdown"
		case <-ctx.Done():
			return nil, proto.Errorf(proto.CodeTimeout, "the asker hung up")
		}
	}
	if settledBy == "agent-state" {
		if _, protocol, _ := m.h.StartedIn(w.ID); protocol != "" {
			pane.Settle(50*time.Millisecond, 500*time.Millisecond) // a protocol pane's last frame
		}
	}
	reply, truncated := replyLines(base, contentLines(screen), maxLines)
	record(strings.Join(reply, "\n"), settledBy)
	return &proto.AgentReply{Type: "agent_reply", Session: w.Session, Window: w.ID, Name: name, WaitedFor: waited.Milliseconds(),
		SettledBy: settledBy, State: arb.Brief(w.ID).State.String(), Untrusted: true, Reply: strings.Join(reply, "\n"),
		Lines: len(reply), Truncated: truncated}, nil
}

// contentLines is the pane's text, scrollback included, without trailing
// empty lines.
func contentLines(sc *vt.Screen) []string {
	lines := strings.Split(sc.Capture(vt.CaptureOptions{Scrollback: true}), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// replyLines is what the pane printed after the baseline: the lines from
// the first one that changed (past the prompt line when all that changed
// there is the echo of the question appended to it), the newest max of
// them.
func replyLines(base, now []string, max int) ([]string, bool) {
	i := 0
	for i < len(base) && i < len(now) && base[i] == now[i] {
		i++
	}
	if i == len(base)-1 && i < len(now) && strings.HasPrefix(now[i], base[i]) { // the prompt line took the echo
		i++
	}
	out := now[min(i, len(now)):]
	truncated := false
	if len(out) > max {
		out, truncated = out[len(out)-max:], true
	}
	return append([]string{}, out...), truncated
}
