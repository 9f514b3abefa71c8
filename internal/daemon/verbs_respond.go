package daemon

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	attn "github.com/tuios/tuios/internal/daemon/attention"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/review"
	"github.com/tuios/tuios/vt"
)

// Error codes of attach and respond (stable wire names).
const (
	codeRespondNotHuman    = "not_human"
	codePromptChanged      = "prompt_changed"
	codeRiskUnacknowledged = "risk_unacknowledged"
)

// RespondFromShellEnv is the environment variable, read once when the
// daemon starts, that does what `[daemon] respond_from_shell = true` in
// the config file does (1, true, yes or on): a shell outside every pane
// may use respond without an attached client's nonce. Either is read only
// at start; nothing a client sends can change it.
const RespondFromShellEnv = "TUIOS_RESPOND_FROM_SHELL"

const (
	respondDefaultTimeout = 5000 * time.Millisecond
	maxPromptLine         = 400
	maxRespondText        = 4096
)

// responder holds what attach and respond share: the human nonces issued,
// one lock per window answered, and the prompts being answered now.
//
// Locking: mu guards the maps and is never held across I/O or while
// taking s.mu. A window's lock (a one-slot channel, so a wait for it ends
// with the caller's context) is held only while its answer is pressed:
// only another respond to the same window waits on it.
type responder struct {
	s         *Server
	fromShell bool
	risk      *review.Checker

	mu       sync.Mutex
	nonces   map[string]nonceHolder
	byConn   map[*conn]string
	locks    map[string]chan struct{}
	answered map[string]answeredMark // window id → the prompt answered last
	entered  map[string]time.Time    // window id → when it entered needs_input
}

// answeredMark is the prompt an answer was pressed to. It refuses a second
// answer to that prompt while the first is settling and for
// answeredGrace after it returned: a program slow to redraw still shows
// the prompt, and a second person's answer must not be pressed into
// whatever comes next. After that a retry goes through (the first keys
// may have been lost).
type answeredMark struct {
	prompt   string
	inFlight bool
	until    time.Time
}

// answeredGrace is how long a returned answer still marks its prompt.
const answeredGrace = 3 * time.Second

// holds reports whether m still marks prompt at now.
func (m answeredMark) holds(prompt string, now time.Time) bool {
	return m.prompt == prompt && (m.inFlight || now.Before(m.until))
}

// nonceHolder is the connection a nonce was issued on and its peer pid:
// the nonce is good on that connection, or on another connection from the
// same process while the first stays open.
type nonceHolder struct {
	cn  *conn
	pid int
}

func (s *Server) newResponder() *responder {
	chk, err := review.NewChecker(s.opt.Config.RiskConfig())
	if err != nil {
		s.warnf("config %s: %v: the shipped risk rules are used", s.opt.Config.Path, err)
		chk, _ = review.NewChecker(review.RiskConfig{})
	}
	r := &responder{s: s, risk: chk, nonces: map[string]nonceHolder{}, byConn: map[*conn]string{},
		locks: map[string]chan struct{}{}, answered: map[string]answeredMark{}, entered: map[string]time.Time{}}
	r.fromShell = s.opt.Config.Daemon.RespondFromShell
	switch strings.ToLower(strings.TrimSpace(os.Getenv(RespondFromShellEnv))) {
	case "1", "true", "yes", "on":
		r.fromShell = true
	}
	go r.follow()
	return r
}

// follow notes when each pane enters needs_input: a prompt's id covers it,
// so the same words asked again are another prompt.
func (r *responder) follow() {
	sub := r.s.tracker.Arbiter().Subscribe(agentstate.SubscribeOptions{Buffer: 256})
	defer sub.Close()
	for {
		select {
		case ch := <-sub.C:
			r.mu.Lock()
			t, seen := r.entered[ch.Pane]
			switch {
			case seen && ch.At.Before(t):
				// Older than what a peek already found the pane on: the
				// follower is behind, and the prompt's id must not move.
			case ch.To != agentstate.NeedsInput:
				delete(r.entered, ch.Pane)
			default:
				// A peek may have seen the pane there first: keep its time.
				if _, ok := r.entered[ch.Pane]; !ok {
					r.entered[ch.Pane] = ch.At
				}
			}
			r.mu.Unlock()
		case <-r.s.done:
			return
		}
	}
}

// enteredAt is when the pane entered needs_input, as followed; a pane
// found there before the follower heard of it keeps the first time seen.
func (r *responder) enteredAt(id string, snap agentstate.Snapshot) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.entered[id]
	if !ok {
		t = snap.StateAt
		r.entered[id] = t
	}
	return t
}

// issue makes a fresh nonce for cn, replacing the one it held; the nonce
// dies with the connection.
func (r *responder) issue(cn *conn) string {
	var b [24]byte
	rand.Read(b[:])
	n := hex.EncodeToString(b[:])
	r.mu.Lock()
	old, had := r.byConn[cn]
	if had {
		delete(r.nonces, old)
	}
	r.nonces[n] = nonceHolder{cn: cn, pid: cn.peer}
	r.byConn[cn] = n
	r.mu.Unlock()
	if !had {
		go func() {
			select {
			case <-cn.closed:
			case <-r.s.done:
			}
			r.mu.Lock()
			if cur, ok := r.byConn[cn]; ok {
				delete(r.nonces, cur)
				delete(r.byConn, cn)
			}
			r.mu.Unlock()
		}()
	}
	return n
}

// validNonce: the nonce is live and cn is its connection, or another
// connection from the process that holds it.
func (r *responder) validNonce(cn *conn, nonce string) bool {
	if nonce == "" {
		return false
	}
	r.mu.Lock()
	h, ok := r.nonces[nonce]
	r.mu.Unlock()
	if !ok {
		return false
	}
	select {
	case <-h.cn.closed:
		return false
	default:
	}
	return h.cn == cn || (cn.peer > 1 && h.pid == cn.peer)
}

// forget drops what was kept for a window that closed. A lock held by an
// answer in flight stays until that answer lets go of it.
func (r *responder) forget(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.entered, id)
	delete(r.answered, id)
	if ch := r.locks[id]; ch != nil && len(ch) == 0 {
		delete(r.locks, id)
	}
}

// lock takes the window's answer lock, or gives up with ctx.
func (r *responder) lock(ctx context.Context, id string) (func(), bool) {
	r.mu.Lock()
	ch := r.locks[id]
	if ch == nil {
		ch = make(chan struct{}, 1)
		r.locks[id] = ch
	}
	r.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, true
	case <-ctx.Done():
		return nil, false
	}
}

// ---- the peek ----

type peekPromptParams struct {
	Session string `json:"session" desc:"the session"`
	Window  string `json:"window" req:"true" desc:"the window whose prompt to read"`
}

type attachParams struct {
	Client string `json:"client" desc:"the attaching client's name" maxlen:"256"`
	// The stream (attach_stream.go): layout, screen rows and bells of
	// one session on this connection after the reply.
	Session string `json:"session" desc:"the session to show (default: most recently active)" maxlen:"4096"`
	Stream  bool   `json:"stream" desc:"after the reply, stream the session's layout, changed screen rows and bells on this connection (it takes no more requests)"`
	Cols    *int   `json:"cols" desc:"the client's width: resizes the session's area first" min:"1" max:"1000"`
	Rows    *int   `json:"rows" desc:"the client's height: resizes the session's area first" min:"1" max:"1000"`
	Prefix  string `json:"prefix" desc:"with stream: the client's leader key (ctrl+b); send-keys hands a chord of it and one key to this client" maxlen:"64"` // leader_keys.go
	// Presence: the person's client without a screen (a phone's
	// bridge): the nonce only, and the connection takes requests.
	Presence bool `json:"presence" desc:"attach-presence: say this connection is the person's client without streaming a screen; answers a human nonce, shows and resizes nothing, and the connection keeps taking requests (agent-transcript, respond) while it stays open"`
}

type respondParams struct {
	Session    string   `json:"session" desc:"the session"`
	Window     string   `json:"window" req:"true" desc:"the window whose prompt to answer"`
	Action     string   `json:"action" req:"true" desc:"the answer" accepted:"approve,approve_always,deny,choose,text"`
	Value      string   `json:"value" desc:"choose: the option number; text: the answer (at most 4096 bytes)" maxlen:"4096"`
	PromptID   string   `json:"prompt_id" desc:"the prompt_id peek-prompt returned: refused with prompt_changed, nothing pressed, when the prompt is no longer that one" maxlen:"64"`
	HumanNonce string   `json:"human_nonce" desc:"the nonce attach gave this client: proof the person acts" maxlen:"256"`
	Timeout    int      `json:"timeout" desc:"ms to wait for the pane to settle after the keys are pressed" min:"1" max:"30000" default:"5000"`
	RiskAck    []string `json:"risk_ack" desc:"the risk rules of a risky prompt, all of them (order-insensitive): an allowing answer needs it" maxlen:"32"`
}

// promptPeek is peek-prompt's result.
type promptPeek struct {
	proto.PromptPeek

	prompt detect.Prompt
	input  detect.InputSpec
	screen *vt.Screen
}

// peek reads a window's prompt now. Called without s.mu.
func (r *responder) peek(w *Window, session, name string) promptPeek {
	s := r.s
	snap := s.tracker.Arbiter().Get(w.ID)
	pk := promptPeek{PromptPeek: proto.PromptPeek{Type: "prompt_peek", Session: session, Window: w.ID, Name: name, Harness: snap.Harness,
		State: snap.State.String(), Source: snap.SourceName(), Rule: -1, Message: snap.Message, Lines: []string{},
		Options: []proto.PromptOption{}, Actions: []string{}, Untrusted: true}, screen: w.pane.Screen()}
	if !snap.StateAt.IsZero() {
		pk.StateAt = snap.StateAt.UnixMilli()
	}
	pk.Blocked = snap.State == agentstate.NeedsInput
	if pk.Blocked && !snap.StateAt.IsZero() {
		pk.WaitingMS = max(0, s.clock.Now().Sub(snap.StateAt).Milliseconds())
	}
	if !pk.Blocked {
		pk.Reason = "not waiting: the pane is " + pk.State
	}
	man, p, d, ok := r.readPrompt(w, snap.Harness) // prompt_risk.go: the dialog whole, history included
	if man != nil {
		pk.input = man.Input
	}
	if man == nil {
		if pk.Reason == "" {
			pk.Reason = "no harness is known for this pane, so no screen rule reads its prompt"
		}
		return pk
	}
	if !ok {
		if pk.Reason == "" {
			pk.Reason = "no screen rule of " + snap.Harness + " reads a prompt on the screen now"
		}
		return pk
	}
	if d.Whole {
		// The peek shows, and the prompt id covers, the dialog whole: the
		// command a short tile pushed up is part of what is answered.
		p.Lines = d.Lines
		if len(d.Options) > 0 && sameNumbers(d.Options, p.Options) {
			p.Options = d.Options // whole labels where the tile cut a wrapped one
		}
	}
	pk.Found, pk.prompt = true, p
	pk.Rule, pk.Kind = p.Rule, p.Kind.String()
	if pk.Message == "" || !pk.Blocked {
		pk.Message = p.Message
	}
	for _, l := range p.Lines {
		pk.Lines = append(pk.Lines, cleanPromptLine(l))
	}
	for _, o := range p.Options {
		pk.Options = append(pk.Options, proto.PromptOption{N: o.N, Label: o.Label, Selected: o.Selected, Deny: choiceDenies(p, o)})
	}
	pk.Actions = offered(p)
	var entered time.Time
	if pk.Blocked {
		entered = r.enteredAt(w.ID, snap)
	}
	pk.PromptID = promptID(snap.Harness, entered, p)
	hits, notWhole := r.promptHits(pk.Message, p, d, r.paneRoot(w), s.opt.Tracker.Home) // prompt_risk.go
	pk.Risk = ruleNames(hits)
	if notWhole {
		pk.NotWhole = whyNotWhole
	}
	switch {
	case !pk.Blocked:
	case p.Answers == nil:
		pk.Reason = "the rule that reads this prompt names no answers: answer it in the pane"
	case len(pk.Actions) == 0:
		pk.Reason = "none of the rule's answers fits the options on the screen"
	default:
		pk.Answerable = true
	}
	return pk
}

// cleanPromptLine removes control characters and cuts a line to 400 bytes.
func cleanPromptLine(l string) string {
	l = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) && r != 0x200D {
			return -1
		}
		return r
	}, l)
	if len(l) > maxPromptLine {
		l = cutBytes(l, maxPromptLine)
	}
	return l
}

func cutBytes(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// promptID is a hash of what was read: the harness, the rule, when the
// pane entered needs_input, the lines and the options.
func promptID(harness string, entered time.Time, p detect.Prompt) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00", harness, p.Rule, entered.UnixNano())
	for _, l := range p.Lines {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	for _, o := range p.Options {
		fmt.Fprintf(h, "\x00%d %s", o.N, o.Label)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// offered lists the actions the rule's answers allow on this screen.
func offered(p detect.Prompt) []string {
	out := []string{}
	a := p.Answers
	if a == nil {
		return out
	}
	for _, x := range []struct {
		name string
		a    *detect.Answer
	}{{"approve", a.Approve}, {"approve_always", a.ApproveAlways}, {"deny", a.Deny}} {
		if _, ok := answerKeys(p, x.a); ok {
			out = append(out, x.name)
		}
	}
	if a.Choose == "digit" && len(p.Options) > 0 {
		out = append(out, "choose")
	}
	if a.Text {
		out = append(out, "text")
	}
	return out
}

// answerKeys is what an answer presses on this screen: its keys, else the
// digit of the option its label prefix names. ok is false when the answer
// is not there or names an option the screen does not show.
func answerKeys(p detect.Prompt, a *detect.Answer) ([]string, bool) {
	if a == nil {
		return nil, false
	}
	var keys []string
	if a.Option != "" {
		o, ok := detect.OptionFor(p.Options, a.Option)
		if !ok {
			return nil, false
		}
		keys = []string{strconv.Itoa(o.N)}
	}
	if len(a.Keys) > 0 {
		keys = append([]string(nil), a.Keys...)
	}
	return keys, len(keys) > 0
}

// keyBytes turns an answer's key names into bytes in the harness's input
// mode: enter is its submit key, arrows follow the cursor-key mode.
func keyBytes(keys []string, in detect.InputSpec, sc *vt.Screen) []byte {
	app := sc.Mode(vt.ModeAppCursorKeys)
	var b []byte
	for _, k := range keys {
		switch k {
		case "enter":
			b = append(b, in.SubmitKey()...)
		case "esc":
			b = append(b, 0x1b)
		case "tab":
			b = append(b, '\t')
		case "space":
			b = append(b, ' ')
		case "backspace":
			b = append(b, 0x7f)
		case "up", "down", "right", "left":
			c := map[string]byte{"up": 'A', "down": 'B', "right": 'C', "left": 'D'}[k]
			if app {
				b = append(b, 0x1b, 'O', c)
			} else {
				b = append(b, 0x1b, '[', c)
			}
		default:
			b = append(b, k...)
		}
	}
	return b
}

// sameSet is the acknowledgement check respond shares with the held
// approvals (attention.Acknowledged).
func sameSet(a, b []string) bool { return attn.Acknowledged(a, b) }

func (s *Server) respondVerbs(add addFunc) {
	r := s.resp

	p, h := handler(func(cn *conn, p *attachParams) (any, *proto.Error) {
		if cn.link == nil && !s.outsidePanes(cn) { // a link attaches without a nonce (link_policy.go)
			return nil, proto.Errorf(codeRespondNotHuman, "a caller inside a pane of this daemon (or one the kernel cannot place) gets no human nonce").
				WithHint(proto.Hint{Detail: "attach from a terminal outside every pane"})
		}
		if p.Presence && (p.Stream || p.Session != "" || p.Cols != nil || p.Rows != nil || p.Prefix != "") {
			return nil, proto.Errorf(proto.CodeInvalidParams, "presence shows no session: it takes no stream, session, cols, rows or prefix").
				WithHint(proto.Hint{Param: "presence"})
		}
		extra, err := s.prepareAttach(cn, p)
		if err != nil {
			return nil, err
		}
		res := map[string]any{"type": "attached", "client": p.Client}
		if p.Presence {
			res["presence"] = true
		}
		if cn.link == nil {
			res["human_nonce"] = r.issue(cn)
		}
		for k, v := range extra {
			res[k] = v
		}
		return res, nil
	})
	add("attach", whoGranted|needAdmin|access(capOpen|capWrite)|holdsConn, "Attach a client: its reply carries a fresh human nonce, good on this connection (and this client process) while it stays open; refused inside a pane. With stream, the connection then carries the session's layout, changed screen rows and bells, one JSON line each, until a detached line", "attached",
		`{"verb":"attach","params":{"client":"tuios-client","session":"work","stream":true,"cols":200,"rows":50}}`, p, h)

	p, h = handler(func(cn *conn, p *peekPromptParams) (any, *proto.Error) {
		ss, w, name, err := s.targetNamed(cn, p.Session, p.Window)
		if err != nil {
			return nil, err
		}
		pk := r.peek(w, ss.Name, name)
		if pk.Blocked && pk.Found {
			s.att.Update(w.ID) // the Inbox item says the risk this peek read (prompt_risk.go)
		}
		if held, ok := s.holds.Peek(pk.PromptPeek); ok { // a prompt the Inbox holds (internal/daemon/attention)
			return held, nil
		}
		return pk, nil
	})
	add("peek-prompt", reads|agentFeature, "Read what a blocked pane asks: the prompt's dialog read whole from the screen and the pane's history, else the lines its screen rule read (untrusted), the options, the actions offered, the risk rules what it asks hits (cut short, with not_whole saying why, when its dialog cannot be read whole) and a prompt_id", "prompt_peek",
		`{"verb":"peek-prompt","params":{"window":"review"}}`, p, h)

	p, h = handler(func(cn *conn, p *respondParams) (any, *proto.Error) {
		return r.respond(cn, p)
	})
	add("respond", personOnly|needRespond|typesInto|agentFeature, "Answer a pane's prompt as the person: presses exactly the keys the harness manifest's answers name, after checking the prompt is still the one peeked", "prompt_response",
		`{"verb":"respond","params":{"window":"review","prompt_id":"75f8b9fadb5b5dfc","action":"approve","human_nonce":"…"}}`, p, h)
}

func (r *responder) respond(cn *conn, p *respondParams) (any, *proto.Error) {
	s := r.s
	start := time.Now()
	by := ""
	switch {
	case linkStandsIn(cn): // another machine with the respond capability (link_policy.go)
		by = "link:" + linkName(cn)
	case s.isPerson(cn, p.HumanNonce):
		by = "client"
	case r.fromShell && s.outsidePanes(cn):
		by = "shell"
	case cn.callKnown && cn.call.pane != nil && cn.call.grants.Has(grant.Respond): // the respond grant (gate.go let it in)
		by = "pane:" + cn.call.pane.ID
	default:
		detail := "answer from your attached client"
		if !r.fromShell {
			detail += ", or set respond_from_shell = true under [daemon] in " + s.configPath() + " and restart the daemon to answer from a shell outside every pane"
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
	ss, w, name, err := s.targetNamed(cn, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	held := attn.HeldAnswer{PromptID: p.PromptID, Action: p.Action, Value: p.Value, RiskAck: p.RiskAck}
	if res, herr, held := s.holds.Respond(held, by, ss.Name, w.ID, name); held { // the Inbox holds its prompt (internal/daemon/attention)
		return res, herr
	}

	lctx, lcancel := context.WithTimeout(cn.ctx, timeout)
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
	pk := r.peek(w, ss.Name, name)
	changed := func(why string) *proto.Error {
		return proto.Errorf(codePromptChanged, "the prompt of %s is not the one to answer (%s); nothing was pressed", name, why).
			WithHint(proto.Hint{Command: "tuios peek-prompt -s " + ss.Name + " -w " + w.ID[:8], Detail: "read it again"})
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
	if err := crushRespondCheck(w, pk.Harness, name); err != nil {
		return nil, err
	}
	r.mu.Lock()
	already := r.answered[w.ID].holds(pk.PromptID, s.clock.Now())
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
	if allows && len(pk.Risk) > 0 && !sameSet(p.RiskAck, pk.Risk) {
		doing := "allowing it"
		if p.Action == "text" {
			doing = "answering it with text"
		}
		if pk.NotWhole != "" { // prompt_risk.go: its top is off the screen and the history
			return nil, proto.Errorf(codeRiskUnacknowledged, "the prompt of %s is risky (%s): its top is not on the pane's screen, so what it asks may not be read whole; %s needs --risk-ack naming those rules; nothing was pressed", name, strings.Join(pk.Risk, ", "), doing).
				WithHint(proto.Hint{Param: "risk_ack", Accepted: pk.Risk, Command: "tuios peek-prompt -s " + ss.Name + " -w " + w.ID[:8],
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
			r.answered[w.ID] = answeredMark{prompt: pk.PromptID, until: s.clock.Now().Add(answeredGrace)}
		}
		r.mu.Unlock()
	}()
	w.mu.Lock()
	gen := w.outputGen
	w.mu.Unlock()
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
		if err := s.typeInto(cn, w, []byte(paste), timeout); err != nil {
			return nil, err
		}
		select { // let the pane draw the paste before it is submitted
		case <-gen:
		case <-time.After(300 * time.Millisecond):
		case <-cn.closed:
		}
		if pk.input.FocusBeforeSubmit && pk.screen.Mode(vt.ModeFocusReporting) {
			s.focusIn(cn, w)
		}
		if err := s.typeInto(cn, w, []byte(pk.input.SubmitKey()), timeout); err != nil {
			return nil, err
		}
		sent = []string{"paste", "enter"}
	} else {
		if err := s.typeInto(cn, w, keyBytes(keys, pk.input, pk.screen), timeout); err != nil {
			return nil, err
		}
		sent = keys
	}
	w.pane.Typed()
	pressed := time.Since(start)
	unlock()
	locked = false
	s.about(w.ID, "").infof("respond: %s %v to %s (%s) by %s", p.Action, sent, w.ID[:8], pk.PromptID, by)

	// Settle: the state moves off needs_input, the prompt leaves the
	// screen, the window goes, or the timeout passes.
	arb := s.tracker.Arbiter()
	sub := arb.Subscribe(agentstate.SubscribeOptions{Pane: w.ID, Buffer: 16})
	defer sub.Close()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	settledBy := ""
	for settledBy == "" {
		w.mu.Lock()
		gen = w.outputGen
		w.mu.Unlock()
		if arb.Get(w.ID).State != agentstate.NeedsInput {
			settledBy = "state"
			break
		}
		if now := r.peek(w, ss.Name, name); !now.Found || now.PromptID != pk.PromptID {
			settledBy = "prompt"
			break
		}
		select {
		case <-gen:
		case <-sub.C:
		case <-time.After(100 * time.Millisecond):
		case <-deadline.C:
			settledBy = "timeout"
		case <-w.exitCh:
			settledBy = "gone"
		case <-s.done:
			settledBy = "gone"
		case <-cn.closed:
			return nil, proto.Errorf(proto.CodeTimeout, "the caller hung up; the answer was pressed")
		}
	}
	snap := arb.Get(w.ID)
	return map[string]any{"type": "prompt_response", "session": ss.Name, "window": w.ID, "name": name, "action": p.Action,
		"sent": sent, "prompt_id": pk.PromptID, "settled_by": settledBy, "state": snap.State.String(), "message": snap.Message,
		"by": by, "pressed_ms": pressed.Milliseconds(), "settled_ms": time.Since(start).Milliseconds()}, nil
}
