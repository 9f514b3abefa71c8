package inbox

import (
	"fmt"
	"slices"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/review"
)

// Decisions a held approval takes.
const (
	DecisionOnce   = "once"
	DecisionAlways = "always"
	DecisionDeny   = "deny"
)

// Hold is a prompt a hook holds before the harness shows it
// (request-approval): an approval, or a plan. It rides on the pane's
// blocking item, which must already be an approval.
type Hold struct {
	Pane      string // the window id
	RequestID string // the hold's id (the item's held_id)
	Kind      Kind   // KindApproval ("" means approval) or KindPlan
	// Summary is the whole request on one line ("approve Bash: go test
	// ./..."), or a plan's title and length. It must be shown as it is.
	Summary string
	// Options are the decisions offered, a subset of once, always and
	// deny; empty means once and deny.
	Options []string
	// AlwaysScope are the rules "always" adds, 1 to 4 lines; a line the
	// Inbox could not show as it is drops "always".
	AlwaysScope []string
	Expires     time.Time // when hold_seconds passes
	// Risk are the rules the request matched; nil lets the queue read
	// Summary with Options.Risk.
	Risk        []review.Hit
	DenyMessage bool // a deny may carry a reason
	PlanLines   int
	PlanSHA     string
}

// Hold puts a hook's hold on the pane's blocking item: the item becomes
// the held approval or plan, keeps its id and since, shows the held
// summary whatever the pane reports next, and cannot be snoozed; a
// snoozed approval wakes. A newer hold from the same pane replaces the
// older (its event names the older in HoldEnded). A hold on a pane whose
// approval the person dismissed or answered on this needs_input is a new
// request: it opens a new item. Refusals: a missing
// pane or id (CodeInvalidParams); a pane not on needs_input with an
// approval item (CodeNotBlocked); a summary the Inbox would cut, collapse
// or mask (CodeNotShown).
func (q *Queue) Hold(h Hold) ([]Event, error) {
	if h.Pane == "" || h.RequestID == "" {
		return nil, invalid(WhyMissing, "request_id", "name the pane and the request", "a hold needs a pane and a request id")
	}
	if h.Kind == "" {
		h.Kind = KindApproval
	}
	if h.Kind != KindApproval && h.Kind != KindPlan {
		return nil, invalid(WhyUnknownKind, "kind", "use approval or plan", fmt.Sprintf("a hold is an approval or a plan, not %q", h.Kind))
	}
	if len(h.Options) == 0 {
		h.Options = []string{DecisionOnce, DecisionDeny}
	}
	for i, o := range h.Options {
		if o != DecisionOnce && o != DecisionAlways && o != DecisionDeny || slices.Contains(h.Options[:i], o) {
			return nil, invalid(WhyBadOptions, "options", "options are once, always and deny, each at most once",
				fmt.Sprintf("the option %q is not a decision", o))
		}
	}
	if h.Summary == "" || CleanSummary(h.Summary) != h.Summary {
		return nil, refuse(CodeNotShown, WhyNotShown, "summary", "answer it in the pane",
			"the request cannot be shown whole on one line as it is")
	}
	scopeOK := len(h.AlwaysScope) <= 4
	for _, l := range h.AlwaysScope {
		scopeOK = scopeOK && l != "" && CleanSummary(l) == l
	}
	if !scopeOK || (len(h.AlwaysScope) == 0 && h.Kind == KindApproval) {
		h.Options = slices.DeleteFunc(slices.Clone(h.Options), func(o string) bool { return o == DecisionAlways })
		h.AlwaysScope = nil
	}
	h.Options = slices.Clone(h.Options)
	h.AlwaysScope = slices.Clone(h.AlwaysScope)
	h.Risk = slices.Clone(h.Risk)

	q.mu.Lock()
	defer q.mu.Unlock()
	r := q.panes[h.Pane]
	bk := BlockingKey(h.Pane)
	e := q.byKey[bk]
	// A hook's request is a new prompt even on the line of one the person
	// dismissed or answered on this needs_input: it opens a new item.
	reopen := e == nil && r != nil && r.blockDone && r.blocked == agentstate.KindApproval
	if r == nil || r.state != agentstate.NeedsInput || (e == nil && !reopen) || e != nil && (e.notice || e.Kind == KindQuestion) {
		return nil, refuse(CodeNotBlocked, WhyNotBlocked, "window", "the hook reports needs_input first",
			"the pane is not waiting on an approval")
	}
	if h.Risk == nil {
		h.Risk = q.checkLine(h.Summary, r.Worktree, r.Home)
	}
	if len(h.Risk) == 0 {
		h.Risk = nil
	}
	older := ""
	if r.hold != nil && r.hold.RequestID != h.RequestID {
		older = r.hold.RequestID
	}
	r.hold = &h
	r.blockDone = false
	var evs []Event
	q.put(&evs, bk, q.blockingItem(r), q.clock.Now())
	if older != "" && len(evs) > 0 {
		evs[len(evs)-1].HoldEnded = older
	}
	return evs, nil
}

// EndHold ends a hold without an answer (hold_seconds passed, the person
// went to the pane, the harness gave up, the hook's connection closed): a
// plan turns back into an approval and the item shows the pane's own line
// again. requestID "" ends whatever hold the pane has; a hold that is not
// there changes nothing.
func (q *Queue) EndHold(pane, requestID string) []Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	r := q.panes[pane]
	if r == nil || r.hold == nil || (requestID != "" && r.hold.RequestID != requestID) {
		return nil
	}
	ended := r.hold.RequestID
	r.hold = nil
	var evs []Event
	if q.byKey[BlockingKey(pane)] != nil {
		if r.blocked != agentstate.KindApproval {
			r.blocked = agentstate.KindApproval // it held an approval: it is one until the pane says otherwise
		}
		q.put(&evs, BlockingKey(pane), q.blockingItem(r), q.clock.Now())
		if len(evs) > 0 {
			evs[len(evs)-1].HoldEnded = ended
		}
	}
	return evs
}

// Ask is an ask-human question.
type Ask struct {
	// Pane is the asking pane; an empty ID is a question from no pane
	// (Session is still required).
	Pane      Pane
	RequestID string
	Question  string   // see ValidateAsk
	Options   []string // the answers
}

// Ask opens an ask item (summary = the question). A pane has one open
// question: asking again closes the older (superseded). Asking with the
// request id of an open question changes nothing (the caller came back
// for it). Refusals (CodeInvalidParams unless said): a missing request id
// or session, a question or answers ValidateAsk refuses, and a 17th open
// question from no pane in a session (CodeRateLimited).
func (q *Queue) Ask(a Ask) ([]Event, error) {
	if a.RequestID == "" || a.Pane.Session == "" {
		return nil, invalid(WhyMissing, "request_id", "name the session and the request", "a question needs a session and a request id")
	}
	if err := ValidateAsk(a.Question, a.Options); err != nil {
		return nil, err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	k := AskKey(a.RequestID)
	if q.byKey[k] != nil {
		return nil, nil
	}
	var same []*entry
	fromNoPane := 0
	for _, e := range q.byID {
		if e.Kind != KindAsk || e.Session != a.Pane.Session {
			continue
		}
		switch {
		case a.Pane.ID != "" && e.Window == a.Pane.ID:
			same = append(same, e)
		case e.Window == "":
			fromNoPane++
		}
	}
	if a.Pane.ID == "" && fromNoPane >= MaxAsksFromNoPane {
		return nil, refuse(CodeRateLimited, WhyTooManyAsks, "", "answer or dismiss some first",
			fmt.Sprintf("%d questions from no pane are open in %s", fromNoPane, a.Pane.Session))
	}
	var evs []Event
	q.endAll(&evs, same, ReasonSuperseded)
	it := Item{Kind: KindAsk, Session: a.Pane.Session, Window: a.Pane.ID, Workspace: a.Pane.Workspace,
		Harness: a.Pane.Harness, Name: a.Pane.Name, Summary: a.Question, Options: slices.Clone(a.Options), RequestID: a.RequestID}
	if a.Pane.ID != "" {
		if r := q.panes[a.Pane.ID]; r != nil {
			b := r.base(KindAsk)
			it.Workspace, it.Harness, it.Name = first(it.Workspace, b.Workspace), first(it.Harness, b.Harness), first(it.Name, b.Name)
		}
	}
	q.openNew(&evs, k, it, q.clock.Now())
	return evs, nil
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Answer closes an ask or a held approval or plan with the person's
// answer (answered, carrying answer and answered_by). The answer must be
// one of the item's options. A held item's hold ends with it, and the
// pane's blocking key stays closed until the pane leaves needs_input.
// Refusals (CodeInvalidParams): an unknown id, an item that takes no
// answer, an answer not among the options.
func (q *Queue) Answer(id, answer, by string) ([]Event, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.byID[id]
	if e == nil {
		return nil, q.unknown(id)
	}
	if e.Kind != KindAsk && !e.Held() {
		return nil, invalid(WhyNotAnswerable, "id", "answer it in the pane itself",
			fmt.Sprintf("item %s (%s) takes no answer from the Inbox", id, e.Kind))
	}
	if !slices.Contains(e.Options, answer) {
		return nil, invalid(WhyBadAnswer, "answer", "choose one of the item's options",
			fmt.Sprintf("%q is not one of %q", answer, e.Options))
	}
	if e.Held() {
		if r := q.panes[e.Window]; r != nil {
			r.hold = nil
			r.blockDone, r.doneRaw = r.state == agentstate.NeedsInput, r.raw
		}
	}
	e.Answer, e.AnsweredBy = answer, by
	var evs []Event
	q.end(&evs, e.key, ReasonAnswered)
	return evs, nil
}
