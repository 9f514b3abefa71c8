package attention

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/review"
)

// Held approvals (docs/inbox.md, Held approvals): a harness's permission
// hook asks the daemon to hold a prompt for the Inbox before the harness
// shows it (request-approval), and blocks on its connection until the
// person answers (reply-approval) or the hold ends without an answer.
// Whatever ends it, the hook hears one approval_result; an empty decision
// means "ask in the pane", so no failure on the way can ever approve.
//
// Locking: hd.mu guards the tables of holds and each hold's ended flag;
// it is never held across I/O, a queue call or a wait. It may be taken
// under the Inbox's lock (Saw runs inside the attention publish), so
// nothing here calls the Inbox or the core while holding it. A hook's wait holds no lock at all.
// Each hold has at most one timer (hold_seconds), stopped when it ends.

// Reasons a hold ends with (approval_result.reason), besides the Inbox's
// close reasons (resolved, dismissed, window_closed, session_closed,
// evicted), which pass through as the Inbox names them.
const (
	holdAnswered   = "answered"
	holdDisabled   = "disabled"
	holdNotBlocked = "not_blocked"
	holdNotShown   = "not_shown"
	holdViewed     = "viewed"
	holdTimeout    = "timeout"
	holdHandedBack = "handed_back"
	holdSuperseded = "superseded"
	holdCallerGone = "caller_gone"
	holdShutdown   = "shutdown"
	holdResolved   = "resolved"

	// replyChanged is reply-approval's applied:false reason when the
	// decision was made from a line (or plan) the hold no longer shows.
	replyChanged = "changed"

	maxPlanBytes  = 32 << 10
	maxDenyBytes  = 500
	maxScopeLines = 4
	// endedKept bounds the ended holds remembered, so a late second
	// reply learns the standing decision instead of "not held".
	endedKept = 256
	// DefaultDenyMessage is what the model reads when the person denies
	// without a reason.
	DefaultDenyMessage = "The user denied this from the tuios Inbox."
)

// approvalAliases are the other names [agents.approvals] enabled and the
// harness param accept for a harness id.
var approvalAliases = map[string]string{"claude": "claude-code"}

func approvalHarness(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if id, ok := approvalAliases[h]; ok {
		return id
	}
	return h
}

// heldCall is one hold.
type heldCall struct {
	id, pane, session, harness string
	kind                       inbox.Kind
	summary, tool, target      string
	plan, planSHA              string
	options, scope             []string
	risk                       []review.Hit
	denyMessage                bool
	started, expires           time.Time

	done  chan struct{} // closed once res is final
	res   approvalResult
	ended bool             // under holder.mu
	timer agentstate.Timer // under holder.mu
}

func (h *heldCall) riskNames() []string {
	out := []string{}
	for _, x := range h.risk {
		if !slices.Contains(out, x.Rule) {
			out = append(out, x.Rule)
		}
	}
	return out
}

// approvalResult is what request-approval answers.
type approvalResult struct {
	Type       string `json:"type"`
	RequestID  string `json:"request_id"`
	Decision   string `json:"decision"`
	Reason     string `json:"reason"`
	AnsweredBy string `json:"answered_by,omitempty"`
	Message    string `json:"message,omitempty"`
	// HeldMS is how long the hook was held (0 when nothing was held).
	HeldMS int64 `json:"held_ms"`
}

// holder is the daemon's table of holds.
// Holds are the held approvals (a core.Feature): request-approval,
// reply-approval and get-approval, and the hold peek-prompt and respond
// read and answer.
type Holds struct {
	h      core.Host
	inbox  Inbox
	risk   *review.Checker
	home   string
	refuse func(id string) *proto.Error

	mu         sync.Mutex
	byID       map[string]*heldCall
	byPane     map[string]*heldCall
	ended      map[string]*heldCall
	endedOrder []string
}

// HoldsOptions configure the held approvals.
type HoldsOptions struct {
	// Inbox shows the holds.
	Inbox Inbox
	// Risk checks a held request against the risk rules ([agents.
	// approvals.risk]); nil checks nothing.
	Risk *review.Checker
	// Home is the person's home directory, for the risk rules.
	Home string
	// RefuseRequest says why reply-approval may not answer request id
	// here (another machine's hold is answered on that machine); nil
	// when it may.
	RefuseRequest func(id string) *proto.Error
}

// NewHolds makes the held approvals; Init adds them to a daemon.
func NewHolds(opt HoldsOptions) *Holds {
	return &Holds{inbox: opt.Inbox, risk: opt.Risk, home: opt.Home, refuse: opt.RefuseRequest,
		byID: map[string]*heldCall{}, byPane: map[string]*heldCall{}, ended: map[string]*heldCall{}}
}

// Name is "held-approvals".
func (hd *Holds) Name() string { return "held-approvals" }

// Init adds request-approval, reply-approval and get-approval to h's
// verbs. Every hold ends (shutdown) as soon as the daemon starts to stop.
func (hd *Holds) Init(h core.Host) error {
	hd.h = h
	p, run := core.Handle(hd.requestApproval)
	h.AddVerb(core.Verb{Name: "request-approval", Class: core.Reports, Returns: "approval_result", Params: p, Run: run,
		Desc:    "Hold a pane's permission prompt for the Inbox (a harness's hook): blocks until the person answers, hold_seconds pass or the hold ends; an empty decision means ask in the pane",
		Example: `{"verb":"request-approval","params":{"window":"4f1c…","harness":"claude-code","summary":"approve Bash: make test","options":["once","deny"],"tool":"Bash","target":"make test"}}`})
	p, run = core.Handle(func(c core.Call, p *proto.ReplyApprovalParams) (any, *proto.Error) {
		if hd.refuse != nil {
			if err := hd.refuse(p.RequestID); err != nil { // a host's hold is answered there
				return nil, err
			}
		}
		return hd.replyApproval(c, p)
	})
	h.AddVerb(core.Verb{Name: "reply-approval", Class: core.Person, Returns: "approval_replied", Params: p, Run: run,
		Desc:    "Answer a held approval or plan as the person (needs a live human nonce): the first reply wins; ask hands it back to the pane",
		Example: `{"verb":"reply-approval","params":{"request_id":"9c1d2e3f4a5b6c7d","decision":"once","summary":"approve Bash: make test","human_nonce":"…"}}`})
	p, run = core.Handle(hd.getApproval)
	h.AddVerb(core.Verb{Name: "get-approval", Class: core.Reads, Returns: "approval", Params: p, Run: run,
		Desc:    "Read a held approval or plan whole: its line, tool, target, options, always scope, plan text, plan_sha and risk (untrusted)",
		Example: `{"verb":"get-approval","params":{"request_id":"9c1d2e3f4a5b6c7d"}}`})
	go func() { <-h.Done(); hd.shutdown() }()
	return nil
}

// Shutdown ends every hold that is left: the harnesses ask in their
// panes.
func (hd *Holds) Shutdown(context.Context) error {
	hd.shutdown()
	return nil
}

// finish ends h with res once; it reports whether this call ended it.
// It takes only hd.mu, so it may run under a.mu.
func (hd *Holds) finish(h *heldCall, res approvalResult) bool {
	hd.mu.Lock()
	if h.ended {
		hd.mu.Unlock()
		return false
	}
	h.ended = true
	res.Type, res.RequestID = "approval_result", h.id
	if !h.started.IsZero() {
		res.HeldMS = max(0, hd.h.Clock().Now().Sub(h.started).Milliseconds())
	}
	h.res = res
	delete(hd.byID, h.id)
	if hd.byPane[h.pane] == h {
		delete(hd.byPane, h.pane)
	}
	hd.ended[h.id] = h
	hd.endedOrder = append(hd.endedOrder, h.id)
	if len(hd.endedOrder) > endedKept {
		delete(hd.ended, hd.endedOrder[0])
		hd.endedOrder = hd.endedOrder[1:]
	}
	t := h.timer
	h.timer = nil
	hd.mu.Unlock()
	if t != nil {
		t.Stop()
	}
	close(h.done)
	return true
}

// endUnanswered ends a hold without a decision for a reason the Inbox
// cannot see (timeout, viewed, handed back, caller gone): the item stays
// as an unheld approval showing the pane's own line. Never call it under
// a.mu.
func (hd *Holds) endUnanswered(h *heldCall, reason string) {
	if hd.finish(h, approvalResult{Reason: reason}) {
		hd.endHold(h.pane, h.id)
	}
}

// endHold turns the pane's held item back into the pane's own prompt.
func (hd *Holds) endHold(pane, id string) {
	hd.inbox.Do(func(q *inbox.Queue) ([]inbox.Event, error) { return q.EndHold(pane, id), nil })
}

// Saw follows the Inbox: a held item that closed, or a hold the queue
// ended (the block turned into a question), ends the hook's wait. Called
// under the Inbox's lock for every published event.
func (hd *Holds) Saw(e inbox.Event) {
	if hd == nil {
		return
	}
	if e.HoldEnded != "" {
		hd.mu.Lock()
		h := hd.byID[e.HoldEnded]
		hd.mu.Unlock()
		if h != nil {
			hd.finish(h, approvalResult{Reason: holdResolved})
		}
	}
	if e.Op == inbox.OpClose && e.Item.HeldID != "" {
		hd.mu.Lock()
		h := hd.byID[e.Item.HeldID]
		hd.mu.Unlock()
		if h == nil {
			return
		}
		res := approvalResult{Reason: string(e.Item.Closed)}
		if e.Item.Closed == inbox.ReasonAnswered {
			res.Decision, res.AnsweredBy = e.Item.Answer, e.Item.AnsweredBy
		}
		hd.finish(h, res)
	}
}

// Viewed ends the pane's hold: an attached client shows it focused, so
// the person answers in the pane. Called without the core's lock and the
// Inbox's.
func (hd *Holds) Viewed(pane string) {
	if hd == nil {
		return
	}
	hd.mu.Lock()
	h := hd.byPane[pane]
	hd.mu.Unlock()
	if h != nil {
		hd.endUnanswered(h, holdViewed)
	}
}

// shutdown ends every hold: the daemon stops, the harnesses ask in their
// panes.
func (hd *Holds) shutdown() {
	hd.mu.Lock()
	all := make([]*heldCall, 0, len(hd.byID))
	for _, h := range hd.byID {
		all = append(all, h)
	}
	hd.mu.Unlock()
	for _, h := range all {
		hd.finish(h, approvalResult{Reason: holdShutdown})
	}
}

// Timers counts the holds' armed timers, live and ended (tests: an
// ended hold leaves none).
func (hd *Holds) Timers() int {
	hd.mu.Lock()
	defer hd.mu.Unlock()
	n := 0
	for _, h := range hd.byID {
		if h.timer != nil {
			n++
		}
	}
	for _, h := range hd.ended {
		if h.timer != nil {
			n++
		}
	}
	return n
}

// lookup finds a hold by request id (live, else recently ended) or by its
// pane (live only).
func (hd *Holds) lookup(id, pane string) (h *heldCall, live bool) {
	hd.mu.Lock()
	defer hd.mu.Unlock()
	if id != "" {
		if h := hd.byID[id]; h != nil {
			return h, true
		}
		return hd.ended[id], false
	}
	h = hd.byPane[pane]
	return h, h != nil
}

// shownWhole is the daemon's own check that a held line is one the Inbox
// shows whole, so nobody allows a call they could not read (the hook's
// word for it is not trusted): valid UTF-8, at most 160 bytes, no control
// or format characters (bidi controls, zero-width characters, tabs,
// newlines), no doubled or edge space, and nothing the Inbox would mask as
// a secret.
func shownWhole(s string) bool {
	if s == "" || len(s) > inbox.MaxSummaryBytes || !utf8.ValidString(s) {
		return false
	}
	if strings.Contains(s, "  ") || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError ||
			unicode.In(r, unicode.Zl, unicode.Zp) || (unicode.IsSpace(r) && r != ' ') {
			return false
		}
	}
	return inbox.CleanSummary(s) == s
}

// oneLine is a deny reason the harness can pass on: one line of at most
// 500 bytes of valid UTF-8 with no control or format characters (the
// person typed it; it is not shown as a held line, so 160 bytes is not
// its bound).
func oneLine(s string) bool {
	if len(s) > 500 || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.In(r, unicode.Zl, unicode.Zp) {
			return false
		}
	}
	return true
}

func newRequestID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ---- params ----

type requestApprovalParams struct {
	Session     string   `json:"session" desc:"the session"`
	Window      string   `json:"window" req:"true" desc:"the pane whose prompt to hold: the caller's own"`
	Harness     string   `json:"harness" req:"true" desc:"the harness asking (claude-code, opencode, kilo, qwen; claude is claude-code)" maxlen:"64"`
	Options     []string `json:"options" desc:"the decisions offered (default once and deny)" maxlen:"3"`
	Summary     string   `json:"summary" req:"true" desc:"the whole request on one line, e.g. approve Bash: make test (at most 160 bytes, else not_shown)" maxlen:"4096"`
	AlwaysScope []string `json:"always_scope" desc:"the rules always adds, 1-4 lines the Inbox shows (else always is dropped)" maxlen:"16"`
	Kind        string   `json:"kind" desc:"what is held" accepted:"approval,plan" default:"approval"`
	Plan        string   `json:"plan" desc:"kind plan: the plan's text (at most 32 KiB UTF-8)" maxlen:"32768"`
	Tool        string   `json:"tool" desc:"the tool asked for, for the risk rules" maxlen:"128"`
	Target      string   `json:"target" desc:"what the tool acts on (its command, path or URL), for the risk rules" maxlen:"16384"`
	DenyMessage bool     `json:"deny_message" desc:"a deny may carry a reason the model reads"`
}

// ---- verbs ----

func (hd *Holds) requestApproval(c core.Call, p *requestApprovalParams) (any, *proto.Error) {
	now := func(reason string) (any, *proto.Error) {
		return approvalResult{Type: "approval_result", Reason: reason}, nil
	}
	kind := inbox.KindApproval
	if p.Kind == "plan" {
		kind = inbox.KindPlan
		if p.Plan == "" || !utf8.ValidString(p.Plan) {
			return nil, proto.Errorf(proto.CodeInvalidParams, "a plan hold needs plan: its text, UTF-8, at most 32 KiB").WithHint(proto.Hint{Param: "plan"})
		}
	}
	for i, o := range p.Options {
		if o != inbox.DecisionOnce && o != inbox.DecisionAlways && o != inbox.DecisionDeny || slices.Contains(p.Options[:i], o) {
			return nil, proto.Errorf(proto.CodeInvalidParams, "options are once, always and deny, each at most once").
				WithHint(proto.Hint{Param: "options", Accepted: []string{"once", "always", "deny"}})
		}
	}
	harness := approvalHarness(p.Harness)
	opts := hd.h.Options()
	cfg := opts.Config
	enabled := false
	for _, e := range cfg.Agents.Approvals.Enabled {
		enabled = enabled || approvalHarness(e) == harness
	}
	if opts.AgentsOff {
		return now(holdDisabled)
	}
	w, perr := hd.h.Window(c, p.Session, p.Window)
	if perr != nil {
		return nil, perr
	}
	root, protocol := w.Dir, ""
	if dir, prot, ok := hd.h.StartedIn(w.ID); ok {
		if root == "" {
			root = dir
		}
		protocol = prot
	}
	if placed := hd.h.CallerPlaced(c); placed != "" && placed != w.ID {
		return nil, proto.Errorf(proto.CodeForbidden, "a pane may hold only its own prompt").
			WithHint(proto.Hint{Param: "window", Detail: "run the hook in the pane whose agent asks"})
	}
	// A pane start-agent --protocol opened holds without config (choosing
	// the protocol is the opt-in), approvals only, and offers only once
	// and deny: the protocols have no "always" the Inbox could show whole.
	if protocol != "" {
		enabled = kind == inbox.KindApproval
		p.Options = slices.DeleteFunc(slices.Clone(p.Options), func(o string) bool { return o == inbox.DecisionAlways })
		if len(p.Options) == 0 {
			p.Options = []string{inbox.DecisionOnce, inbox.DecisionDeny}
		}
		p.AlwaysScope = nil
	}
	if !enabled || (kind == inbox.KindPlan && cfg.Agents.Approvals.HoldPlans != nil && !*cfg.Agents.Approvals.HoldPlans) {
		return now(holdDisabled)
	}
	if !shownWhole(p.Summary) {
		return now(holdNotShown)
	}
	h := &heldCall{id: newRequestID(), pane: w.ID, session: w.Session, harness: harness, kind: kind, summary: p.Summary,
		tool: p.Tool, target: p.Target, plan: p.Plan, options: slices.Clone(p.Options), denyMessage: p.DenyMessage,
		done: make(chan struct{})}
	if len(h.options) == 0 {
		h.options = []string{inbox.DecisionOnce, inbox.DecisionDeny}
	}
	scopeOK := len(p.AlwaysScope) >= 1 && len(p.AlwaysScope) <= maxScopeLines
	for _, l := range p.AlwaysScope {
		scopeOK = scopeOK && shownWhole(l)
	}
	if scopeOK {
		h.scope = slices.Clone(p.AlwaysScope)
	} else {
		h.options = slices.DeleteFunc(h.options, func(o string) bool { return o == inbox.DecisionAlways })
	}
	if kind == inbox.KindPlan {
		sum := sha256.Sum256([]byte(p.Plan))
		h.planSHA = hex.EncodeToString(sum[:])
	} else if hd.risk != nil {
		req := review.Request{Tool: p.Tool, Command: p.Target}
		if p.Target == "" {
			req, _ = review.RequestFromLine(p.Summary)
		}
		req.Worktree, req.Home = root, hd.home
		h.risk = hd.risk.Check(req)
		for i := range h.risk {
			h.risk[i].Text = inbox.CleanSummary(h.risk[i].Text)
		}
	}

	// A newer request from the pane replaces the older: its hook hears
	// superseded, and the new hold takes over the item.
	hd.mu.Lock()
	older := hd.byPane[w.ID]
	hd.mu.Unlock()
	if older != nil {
		hd.finish(older, approvalResult{Reason: holdSuperseded})
	}
	// The person looks at the pane: they answer it there.
	if hd.h.InFront(w.ID) {
		if older != nil {
			hd.endHold(w.ID, older.id)
		}
		return now(holdViewed)
	}
	// The hook reported needs_input just before; the Inbox hears of it
	// through the arbiter's stream, so feed the pane now.
	hd.inbox.Update(w.ID)

	clock := hd.h.Clock()
	h.started = clock.Now()
	hold := cfg.HoldFor()
	h.expires = h.started.Add(hold)
	hd.mu.Lock()
	hd.byID[h.id], hd.byPane[w.ID] = h, h
	hd.mu.Unlock()
	err := hd.inbox.Do(func(q *inbox.Queue) ([]inbox.Event, error) {
		return q.Hold(inbox.Hold{Pane: w.ID, RequestID: h.id, Kind: kind, Summary: h.summary, Options: h.options,
			AlwaysScope: h.scope, Expires: h.expires, Risk: h.risk, DenyMessage: h.denyMessage,
			PlanLines: planLines(h.plan), PlanSHA: h.planSHA})
	})
	if err != nil {
		var ie *inbox.Error
		reason := ""
		if errors.As(err, &ie) {
			switch ie.Code() {
			case inbox.CodeNotBlocked:
				reason = holdNotBlocked
			case inbox.CodeNotShown:
				reason = holdNotShown
			}
		}
		hd.finish(h, approvalResult{Reason: reason})
		if older != nil {
			hd.endHold(w.ID, older.id)
		}
		if reason == "" {
			return nil, InboxError(err)
		}
		// The id was minted: the hook's explain line and get-approval
		// name the request that was not held.
		<-h.done
		return h.res, nil
	}
	hd.mu.Lock()
	if !h.ended {
		// The clock may run f on this goroutine: f only starts one.
		h.timer = clock.AfterFunc(hold, func() { go hd.endUnanswered(h, holdTimeout) })
	}
	hd.mu.Unlock()
	hd.h.Log().About(w.ID, "").Infof("request-approval: holding %s on %s (%s) for %s", h.id, w.ID[:8], harness, hold)

	select {
	case <-h.done:
	case <-c.Context().Done():
		select {
		case <-hd.h.Done():
			hd.finish(h, approvalResult{Reason: holdShutdown})
		default:
			hd.endUnanswered(h, holdCallerGone)
		}
	case <-hd.h.Done():
		hd.finish(h, approvalResult{Reason: holdShutdown})
	}
	<-h.done
	return h.res, nil
}

func planLines(plan string) int {
	if plan == "" {
		return 0
	}
	return strings.Count(strings.TrimRight(plan, "\n"), "\n") + 1
}

// replied is reply-approval's result.
type replied struct {
	Type       string `json:"type"`
	RequestID  string `json:"request_id"`
	Decision   string `json:"decision"`
	Applied    bool   `json:"applied"`
	Reason     string `json:"reason,omitempty"`
	AnsweredBy string `json:"answered_by,omitempty"`
	Session    string `json:"session"`
	Window     string `json:"window"`
	PlanSHA    string `json:"plan_sha,omitempty"`
}

func (hd *Holds) replyApproval(c core.Call, p *proto.ReplyApprovalParams) (any, *proto.Error) {
	if hd.h.Options().AgentsOff {
		return nil, core.AgentsDisabled("reply-approval")
	}
	if !hd.h.IsPerson(c, p.HumanNonce) {
		return nil, proto.Errorf(codeRespondNotHuman, "reply-approval acts as the person: it needs a live human nonce from an attached client, outside every pane").
			WithHint(proto.Hint{Param: "human_nonce", Detail: "answer from the Inbox of an attached client"})
	}
	if p.Message != "" && (!oneLine(p.Message) || p.Decision != inbox.DecisionDeny) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "message goes only with deny, on one line of at most 500 bytes").WithHint(proto.Hint{Param: "message"})
	}
	pane := ""
	if p.RequestID == "" {
		if p.Window == "" {
			return nil, proto.Errorf(proto.CodeInvalidParams, "name the hold: request_id, or session and window").WithHint(proto.Hint{Param: "request_id"})
		}
		w, perr := hd.h.Window(c, p.Session, p.Window)
		if perr != nil {
			return nil, perr
		}
		pane = w.ID
	}
	h, live := hd.lookup(p.RequestID, pane)
	if h == nil {
		return nil, proto.Errorf(proto.CodeInvalidParams, "no prompt is held there").
			WithHint(proto.Hint{Param: "request_id", Command: "tuios list-attention --kind approval --kind plan", Detail: "answer it in the pane (peek-prompt, respond)"})
	}
	out := replied{Type: "approval_replied", RequestID: h.id, Session: h.session, Window: h.pane}
	standing := func() (any, *proto.Error) {
		<-h.done
		out.Decision, out.Reason, out.AnsweredBy = h.res.Decision, h.res.Reason, h.res.AnsweredBy
		return out, nil
	}
	if !live {
		return standing()
	}
	if p.Decision != "ask" && !slices.Contains(h.options, p.Decision) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s is not offered for this hold", p.Decision).
			WithHint(proto.Hint{Param: "decision", Available: append(slices.Clone(h.options), "ask")})
	}
	allows := p.Decision == inbox.DecisionOnce || p.Decision == inbox.DecisionAlways
	if p.Summary != "" && p.Summary != h.summary || allows && h.kind == inbox.KindPlan && p.PlanSHA != h.planSHA {
		// The decision was made from what the hold no longer shows.
		out.Reason, out.PlanSHA = replyChanged, h.planSHA
		return out, nil
	}
	if names := h.riskNames(); allows && len(names) > 0 && !Acknowledged(p.RiskAck, names) {
		return nil, proto.Errorf(codeRiskUnacknowledged, "the held request is risky (%s): allowing it needs risk_ack naming those rules", strings.Join(names, ", ")).
			WithHint(proto.Hint{Param: "risk_ack", Accepted: names})
	}
	if p.Decision == "ask" {
		if !hd.finish(h, approvalResult{Reason: holdHandedBack}) {
			return standing()
		}
		hd.endHold(h.pane, h.id)
		out.Decision, out.Applied, out.Reason = "ask", true, holdHandedBack
		return out, nil
	}
	msg := ""
	if p.Decision == inbox.DecisionDeny {
		msg = p.Message
		if msg == "" {
			msg = DefaultDenyMessage
		}
	}
	const by = "human"
	if !hd.answerHold(h, p.Decision, msg, by) { // held_respond.go
		return standing() // another reply, or an end, came first
	}
	hd.h.Log().About(h.pane, "").Infof("reply-approval: %s %s on %s", p.Decision, h.id, h.pane[:min(8, len(h.pane))])
	out.Decision, out.Applied, out.Reason, out.AnsweredBy = p.Decision, true, holdAnswered, by
	return out, nil
}

func (hd *Holds) getApproval(c core.Call, p *proto.GetApprovalParams) (any, *proto.Error) {
	if hd.h.Options().AgentsOff {
		return nil, core.AgentsDisabled("get-approval")
	}
	h, live := hd.lookup(p.RequestID, "")
	if h != nil && hd.h.InReach(c, h.session) != nil { // as missing to a caller out of reach
		h = nil
	}
	if h == nil || (p.Session != "" && p.Session != h.session) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "no hold has the request id %q", p.RequestID).
			WithHint(proto.Hint{Param: "request_id", Command: "tuios list-attention --kind approval --kind plan"})
	}
	risk := h.risk
	if risk == nil {
		risk = []review.Hit{}
	}
	res := map[string]any{"type": "approval", "request_id": h.id, "session": h.session, "window": h.pane,
		"harness": h.harness, "kind": h.kind, "summary": h.summary, "tool": h.tool, "target": h.target,
		"options": h.options, "always_scope": h.scope, "plan": h.plan, "plan_sha": h.planSHA, "risk": risk,
		"deny_message": h.denyMessage, "expires": h.expires.UnixNano(), "held": live, "untrusted": true}
	if !live {
		<-h.done
		res["ended"] = h.res.Reason
	}
	return res, nil
}
