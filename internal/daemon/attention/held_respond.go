package attention

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// Error codes of respond's answer to a hold, as respond's own.
const (
	codePromptChanged      = "prompt_changed"
	codeRiskUnacknowledged = "risk_unacknowledged"
	codeRespondNotHuman    = core.CodeNotHuman
)

// A held approval shows nothing in its pane (the harness waits on its
// hook), so no screen rule reads it: peek-prompt and respond read and
// answer the hold instead, with the Inbox's numbering (1 allow once,
// 2 always allow, 3 deny) and the same rules as reply-approval (first
// answer wins, a risky allow names its rules, a plan is approved only
// where it is shown whole).

// answerHold ends h with the person's decision: the hook hears it, the
// Inbox item closes answered and the pane works again at once (the
// harness's next hook says the same a moment later). It reports false
// when another answer, or an end, came first.
func (hd *Holds) answerHold(h *heldCall, decision, msg, by string) bool {
	if !hd.finish(h, approvalResult{Decision: decision, Reason: holdAnswered, AnsweredBy: by, Message: msg}) {
		return false
	}
	hd.inbox.Do(func(q *inbox.Queue) ([]inbox.Event, error) {
		it, ok := q.Find(inbox.BlockingKey(h.pane))
		if !ok || it.HeldID != h.id {
			return nil, nil
		}
		evs, _ := q.Answer(it.ID, decision, by)
		return evs, nil
	})
	if w := hd.h.Pane(h.pane); w != nil {
		w.Tracked().Report(agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport, Harness: h.harness,
			IfState: agentstate.SetOf(agentstate.NeedsInput)}, "")
	}
	return true
}

// heldChoice is the Inbox's digit for each decision.
var heldChoice = map[string]int{inbox.DecisionOnce: 1, inbox.DecisionAlways: 2, inbox.DecisionDeny: 3}

// heldLabel is what a decision does, as the Inbox's keys say it.
func heldLabel(kind inbox.Kind, decision string) string {
	if kind == inbox.KindPlan {
		return map[string]string{inbox.DecisionOnce: "Approve", inbox.DecisionAlways: "Approve and accept edits",
			inbox.DecisionDeny: "Keep planning"}[decision]
	}
	return map[string]string{inbox.DecisionOnce: "Allow once", inbox.DecisionAlways: "Always allow",
		inbox.DecisionDeny: "Deny"}[decision]
}

// heldActions are the respond actions a hold takes.
func heldActions(h *heldCall) []string {
	out := []string{}
	for _, d := range h.options {
		switch d {
		case inbox.DecisionOnce:
			out = append(out, "approve")
		case inbox.DecisionAlways:
			out = append(out, "approve_always")
		case inbox.DecisionDeny:
			out = append(out, "deny")
		}
	}
	return append(out, "choose")
}

// heldView is peek-prompt's "held" object: the hold as the Inbox shows
// it. Its text came from the agent: data.
type heldView struct {
	RequestID   string   `json:"request_id"`
	Kind        string   `json:"kind"`
	Summary     string   `json:"summary"`
	Options     []string `json:"options"`
	AlwaysScope []string `json:"always_scope,omitempty"`
	PlanLines   int      `json:"plan_lines,omitempty"`
	ExpiresMS   int64    `json:"expires_in_ms"`
}

// heldPeekResult is peek-prompt's result for a pane whose prompt the
// Inbox holds: the usual fields, filled from the hold, and the hold.
type heldPeekResult struct {
	proto.PromptPeek
	Held *heldView `json:"held,omitempty"`
}

// peekHeld is peek-prompt's result while the Inbox holds the pane's prompt
// (the screen shows nothing to read then): pk, the screen's reading,
// filled from the hold, and the hold. false when nothing is held there.
func (hd *Holds) peekHeld(pk proto.PromptPeek) (any, bool) {
	h, live := hd.lookup("", pk.Window)
	if !live {
		return nil, false
	}
	out := heldPeekResult{PromptPeek: pk}
	p := &out.PromptPeek
	p.Blocked, p.Found, p.Answerable = true, true, true
	p.Source, p.Rule, p.Kind = "hold", -1, string(h.kind)
	p.Message, p.PromptID, p.Lines = h.summary, h.id, []string{h.summary}
	p.Options = []proto.PromptOption{}
	for _, d := range h.options {
		p.Options = append(p.Options, proto.PromptOption{N: heldChoice[d], Label: heldLabel(h.kind, d), Deny: d == inbox.DecisionDeny})
	}
	p.Actions = heldActions(h)
	p.Risk = nil
	if names := h.riskNames(); len(names) > 0 {
		p.Risk = names
	}
	p.Reason = "held in the Inbox: answer it there (the prefix key then i), or with tuios respond"
	out.Held = &heldView{RequestID: h.id, Kind: string(h.kind), Summary: h.summary, Options: slices.Clone(h.options),
		AlwaysScope: slices.Clone(h.scope), PlanLines: planLines(h.plan), ExpiresMS: max(0, h.expires.Sub(hd.h.Clock().Now()).Milliseconds())}
	return out, true
}

// heldAnswer is respond's answer to a held prompt.
type heldAnswer struct {
	PromptID string   // the prompt peek-prompt read ("" any)
	Action   string   // approve, approve_always, deny, choose
	Value    string   // choose: the option's digit
	RiskAck  []string // a risky allow's rules
}

// respondHeld answers the pane's held prompt for respond, when the Inbox
// holds one; held is false when it does not (respond then reads the
// screen). by is who respond let in: the person's client, a shell with
// respond_from_shell, or a linked machine with the respond capability;
// window is the pane (a full id) in session, name its name.
func (hd *Holds) respondHeld(p heldAnswer, by, session, window, name string) (res any, err *proto.Error, held bool) {
	h, live := hd.lookup("", window)
	if !live {
		return nil, nil, false
	}
	changed := func(why string) *proto.Error {
		return proto.Errorf(codePromptChanged, "the held prompt of %s is not the one to answer (%s); nothing was answered", name, why).
			WithHint(proto.Hint{Command: "tuios peek-prompt -s " + session + " -w " + window[:8], Detail: "read it again"})
	}
	if p.PromptID != "" && p.PromptID != h.id {
		return nil, changed("the Inbox holds request " + h.id + " now"), true
	}
	decision := ""
	switch p.Action {
	case "approve":
		decision = inbox.DecisionOnce
	case "approve_always":
		decision = inbox.DecisionAlways
	case "deny":
		decision = inbox.DecisionDeny
	case "choose":
		n, _ := strconv.Atoi(p.Value)
		for d, k := range heldChoice {
			if k == n {
				decision = d
			}
		}
	}
	if decision == "" || !slices.Contains(h.options, decision) {
		var offered []string
		for _, d := range h.options {
			offered = append(offered, strconv.Itoa(heldChoice[d])+" "+strings.ToLower(heldLabel(h.kind, d)))
		}
		what := p.Action
		if p.Action == "choose" {
			what = "option " + p.Value
		}
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s is not offered by the held prompt of %s; it offers %s", what, name, strings.Join(offered, ", ")).
			WithHint(proto.Hint{Param: "action", Available: heldActions(h)}), true
	}
	allows := decision != inbox.DecisionDeny
	if allows && h.kind == inbox.KindPlan {
		return nil, proto.Errorf(proto.CodeInvalidParams, "a held plan is approved in the Inbox, where it is shown whole; respond can only keep it planning (deny)").
			WithHint(proto.Hint{Param: "action", Available: []string{"deny", "choose"}, Detail: "open the Inbox with the prefix key then i"}), true
	}
	if names := h.riskNames(); allows && len(names) > 0 && !Acknowledged(p.RiskAck, names) {
		return nil, proto.Errorf(codeRiskUnacknowledged, "the held prompt of %s is risky (%s): allowing it needs --risk-ack naming those rules; nothing was answered", name, strings.Join(names, ", ")).
			WithHint(proto.Hint{Param: "risk_ack", Accepted: names}), true
	}
	msg := ""
	if decision == inbox.DecisionDeny {
		msg = DefaultDenyMessage
	}
	answeredBy := "human"
	if strings.HasPrefix(by, "link:") || strings.HasPrefix(by, "pane:") { // not the person: says who
		answeredBy = by
	}
	start := time.Now()
	if !hd.answerHold(h, decision, msg, answeredBy) {
		<-h.done
		why := "its hold ended: " + h.res.Reason
		if h.res.Decision != "" {
			why = "it was already answered: " + h.res.Decision
		}
		return nil, changed(why), true
	}
	hd.h.Log().About(window, "").Infof("respond: %s the hold %s on %s by %s", decision, h.id, window[:8], by)
	snap := hd.h.Tracker().Arbiter().Get(window)
	return &proto.HeldPromptResponse{Type: "prompt_response", Session: session, Window: window, Name: name, Action: p.Action,
		Sent: []string{}, PromptID: h.id, SettledBy: "state", State: snap.State.String(), Message: snap.Message,
		By: by, HeldID: h.id, Decision: decision, SettledMS: time.Since(start).Milliseconds()}, nil, true
}

// Acknowledged says whether the risk rules a caller acknowledged (a,
// spaces trimmed; --risk-ack) are exactly the rules b that matched, in
// any order: respond's check and the held approvals' alike.
func Acknowledged(a, b []string) bool {
	x := map[string]bool{}
	for _, s := range a {
		x[strings.TrimSpace(s)] = true
	}
	y := map[string]bool{}
	for _, s := range b {
		y[s] = true
	}
	if len(x) != len(y) {
		return false
	}
	for k := range y {
		if !x[k] {
			return false
		}
	}
	return true
}
