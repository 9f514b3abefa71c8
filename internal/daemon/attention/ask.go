package attention

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// ask-human and answer-ask (docs/inbox.md, Ask the person): an agent or a
// script asks the person a question with fixed answers; it waits in the
// Inbox as an ask item; the person answers it from an attached client
// (answer-ask with the human nonce); the asker gets the answer, or how the
// question ended.
//
// The Inbox (inbox.Queue) owns the item; this file owns the waits. Every
// way an ask item closes (answered, dismissed, superseded, its pane or
// session closed, evicted) reaches the asker through one follower of the
// attention events, so a close made anywhere in the daemon (dismiss-attention,
// a window closing) ends the wait without that code knowing about asks.
// answer-ask ends its question at once as well, so a second answer racing
// the first already sees the standing answer.
//
// Locking: as.mu guards the records and is never held while taking a.mu
// (the Inbox lock) or s.mu; it may be taken under a.mu (answer-ask ends the
// question inside the queue call). No lock is held across a wait: a waiter
// sleeps on the record's done channel, its one timeout, its connection and
// the daemon's stop.
//
// Questions do not survive a restart: the Inbox file keeps no ask items
// (inbox.Marshal drops them) and the records here live in memory only.

const (
	askDefaultTimeout = 120 * time.Second
	// askEndedKeep bounds the final statuses kept for a caller that comes
	// back with --request-id after its question ended.
	askEndedKeep = 256
	// askFollowBuffer is the follower's event queue; a burst past it is
	// a gap, reconciled from the Inbox's replay log.
	askFollowBuffer = 1024
	// askAnsweredBy is answered_by on an answer given through answer-ask:
	// the person, proven by an attached client's nonce.
	askAnsweredBy = "human"
)

// Statuses of human_answer besides the Inbox's close reasons.
const (
	askPending  = "pending"
	askShutdown = "shutdown"
)

type askHumanParams struct {
	Session   string   `json:"session" desc:"the session (default: your own pane's, else the most recently active)" maxlen:"4096"`
	Window    string   `json:"window" desc:"the asking pane: a caller inside a pane is that pane (naming another is forbidden); a caller outside panes may name any pane, or none" maxlen:"4096"`
	Question  string   `json:"question" desc:"one printable line of at most 160 bytes, shown exactly as written (required unless request_id names a question already asked)" maxlen:"4096"`
	Options   []string `json:"options" desc:"the answers the person picks from: 1 to 9, each one printable line of at most 60 bytes, no repeats" maxlen:"64"`
	Timeout   int      `json:"timeout" desc:"ms to wait for the answer; then status pending, the question stays and a later answer is mailed to the asking pane" min:"1" max:"3600000" default:"120000"`
	Wait      *bool    `json:"wait" desc:"wait for the answer; false answers pending at once" default:"true"`
	RequestID string   `json:"request_id" desc:"the question's id: names a new question, or comes back for one asked before (waits on it again, or gives how it ended)" maxlen:"64"`
}

// humanAnswer is ask-human's result.
type humanAnswer struct {
	Type          string   `json:"type"`
	RequestID     string   `json:"request_id"`
	Status        string   `json:"status"`
	Answer        string   `json:"answer"`
	AnswerIndex   int      `json:"answer_index"` // 1 for the first option (the digit the Inbox takes); 0 without an answer
	AnsweredBy    string   `json:"answered_by"`
	VerifiedHuman bool     `json:"verified_human"`
	Session       string   `json:"session"`
	Window        string   `json:"window"` // "" for a question from no pane
	Name          string   `json:"name,omitempty"`
	Question      string   `json:"question"`
	Options       []string `json:"options"`
	WaitedMS      int64    `json:"waited_ms"`
}

// askAnswered is answer-ask's result.
type askAnswered struct {
	Type      string `json:"type"`
	RequestID string `json:"request_id"`
	Applied   bool   `json:"applied"`
	Reason    string `json:"reason,omitempty"` // why not applied: changed, answered, or how the question ended
	Answer    string `json:"answer"`           // the standing answer
}

// askRec is one question, open or ended.
type askRec struct {
	id       string
	session  string
	pane     string // "" for a question from no pane
	name     string
	question string
	options  []string

	opened bool          // the Inbox holds its item (reconcile looks only at these)
	done   chan struct{} // closed when it ends

	// Set when it ends.
	status     string
	answer     string
	answeredBy string

	waiters   int  // ask-human calls waiting on it now
	delivered bool // a waiter with a live caller took the answer
	mailed    bool // the answer went to the pane as mail
}

// Asks is the daemon's ask-human state (a core.Feature).
type Asks struct {
	h      core.Host
	inbox  Inbox
	refuse func(id string) *proto.Error
	// sub is the follower's subscription, followed closed when it ended.
	sub      core.Subscription
	followed chan struct{}

	mu         sync.Mutex
	open       map[string]*askRec
	ended      map[string]*askRec
	endedOrder []string // oldest first, for the bound
}

// lateAnswer is an answer to mail to the asking pane.
type lateAnswer struct {
	session, pane, name, question, answer string
}

// AskOptions configure ask-human and answer-ask.
type AskOptions struct {
	// Inbox holds the ask items.
	Inbox Inbox
	// RefuseRequest says why answer-ask may not answer request id here
	// (another machine's ask is answered on that machine); nil when it
	// may.
	RefuseRequest func(id string) *proto.Error
}

// NewAsks makes the ask-human state; Init adds it to a daemon.
func NewAsks(opt AskOptions) *Asks {
	return &Asks{inbox: opt.Inbox, refuse: opt.RefuseRequest, open: map[string]*askRec{}, ended: map[string]*askRec{}}
}

// Name is "ask-human".
func (as *Asks) Name() string { return "ask-human" }

// Init adds ask-human and answer-ask to h's verbs and starts the
// follower of the ask items.
func (as *Asks) Init(h core.Host) error {
	as.h = h
	p, run := core.Handle(as.ask)
	h.AddVerb(core.Verb{Name: "ask-human", Class: core.ReportsLocal, Returns: "human_answer", Params: p, Run: run,
		Desc:    "Ask the person a question with fixed answers: it waits in the Inbox under Questions; the result says the answer, or pending (a later answer is mailed to the asking pane), or how the question ended",
		Example: `{"verb":"ask-human","params":{"question":"Deploy the branch to staging?","options":["yes","no","later"],"timeout":120000}}`})
	p, run = core.Handle(func(c core.Call, p *proto.AnswerAskParams) (any, *proto.Error) {
		if as.refuse != nil {
			if err := as.refuse(p.RequestID); err != nil { // a host's ask is answered there
				return nil, err
			}
		}
		return as.answerAsk(c, p)
	})
	h.AddVerb(core.Verb{Name: "answer-ask", Class: core.Person, Returns: "ask_answered", Params: p, Run: run,
		Desc:    "Answer an ask-human question as the person (an attached client's nonce; never from inside a pane): the first answer wins, a later one is not applied and gets the standing answer",
		Example: `{"verb":"answer-ask","params":{"request_id":"ask-3f9a0c2e","answer":"yes","human_nonce":"…","question":"Deploy the branch to staging?"}}`})
	as.follow()
	return nil
}

// Shutdown ends the follower's subscription and waits for it.
func (as *Asks) Shutdown(ctx context.Context) error {
	if as.sub == nil {
		return nil
	}
	as.sub.Close()
	select {
	case <-as.followed:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// follow starts the one goroutine that hears every ask item close. It
// ends when its subscription does (Shutdown, or the hub closing as the
// daemon stops).
func (as *Asks) follow() {
	sub := as.h.Subscribe(core.Filter{Types: map[string]bool{"attention": true}}, askFollowBuffer)
	as.sub, as.followed = sub, make(chan struct{})
	go func() {
		defer close(as.followed)
		var lost uint64
		for ev := range sub.C() {
			if ev.Item != nil && ev.Op == string(inbox.OpClose) && ev.Item.Kind == inbox.KindAsk {
				if late := as.closed(*ev.Item); late != nil {
					as.mailAnswer(*late)
				}
			}
			if n := sub.Lost(); n != lost {
				lost = n
				as.reconcile()
			}
		}
	}()
}

// reconcile finds the open questions whose item left the Inbox while the
// follower was behind: their close is read from the Inbox's replay log.
func (as *Asks) reconcile() {
	as.mu.Lock()
	var ids []string
	for id, r := range as.open {
		if r.opened {
			ids = append(ids, id)
		}
	}
	as.mu.Unlock()
	for _, id := range ids {
		if _, ok := as.inbox.Find(inbox.AskKey(id)); ok {
			continue
		}
		it := inbox.Item{Kind: inbox.KindAsk, RequestID: id, Closed: inbox.ReasonEvicted} // no trace left: it overflowed
		if ev, ok := as.inbox.Replayed(func(ev core.Event) bool {
			return ev.Item != nil && ev.Op == string(inbox.OpClose) && ev.Item.Kind == inbox.KindAsk && ev.Item.RequestID == id
		}); ok {
			it = *ev.Item
		}
		if late := as.closed(it); late != nil {
			as.mailAnswer(*late)
		}
	}
}

// closed ends the question an ask item was, from its close. It returns
// the answer to mail when nobody waits to take it. A close for a question
// already ended (answer-ask ended it first) changes nothing.
func (as *Asks) closed(it inbox.Item) *lateAnswer {
	as.mu.Lock()
	defer as.mu.Unlock()
	r := as.open[it.RequestID]
	if r == nil {
		return nil
	}
	status := string(it.Closed)
	switch it.Closed {
	case inbox.ReasonAnswered, inbox.ReasonDismissed, inbox.ReasonSuperseded, inbox.ReasonWindowClosed,
		inbox.ReasonSessionClosed, inbox.ReasonEvicted:
	default:
		// resolved and host_removed are not said of asks; the asker
		// hears only that nobody will answer.
		status = string(inbox.ReasonDismissed)
	}
	select {
	case <-as.h.Done(): // the panes close because the daemon stops
		if it.Closed != inbox.ReasonAnswered {
			status = askShutdown
		}
	default:
	}
	r.status = status
	if it.Closed == inbox.ReasonAnswered {
		r.answer, r.answeredBy = it.Answer, it.AnsweredBy
	}
	delete(as.open, r.id)
	as.keepEndedLocked(r)
	close(r.done)
	if r.status == string(inbox.ReasonAnswered) && r.waiters == 0 && r.pane != "" {
		r.mailed = true
		return &lateAnswer{session: r.session, pane: r.pane, name: r.name, question: r.question, answer: r.answer}
	}
	return nil
}

// keepEndedLocked remembers how a question ended, dropping the oldest past the
// bound. Called with as.mu held.
func (as *Asks) keepEndedLocked(r *askRec) {
	if _, ok := as.ended[r.id]; !ok {
		as.endedOrder = append(as.endedOrder, r.id)
	}
	as.ended[r.id] = r
	for len(as.endedOrder) > askEndedKeep {
		delete(as.ended, as.endedOrder[0])
		as.endedOrder = as.endedOrder[1:]
	}
}

// mailAnswer leaves a late answer in the asking pane's inbox, from human,
// verified: the agent that got pending finds it with wait-for
// agent-message. A pane or session gone since has no inbox to mail.
func (as *Asks) mailAnswer(l lateAnswer) {
	ring := as.h.MailTo(l.session, l.pane)
	if ring == nil {
		return
	}
	subject := "Answer: " + l.question
	if utf8.RuneCountInString(subject) > mail.MaxSubjectChars {
		subject = string([]rune(subject)[:mail.MaxSubjectChars-1]) + "…"
	}
	// The person's answers have their own rate bucket: an agent's mail
	// cannot use it up.
	msg, err := ring.Send(mail.SendRequest{From: mail.Human, FromLabel: mail.Human, To: l.pane, ToLabel: l.name,
		Subject: subject, Text: l.answer, VerifiedHuman: true, RateKey: "human:answers"})
	if err != nil {
		as.h.Log().About(l.pane, "").Warnf("ask-human: mailing the answer to %s: %v", l.pane, err)
		return
	}
	as.h.Publish(core.Event{Type: "agent-message", Session: l.session, Window: msg.To})
}

// validRequestID: what a person can type back and a log can print.
func validRequestID(id string) bool {
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':') {
			return false
		}
	}
	return id != ""
}

func newAskID() string {
	var b [4]byte
	rand.Read(b[:])
	return "ask-" + hex.EncodeToString(b[:])
}

func (as *Asks) ask(c core.Call, p *askHumanParams) (any, *proto.Error) {
	start := time.Now()
	timeout := askDefaultTimeout
	if p.Timeout > 0 {
		timeout = time.Duration(p.Timeout) * time.Millisecond
	}
	wait := p.Wait == nil || *p.Wait
	if p.RequestID != "" && !validRequestID(p.RequestID) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the request id %q has characters other than letters, digits, '-', '_', '.' and ':'", core.Clip(p.RequestID, 64)).
			WithHint(proto.Hint{Param: "request_id", Detail: "leave it out and the daemon makes one"})
	}

	callerPane := as.h.CallerPane(c)
	var caller *core.WindowView
	if w, ok := as.h.Find(callerPane); callerPane != "" && ok {
		caller = &w
	}

	// Coming back for a question asked before.
	if p.RequestID != "" {
		as.mu.Lock()
		r := as.open[p.RequestID]
		if r == nil {
			r = as.ended[p.RequestID]
		}
		as.mu.Unlock()
		if r != nil {
			if caller != nil && r.pane != callerPane {
				return nil, proto.Errorf(proto.CodeForbidden, "the question %s was asked by another pane", p.RequestID).
					WithHint(proto.Hint{Param: "request_id", Detail: "a pane comes back only for its own questions"})
			}
			if p.Question != "" && p.Question != r.question {
				return nil, proto.Errorf(proto.CodeInvalidParams, "the request id %s names another question (%q)", p.RequestID, r.question).
					WithHint(proto.Hint{Param: "request_id", Detail: "leave out the question to come back for it, or leave out the request id to ask a new one"})
			}
			return as.wait(c, r, wait, timeout, start)
		}
		if p.Question == "" {
			return nil, proto.Errorf(proto.CodeInvalidParams, "no question has the request id %s (questions do not survive a daemon restart, and only the %d newest ended ones are remembered)", p.RequestID, askEndedKeep).
				WithHint(proto.Hint{Param: "request_id", Command: "tuios list-attention --kind ask", Detail: "ask again with the question"})
		}
	}
	if p.Question == "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the param \"question\" is required").
			WithHint(proto.Hint{Param: "question", Command: "tuios ask-human 'Deploy the branch to staging?' -o yes -o no"})
	}
	if err := inbox.ValidateAsk(p.Question, p.Options); err != nil {
		return nil, InboxError(err)
	}

	// Who asks: a caller inside a pane is that pane and nothing else; a
	// caller outside panes names any pane, or none.
	var sessName, sessID string
	var w *core.WindowView
	var perr *proto.Error
	if caller != nil {
		sessName, sessID, w = caller.Session, caller.SessionID, caller
		if p.Session != "" && p.Session != sessName {
			perr = proto.Errorf(proto.CodeForbidden, "a pane asks as itself, in its own session, not in %q", p.Session)
		} else if p.Window != "" {
			if other, err := as.h.Window(c, sessName, p.Window); err != nil || other.ID != caller.ID {
				perr = proto.Errorf(proto.CodeForbidden, "a pane asks as itself; it may not ask as %q", p.Window)
			}
		}
		if perr != nil {
			perr.WithHint(proto.Hint{Param: "window", Detail: "leave out -s and -w: the question is your pane's"})
		}
	} else {
		var ss core.SessionView
		ss, perr = as.h.Session(c, p.Session)
		sessName, sessID = ss.Name, ss.ID
		if perr == nil && p.Window != "" {
			var wv core.WindowView
			if wv, perr = as.h.Window(c, sessName, p.Window); perr == nil {
				w = &wv
			}
		}
	}
	var pane inbox.Pane
	if perr == nil {
		pane.Session = sessName
		if w != nil {
			pane.ID, pane.Workspace, pane.Name = w.ID, strconv.Itoa(w.Workspace), w.DisplayName
		}
	}
	if perr != nil {
		return nil, perr
	}

	id := p.RequestID
	r := &askRec{session: pane.Session, pane: pane.ID, name: pane.Name, question: p.Question,
		options: slices.Clone(p.Options), done: make(chan struct{})}
	as.mu.Lock()
	for {
		if id == "" {
			id = newAskID()
			if as.open[id] != nil || as.ended[id] != nil {
				id = ""
				continue
			}
		}
		break
	}
	if old := as.open[id]; old != nil || as.ended[id] != nil { // the same id asked at the same moment: come back for it
		if old == nil {
			old = as.ended[id]
		}
		as.mu.Unlock()
		return as.wait(c, old, wait, timeout, start)
	}
	r.id = id
	as.open[id] = r
	as.mu.Unlock()

	err := as.inbox.Do(func(q *inbox.Queue) ([]inbox.Event, error) {
		return q.Ask(inbox.Ask{Pane: pane, RequestID: id, Question: p.Question, Options: p.Options})
	})
	if err != nil {
		as.mu.Lock()
		delete(as.open, id)
		as.mu.Unlock()
		return nil, InboxError(err)
	}
	as.mu.Lock()
	r.opened = true
	as.mu.Unlock()
	// The pane or session may have closed between the lookup and the
	// Ask: their close found no item then, so close it now.
	reason := inbox.Reason("")
	if now, ok := as.h.FindSession(pane.Session); !ok || now.ID != sessID {
		reason = inbox.ReasonSessionClosed
	} else if _, ok := as.h.Find(pane.ID); pane.ID != "" && !ok {
		reason = inbox.ReasonWindowClosed
	}
	if reason != "" {
		as.inbox.Do(func(q *inbox.Queue) ([]inbox.Event, error) { return q.Close(inbox.AskKey(id), reason) })
	}
	return as.wait(c, r, wait, timeout, start)
}

// wait waits for the question to end, up to timeout: the result is its
// answer or how it ended, pending when the time ran out or the caller did
// not want to wait. A caller that hangs up leaves the question open (a
// later answer is mailed).
func (as *Asks) wait(c core.Call, r *askRec, wait bool, timeout time.Duration, start time.Time) (any, *proto.Error) {
	as.mu.Lock()
	if r.status != "" || !wait {
		res := as.resultLocked(r, start)
		as.mu.Unlock()
		return res, nil
	}
	r.waiters++
	as.mu.Unlock()

	expired := make(chan struct{})
	t := as.h.Clock().AfterFunc(timeout, func() { close(expired) })
	select {
	case <-r.done:
	case <-expired:
	case <-c.Context().Done():
	case <-as.h.Done():
	}
	t.Stop()

	as.mu.Lock()
	r.waiters--
	var late *lateAnswer
	var res humanAnswer
	// The daemon may not have read the hang-up yet when the answer
	// wakes this wait: look at the socket too (Linux tells a gone peer
	// from a half-closed one; elsewhere only the context says).
	hungUp := as.h.HungUp(c)
	select {
	case <-as.h.Done():
		res = as.resultLocked(r, start)
		if r.status == "" {
			res.Status = askShutdown
		}
	default:
		res = as.resultLocked(r, start)
		if r.status == string(inbox.ReasonAnswered) {
			switch {
			case !hungUp:
				r.delivered = true
			case r.waiters == 0 && !r.delivered && !r.mailed && r.pane != "":
				// Woken by the answer, but nobody is left to hear it.
				r.mailed = true
				late = &lateAnswer{session: r.session, pane: r.pane, name: r.name, question: r.question, answer: r.answer}
			}
		}
	}
	as.mu.Unlock()
	if late != nil {
		as.mailAnswer(*late)
	}
	if hungUp && res.Status != askShutdown {
		return nil, proto.Errorf(proto.CodeTimeout, "the asker hung up; the question stays open and a later answer is mailed to the asking pane")
	}
	return res, nil
}

// resultLocked is a question's human_answer now. Called with as.mu held.
func (as *Asks) resultLocked(r *askRec, start time.Time) humanAnswer {
	res := humanAnswer{Type: "human_answer", RequestID: r.id, Status: r.status, Session: r.session, Window: r.pane, Name: r.name,
		Question: r.question, Options: r.options, WaitedMS: time.Since(start).Milliseconds()}
	if res.Status == "" {
		res.Status = askPending
	}
	if r.status == string(inbox.ReasonAnswered) {
		res.Answer, res.AnsweredBy = r.answer, r.answeredBy
		res.AnswerIndex = slices.Index(r.options, r.answer) + 1
		res.VerifiedHuman = r.answeredBy == askAnsweredBy
	}
	return res
}

// answerAsk is the person's answer. Who may: an attached client's live
// nonce, from outside every pane (isPerson); no shell switch applies.
func (as *Asks) answerAsk(c core.Call, p *proto.AnswerAskParams) (any, *proto.Error) {
	if !as.h.IsPerson(c, p.HumanNonce) {
		return nil, proto.Errorf(codeNotHuman, "answer-ask is the person's: it needs the live human nonce of an attached client").
			WithHint(proto.Hint{Param: "human_nonce", Detail: "answer in the Inbox of an attached client (prefix key then i, then the answer's digit)"})
	}
	res := askAnswered{Type: "ask_answered", RequestID: p.RequestID}
	// standing fills res from a question that ended: the answer that
	// stands, or how it ended without one.
	standing := func() bool {
		as.mu.Lock()
		defer as.mu.Unlock()
		if r := as.ended[p.RequestID]; r != nil {
			res.Reason, res.Answer = r.status, r.answer
			return true
		}
		return false
	}
	if standing() {
		return res, nil
	}
	it, ok := as.inbox.Find(inbox.AskKey(p.RequestID))
	if !ok && standing() {
		return res, nil // another answer closed it between the two looks: it stands
	}
	if !ok {
		return nil, proto.Errorf(proto.CodeInvalidParams, "no question has the request id %q", core.Clip(p.RequestID, 64)).
			WithHint(proto.Hint{Param: "request_id", Command: "tuios list-attention --kind ask"})
	}
	if p.Question != "" && p.Question != it.Summary {
		res.Reason = "changed"
		return res, nil
	}
	var late *lateAnswer
	err := as.inbox.Do(func(q *inbox.Queue) ([]inbox.Event, error) {
		evs, err := q.Answer(it.ID, p.Answer, askAnsweredBy)
		// End the question here, under the Inbox's lock, so an answer
		// racing this one finds the standing answer rather than an item
		// that vanished; the follower's copy of the close changes nothing.
		for _, e := range evs {
			if e.Op == inbox.OpClose && e.Item.Kind == inbox.KindAsk {
				if l := as.closed(e.Item); l != nil {
					late = l
				}
			}
		}
		return evs, err
	})
	if late != nil {
		as.mailAnswer(*late)
	}
	if err != nil {
		var ie *inbox.Error
		if errors.As(err, &ie) && ie.Why == inbox.WhyUnknownID {
			if standing() { // another answer, or a dismiss, came first
				return res, nil
			}
		}
		return nil, InboxError(err)
	}
	res.Applied, res.Answer = true, p.Answer
	return res, nil
}
