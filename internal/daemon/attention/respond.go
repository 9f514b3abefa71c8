package attention

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// respond answers a pane's prompt as the person: exactly the keys the
// harness manifest's answers name, after checking the prompt is still
// the one peeked, with a risky allow's rules named.

const (
	respondDefaultTimeout = 5000 * time.Millisecond
	maxRespondText        = 4096
)

func (r *Prompts) respond(c core.Call, p *proto.RespondParams) (any, *proto.Error) {
	h := r.h
	start := time.Now()
	by := h.Answerer(c, p.HumanNonce) // client, shell, pane:ID or link:NAME
	if by == "" {
		opt := h.Options()
		detail := "answer from your attached client"
		if !opt.RespondFromShell {
			detail += ", or set respond_from_shell = true under [daemon] in " + opt.ConfigPath + " and restart the daemon to answer from a shell outside every pane"
		}
		return nil, proto.Errorf(codeRespondNotHuman, "respond acts as the person: it needs a live human nonce from an attached client, or a shell outside every pane with respond_from_shell").
			WithHint(proto.Hint{Detail: detail})
	}
	if p.Action == "choose" {
		if n, err := strconv.Atoi(p.Value); err != nil || n < 1 || n > 9 {
			return nil, proto.Errorf(proto.CodeInvalidParams, "choose needs an option number 1 to 9").
				WithHint(proto.Hint{Detail: "the number follows the action: tuios respond -w WINDOW choose 2"}) // not a flag: the CLI takes it as an argument
		}
	}
	if p.Action == "text" && (p.Value == "" || len(p.Value) > maxRespondText) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "text needs the answer, 1 to 4096 bytes").
			WithHint(proto.Hint{Detail: "the answer follows the action: tuios respond -w WINDOW text 'use the v2 API'"})
	}
	timeout := respondDefaultTimeout
	if p.Timeout > 0 {
		timeout = time.Duration(p.Timeout) * time.Millisecond
	}
	w, err := h.Window(c, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	name, session := w.DisplayName, w.Session
	held := heldAnswer{PromptID: p.PromptID, Action: p.Action, Value: p.Value, RiskAck: p.RiskAck}
	if res, herr, held := r.holds.respondHeld(held, by, session, w.ID, name); held { // the Inbox holds its prompt (held_respond.go)
		return res, herr
	}

	lctx, lcancel := context.WithTimeout(c.Context(), timeout)
	unlock, ok := r.lock(lctx, w.ID)
	lcancel()
	if !ok {
		return nil, proto.Errorf(proto.CodeTimeout, "another answer to %s is still being pressed", name)
	}
	locked := true
	defer func() {
		if locked {
			unlock()
		}
	}()
	pk := r.peek(w)
	changed := func(why string) *proto.Error {
		return proto.Errorf(codePromptChanged, "the prompt of %s is not the one to answer (%s); nothing was pressed", name, why).
			WithHint(proto.Hint{Command: "tuios peek-prompt -s " + session + " -w " + w.ID[:8], Detail: "read it again"})
	}
	switch {
	case !pk.Blocked:
		return nil, changed("it is " + pk.State + ", not waiting")
	case !pk.Found:
		return nil, changed("no screen rule reads a prompt now")
	case pk.prompt.Answers == nil:
		return nil, changed("the rule that reads it names no answers")
	case p.PromptID != "" && p.PromptID != pk.PromptID:
		return nil, changed("its id is now " + pk.PromptID)
	}
	if err := crushRespondCheck(w.Pane, pk.Harness, name); err != nil {
		return nil, err
	}
	r.mu.Lock()
	already := r.answered[w.ID].holds(pk.PromptID, h.Clock().Now())
	r.mu.Unlock()
	if already {
		return nil, changed("it was already answered")
	}
	var keys []string
	var deny []string
	chosenDenies := false
	if a := pk.prompt.Answers; a != nil {
		deny, _ = answerKeys(pk.prompt, a.Deny)
		switch p.Action {
		case "approve":
			keys, ok = answerKeys(pk.prompt, a.Approve)
		case "approve_always":
			keys, ok = answerKeys(pk.prompt, a.ApproveAlways)
		case "deny":
			keys, ok = deny, len(deny) > 0
		case "choose":
			ok = false
			if a.Choose == "digit" && len(pk.prompt.Options) > 0 {
				n, _ := strconv.Atoi(p.Value)
				o, err := chooseOption(pk.prompt, n)
				if err != nil {
					return nil, err
				}
				keys, ok = []string{strconv.Itoa(o.N)}, true
				chosenDenies = choiceDenies(pk.prompt, o) // bound to the label, not the place (respond_choose.go)
			}
		case "text":
			ok = a.Text
		}
	}
	if !ok {
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s is not offered by this prompt", p.Action).
			WithHint(proto.Hint{Param: "action", Available: pk.Actions})
	}
	allows := p.Action != "deny" && !(p.Action == "choose" && (chosenDenies || strings.Join(keys, " ") == strings.Join(deny, " ")))
	if allows && len(pk.Risk) > 0 && !Acknowledged(p.RiskAck, pk.Risk) {
		doing := "allowing it"
		if p.Action == "text" {
			doing = "answering it with text"
		}
		if pk.NotWhole != "" { // prompt_risk.go: its top is off the screen and the history
			return nil, proto.Errorf(codeRiskUnacknowledged, "the prompt of %s is risky (%s): its top is not on the pane's screen, so what it asks may not be read whole; %s needs --risk-ack naming those rules; nothing was pressed", name, strings.Join(pk.Risk, ", "), doing).
				WithHint(proto.Hint{Param: "risk_ack", Accepted: pk.Risk, Command: "tuios peek-prompt -s " + session + " -w " + w.ID[:8],
					Detail: "open the pane or make it taller so the whole prompt shows, then read it again; naming cut short allows what nobody has read"})
		}
		return nil, proto.Errorf(codeRiskUnacknowledged, "the prompt of %s is risky (%s): %s needs --risk-ack naming those rules; nothing was pressed", name, strings.Join(pk.Risk, ", "), doing).
			WithHint(proto.Hint{Param: "risk_ack", Accepted: pk.Risk})
	}

	// Press, with the prompt marked answered so a second answer is refused.
	r.mu.Lock()
	r.answered[w.ID] = answeredMark{prompt: pk.PromptID, inFlight: true}
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		if m := r.answered[w.ID]; m.prompt == pk.PromptID && m.inFlight {
			r.answered[w.ID] = answeredMark{prompt: pk.PromptID, until: h.Clock().Now().Add(answeredGrace)}
		}
		r.mu.Unlock()
	}()
	gone := c.Context().Done() // the caller hung up
	gen := w.Pane.Output()
	var sent []string
	if p.Action == "text" {
		text := strings.NewReplacer("\x1b[200~", "", "\x1b[201~", "").Replace(p.Value)
		text = strings.TrimRight(text, "\r\n")
		var paste string
		if pk.input.BracketedPaste && pk.screen.Mode(vt.ModeBracketedPaste) {
			paste = "\x1b[200~" + text + "\x1b[201~"
		} else {
			paste = strings.Join(strings.Fields(strings.ReplaceAll(text, "\r", "\n")), " ")
		}
		if err := h.TypeKeys(c, w.ID, []byte(paste), timeout); err != nil {
			return nil, err
		}
		select { // let the pane draw the paste before it is submitted
		case <-gen:
		case <-time.After(300 * time.Millisecond):
		case <-gone:
		}
		if pk.input.FocusBeforeSubmit && pk.screen.Mode(vt.ModeFocusReporting) {
			h.FocusIn(c, w.ID)
		}
		if err := h.TypeKeys(c, w.ID, []byte(pk.input.SubmitKey()), timeout); err != nil {
			return nil, err
		}
		sent = []string{"paste", "enter"}
	} else {
		if err := h.TypeKeys(c, w.ID, keyBytes(keys, pk.input, pk.screen), timeout); err != nil {
			return nil, err
		}
		sent = keys
	}
	w.Pane.Tracked().Typed()
	pressed := time.Since(start)
	unlock()
	locked = false
	h.Log().About(w.ID, "").Infof("respond: %s %v to %s (%s) by %s", p.Action, sent, w.ID[:8], pk.PromptID, by)

	// Settle: the state moves off needs_input, the prompt leaves the
	// screen, the window goes, or the timeout passes.
	arb := h.Tracker().Arbiter()
	sub := arb.Subscribe(agentstate.SubscribeOptions{Pane: w.ID, Buffer: 16})
	defer sub.Close()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	settledBy := ""
	for settledBy == "" {
		gen = w.Pane.Output()
		if arb.Get(w.ID).State != agentstate.NeedsInput {
			settledBy = "state"
			break
		}
		if now := r.peek(w); !now.Found || now.PromptID != pk.PromptID {
			settledBy = "prompt"
			break
		}
		select {
		case <-gen:
		case <-sub.C:
		case <-time.After(100 * time.Millisecond):
		case <-deadline.C:
			settledBy = "timeout"
		case <-w.Pane.Exited():
			settledBy = "gone"
		case <-h.Done():
			settledBy = "gone"
		case <-gone:
			return nil, proto.Errorf(proto.CodeTimeout, "the caller hung up; the answer was pressed")
		}
	}
	snap := arb.Get(w.ID)
	return proto.PromptResponse{Type: "prompt_response", Session: session, Window: w.ID, Name: name, Action: p.Action,
		Sent: sent, PromptID: pk.PromptID, SettledBy: settledBy, State: snap.State.String(), Message: snap.Message,
		By: by, PressedMS: pressed.Milliseconds(), SettledMS: time.Since(start).Milliseconds()}, nil
}
