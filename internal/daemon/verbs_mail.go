package daemon

import (
	"context"
	"encoding/base64"
	"errors"
	"path/filepath"
	"strings"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
	"github.com/tuios/tuios/vt"
)

// Error codes of the mail verbs that proto does not name yet (stable wire
// names; docs/protocol.md lists every code).
const (
	codeNoKeyboard    = "no_keyboard"
	codeAgentBlocked  = "agent_blocked"
	codeNotReady      = "not_ready"
	codeLoopRefused   = "loop_refused"
	codePromptStalled = "prompt_stalled"
)

// mailer holds what the mail verbs share: the daemon-wide message id
// counter. A session's ring is made on its first use.
type mailer struct {
	s   *Server
	ids mail.Counter
}

// ringLocked is the session's mail ring, made on first use. Called with s.mu
// held.
func (m *mailer) ringLocked(ss *Session) *mail.Ring {
	if ss.mail != nil {
		return ss.mail
	}
	dir := filepath.Join(filepath.Dir(m.s.opt.Socket), "stash", stashDirName(ss))
	ss.mail = mail.NewRing(mail.RingOptions{
		Session: ss.Name, IDs: &m.ids, Clock: m.s.clock,
		Stash: mail.NewStash(mail.StashOptions{Dir: dir, Clock: m.s.clock}),
	})
	if m.s.sessions[ss.Name] != ss { // killed meanwhile: nothing may outlive it
		ss.mail.Close()
	}
	return ss.mail
}

// stashDirName is the session's name when it is a plain file name, else
// its id.
func stashDirName(ss *Session) string {
	n := ss.Name
	ok := n != "" && n != "." && n != ".." && len(n) <= 64
	for _, c := range n {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			ok = false
		}
	}
	if ok {
		return n
	}
	return ss.ID
}

// mailErr turns a mail refusal into a protocol error.
func mailErr(err error) *proto.Error {
	if pe, ok := err.(*proto.Error); ok { // already a refusal (putStash)
		return pe
	}
	var e *mail.Error
	if errors.As(err, &e) {
		pe := proto.Errorf(string(e.Code()), "%s", e.Message)
		if e.Param != "" || e.Hint() != "" {
			pe.Hint = &proto.Hint{Param: e.Param, Detail: e.Hint()}
		}
		return pe
	}
	return proto.Errorf(proto.CodeInternal, "%v", err)
}

type sendMessageParams struct {
	Session     string   `json:"session" desc:"the session (default: your own pane's, else the most recently active)"`
	To          string   `json:"to" desc:"the inbox: a window (id, index, unique id prefix, name) or human; omit for a notice to the whole session"`
	From        string   `json:"from" desc:"a label for the sender; a caller inside a pane is that pane whatever it says, and human from a pane is refused" maxlen:"256"`
	Subject     string   `json:"subject" desc:"at most 120 characters"`
	Text        string   `json:"text" req:"true" desc:"the message, at most 8 KiB"`
	ReplyTo     int      `json:"reply_to" desc:"the id of the message this answers" min:"1" max:"9007199254740991"`
	Attachments []string `json:"attachments" desc:"absolute paths of files that exist now (at most 8); references, not bytes"`
	Host        string   `json:"host" desc:"deliver to session on this linked machine (local: this one); a host that is not answering is host_unreachable and nothing is kept, unless queue" maxlen:"255"`
	Queue       bool     `json:"queue" desc:"with host: keep the message in the outbox when the link is down, the far side does not answer in 10 s, or earlier mail waits, and send it in order once the link is back (agent_message_queued)"`
	// The attached client's reply in the mail overlay: the message is
	// from human, verified (mail_thread.go in internal/tui sends it).
	HumanNonce string `json:"human_nonce" desc:"the nonce attach gave the person's client: the message is from human, verified" maxlen:"256"`
}

type readMessagesParams struct {
	Session string `json:"session" desc:"the session"`
	To      string `json:"to" desc:"the inbox to read (a window or human); reading one marks what it returns as read; omit to read the whole session, marking nothing"`
	Unread  bool   `json:"unread" desc:"only unread directed messages"`
	Notices bool   `json:"notices" desc:"with to: include notices"`
	Peek    bool   `json:"peek" desc:"mark nothing"`
	Thread  int    `json:"thread" desc:"only this thread (any id in it)" min:"1" max:"9007199254740991"`
	Limit   int    `json:"limit" desc:"the newest N, oldest first" min:"1" max:"256" default:"20"`
}

type stashPutParams struct {
	Session string `json:"session" desc:"the session"`
	Path    string `json:"path" desc:"an absolute path to a regular file the daemon's user can read (refused over a link)"`
	// Over a link the bytes come with the request (link_mail.go).
	Data string `json:"data" desc:"instead of path: the file's bytes, base64 (at most 8 MB); what a link sends" maxlen:"11184812"`
	Name string `json:"name" desc:"with data: the file's name where it came from (for its extension)" maxlen:"4096"`
}

type stashListParams struct {
	Session string `json:"session" desc:"the session"`
}

type stashGetParams struct {
	Session string `json:"session" desc:"the session"`
	Name    string `json:"name" req:"true" desc:"the stored file: its name, hash or stored path"`
	Data    bool   `json:"data" desc:"include the bytes, base64 (at most 8 MB)"`
}

type askAgentParams struct {
	Session      string `json:"session" desc:"the session"`
	Window       string `json:"window" req:"true" desc:"the pane to ask (human is refused: no keyboard)"`
	From         string `json:"from" desc:"a label for the asker" maxlen:"256"`
	Text         string `json:"text" req:"true" desc:"the question, typed as one paste" maxlen:"1048576"`
	ReadyTimeout int    `json:"ready_timeout" desc:"ms to wait for the target to be ready" min:"1" max:"86400000" default:"30000"`
	Settle       int    `json:"settle" desc:"ms of silence that ends the reply" min:"1" max:"86400000" default:"2000"`
	Timeout      int    `json:"timeout" desc:"ms before the reply is cut off" min:"1" max:"86400000" default:"300000"`
	Lines        int    `json:"lines" desc:"the newest N reply lines" min:"1" max:"100000" default:"200"`
	Force        bool   `json:"force" desc:"do not wait for the target to be ready (a blocked target is still refused)"`
	AllowBlocked bool   `json:"allow_blocked" desc:"type even when the target waits on needs_input"`
	StallTimeout int    `json:"stall_timeout" desc:"ms the target has to show it took the question" min:"1" max:"86400000" default:"5000"`
}

func (s *Server) mailVerbs(add addFunc) {
	m := s.mail

	p, h := handler(func(cn *conn, p *sendMessageParams) (any, *proto.Error) { return m.send(cn, p) })
	add("send-agent-message", leavesMail, "Leave a message in an inbox (a pane or human), or a notice for the whole session; it never touches a keyboard", "agent_message_sent",
		`{"verb":"send-agent-message","params":{"to":"review","from":"lead","subject":"retest please","text":"rebased onto main"}}`, p, h)

	p, h = handler(func(cn *conn, p *readMessagesParams) (any, *proto.Error) { return m.read(cn, p) })
	add("read-agent-messages", readsMail|marksRead, "Read mail: an inbox (marking what it returns as read unless peek) or the whole session (marking nothing)", "agent_messages",
		`{"verb":"read-agent-messages","params":{"to":"review","unread":true}}`, p, h)

	p, h = handler(func(cn *conn, p *stashPutParams) (any, *proto.Error) {
		if err := stashPutSource(cn, p); err != nil { // link_mail.go
			return nil, err
		}
		ss, st, err := m.stash(cn, p.Session)
		if err != nil {
			return nil, err
		}
		res, perr := putStash(st, p)
		if perr != nil {
			return nil, mailErr(perr)
		}
		out := stashEntryMap(ss.Name, res.Entry)
		var evicted []string
		for _, e := range res.Evicted {
			evicted = append(evicted, e.Path)
		}
		if evicted == nil {
			evicted = []string{}
		}
		for k, v := range map[string]any{"deduped": res.Deduped, "evicted": len(res.Evicted), "evicted_paths": evicted, "evictions": res.Evictions,
			"session_bytes": res.SessionBytes, "session_entries": res.SessionEntries, "max_file_bytes": res.MaxFileBytes, "max_bytes": res.MaxBytes} {
			out[k] = v
		}
		return out, nil
	})
	add("stash-put", leavesMail, "Copy a file into the session's stash (content-addressed, 16 MB a file, 256 MB a session) and return its stored path", "stash_entry",
		`{"verb":"stash-put","params":{"path":"/tmp/flame.png"}}`, p, h)

	p, h = handler(func(cn *conn, p *stashListParams) (any, *proto.Error) {
		ss, st, err := m.stash(cn, p.Session)
		if err != nil {
			return nil, err
		}
		l := st.List()
		return map[string]any{"type": "stash_list", "session": ss.Name, "dir": l.Dir, "entries": l.Entries, "bytes": l.Bytes,
			"evictions": l.Evictions, "max_bytes": l.MaxBytes, "max_file_bytes": int64(mail.MaxStashFileBytes)}, nil
	})
	add("stash-list", readsMail, "List the session's stashed files, oldest first, with whether a message still names each", "stash_list",
		`{"verb":"stash-list","params":{"session":"work"}}`, p, h)

	p, h = handler(func(cn *conn, p *stashGetParams) (any, *proto.Error) {
		ss, st, err := m.stash(cn, p.Session)
		if err != nil {
			return nil, err
		}
		if !p.Data {
			e, gerr := st.Get(p.Name)
			if gerr != nil {
				return nil, mailErr(gerr)
			}
			return stashEntryMap(ss.Name, e), nil
		}
		b, e, gerr := st.Read(p.Name, mail.MaxLinkStashBytes)
		if gerr != nil {
			return nil, mailErr(gerr)
		}
		out := stashEntryMap(ss.Name, e)
		out["data"] = base64.StdEncoding.EncodeToString(b)
		return out, nil
	})
	add("stash-get", readsMail, "Look up one stashed file by name, hash or path; with data, its bytes (at most 8 MB)", "stash_entry",
		`{"verb":"stash-get","params":{"name":"3f9a…c2.png"}}`, p, h)

	p, h = handler(func(cn *conn, p *askAgentParams) (any, *proto.Error) { return m.ask(cn, p) })
	add("ask-agent", types.withLink(capMail), "Type a question into an agent's pane once it is not mid-turn and return what it printed (fenced: data, not instructions)", "agent_reply",
		`{"verb":"ask-agent","params":{"window":"review","text":"does the retry path look right?"}}`, p, h)
}

func stashEntryMap(session string, e mail.StashEntry) map[string]any {
	return map[string]any{"type": "stash_entry", "session": session, "path": e.Path, "name": e.Name, "hash": e.Hash, "bytes": e.Bytes,
		"media_type": e.MediaType, "kind": e.Kind, "source": e.Source, "stored_at": e.StoredAt}
}

// senderLocked places the sender: a caller inside a pane is that pane (from is
// only its label); outside every pane, from may claim human or a window's
// full id, else it is a label. Called with s.mu held.
func (m *mailer) senderLocked(cn *conn, from string) (id, label string, claimedHuman bool, err *proto.Error) {
	if cn != nil && cn.link != nil {
		// Another machine's sender is a label here, never resolved
		// against this machine's windows (link_mail.go).
		return "", from, from == mail.Human, nil
	}
	if w := m.s.callerWindow(cn); w != nil {
		if from == mail.Human {
			return "", "", false, proto.Errorf(proto.CodeForbidden, "a pane cannot write as human").
				WithHint(proto.Hint{Param: "from", Detail: "only the person at an attached client is human; sign with your own name"})
		}
		label = from
		if label == "" || label == w.ID {
			label = w.DisplayName()
		}
		return w.ID, label, false, nil
	}
	switch {
	case from == mail.Human:
		return mail.Human, mail.Human, true, nil
	case m.s.windows[from] != nil:
		return from, m.s.windows[from].DisplayName(), false, nil
	}
	return "", from, false, nil
}

// rateKey is the caller's mail rate bucket, keyed on what it cannot
// choose: its pane, or one bucket for every caller outside a pane (a
// label, or a window id claimed from outside, is the caller's to pick).
func rateKey(cn *conn) string {
	if cn != nil && cn.link != nil {
		return "link:" + linkName(cn)
	}
	if cn != nil && cn.placedID != "" {
		return "pane:" + cn.placedID
	}
	return "outside"
}

// inboxLocked resolves an inbox address: human before any window. Called with
// s.mu held.
func (m *mailer) inboxLocked(cn *conn, ss *Session, addr string) (id, label string, err *proto.Error) {
	if addr == mail.Human {
		return mail.Human, mail.Human, nil
	}
	w, err := m.s.window(cn, ss, addr)
	if err != nil {
		return "", "", err
	}
	return w.ID, w.DisplayName(), nil
}

func (m *mailer) send(cn *conn, p *sendMessageParams) (any, *proto.Error) {
	if p.Host != "" && p.Host != "local" { // outbox_verbs.go: over the link, or kept in the outbox
		return m.sendToHost(cn, p)
	}
	if p.Queue {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the param %q keeps mail for another machine; a session here gets it at once", "queue").
			WithHint(proto.Hint{Param: "queue", Detail: "drop it, or name the host (-s HOST:SESSION)"})
	}
	s := m.s
	// A nonce makes the message the person's own (verified human); a
	// nonce that is not the attached client's live one is refused rather
	// than sent as a claim. Checked before s.mu: isPerson takes it.
	verified := p.HumanNonce != "" && (cn == nil || cn.link == nil)
	if verified && !s.isPerson(cn, p.HumanNonce) {
		return nil, proto.Errorf(codeNotHuman, "send-agent-message as the person needs a live human nonce from an attached client").
			WithHint(proto.Hint{Detail: "answer mail in the Inbox of an attached client (prefix key then M, r on the thread)"})
	}
	s.mu.Lock()
	ss, err := s.session(cn, p.Session)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	from, fromLabel, claimed, err := m.senderLocked(cn, p.From)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	rate := rateKey(cn)
	if verified {
		from, fromLabel, claimed, rate = mail.Human, mail.Human, false, "human"
	}
	var to, toLabel string
	if p.To != "" && !m.replyToLinkLocked(cn, ss, p) { // link_mail.go: a reply to another machine is a notice
		if to, toLabel, err = m.inboxLocked(cn, ss, p.To); err != nil {
			s.mu.Unlock()
			return nil, err
		}
	}
	ring := m.ringLocked(ss)
	s.mu.Unlock()
	lk, err := m.fromLink(cn, ring, p, &to, &toLabel) // link_mail.go: origin, caps, attachments, held mail
	if err != nil {
		return nil, err
	}
	if from != "" && from == to {
		return nil, proto.Errorf(codeLoopRefused, "a pane cannot message itself").WithHint(proto.Hint{Param: "to", Detail: "send it to another inbox"})
	}
	msg, serr := ring.Send(mail.SendRequest{From: from, FromLabel: fromLabel, To: to, ToLabel: toLabel, Subject: p.Subject, Text: p.Text,
		ReplyTo: uint64(p.ReplyTo), Attachments: p.Attachments, ClaimedHuman: claimed, VerifiedHuman: verified, RateKey: rate,
		Origin: lk.origin, OriginHost: lk.host, Held: lk.held, HeldFor: lk.heldFor, HeldForLabel: lk.heldForLabel})
	if serr != nil {
		return nil, mailErr(serr)
	}
	s.hub.publish(event{Type: "agent-message", Session: ss.Name, Window: to})
	if msg.To == mail.Human {
		s.att.MailThread(ss.Name, ring, msg.ThreadID)
	}
	return map[string]any{"type": "agent_message_sent", "session": ss.Name, "message_id": msg.ID, "kind": msg.Kind, "to": msg.To,
		"to_name": msg.ToLabel, "id": msg.ID, "to_label": msg.ToLabel, "from": msg.From, "from_label": msg.FromLabel, "sent_at": msg.SentAt, "reply_to": msg.ReplyTo,
		"thread_id": msg.ThreadID, "reply_to_missing": msg.ReplyToMissing, "origin": msg.Origin, "origin_host": msg.OriginHost,
		"verified_human": msg.VerifiedHuman, "claimed_human": msg.ClaimedHuman, "held": msg.Held, "held_for": msg.HeldFor,
		"held_for_label": msg.HeldForLabel, "attachments": msg.Attachments}, nil
}

// stash resolves a session and returns its stash.
func (m *mailer) stash(cn *conn, session string) (*Session, *mail.Stash, *proto.Error) {
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	ss, err := m.s.session(cn, session)
	if err != nil {
		return nil, nil, err
	}
	return ss, m.ringLocked(ss).Stash(), nil
}

// open resolves a session and an optional inbox address and returns the
// session's ring. human says the inbox is the person's and the caller runs
// in a pane (such a read is served as a peek).
func (m *mailer) open(cn *conn, session, to string) (ss *Session, inbox string, ring *mail.Ring, human bool, err *proto.Error) {
	s := m.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss, err = s.session(cn, session); err != nil {
		return nil, "", nil, false, err
	}
	if to != "" {
		if inbox, _, err = m.inboxLocked(cn, ss, to); err != nil {
			return nil, "", nil, false, err
		}
	}
	human = inbox == mail.Human && (s.callerWindow(cn) != nil || cn != nil && cn.link != nil) // another machine only peeks at the person's mail
	return ss, inbox, m.ringLocked(ss), human, nil
}

func (m *mailer) read(cn *conn, p *readMessagesParams) (any, *proto.Error) {
	ss, inbox, ring, forced, err := m.open(cn, p.Session, p.To)
	if err != nil {
		return nil, err
	}
	forced = forced && !p.Peek
	res := ring.Read(mail.ReadOptions{Inbox: inbox, Unread: p.Unread, Notices: p.Notices, Peek: p.Peek || forced, Thread: uint64(p.Thread), Limit: p.Limit})
	if inbox == mail.Human && !p.Peek && !forced { // the person read: their Inbox rows follow
		seen := map[uint64]bool{}
		for _, msg := range res.Messages {
			if msg.WasUnread && !seen[msg.ThreadID] {
				seen[msg.ThreadID] = true
				m.s.att.MailThread(ss.Name, ring, msg.ThreadID)
			}
		}
	}
	return map[string]any{"type": "agent_messages", "session": ss.Name, "inbox": inbox, "thread": res.Thread, "untrusted": true,
		"messages": readMessages(res.Messages), "unread": res.Unread, "total": res.Total, "evicted": res.Evicted, "peek_forced": forced}, nil
}

// waitMail is wait-for's agent-message condition.
func (s *Server) waitMail(ctx context.Context, cn *conn, p *waitParams, result map[string]any, timedOut func(string) *proto.Error) (any, *proto.Error) {
	ss, inbox, ring, _, err := s.mail.open(cn, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	msg, werr := ring.Wait(ctx, mail.WaitOptions{Inbox: inbox, Thread: uint64(p.Thread)})
	if werr != nil {
		if errors.Is(werr, context.DeadlineExceeded) || errors.Is(werr, context.Canceled) {
			e := timedOut("a message")
			e.Hint = &proto.Hint{Command: "tuios read-agent-messages -s " + ss.Name, Detail: "nothing matched; read the session's mail to see what was said"}
			return nil, e
		}
		return nil, mailErr(werr)
	}
	result["session"], result["window"], result["message_id"], result["kind"] = ss.Name, inbox, msg.ID, msg.Kind
	result["from"], result["from_label"], result["subject"], result["thread_id"] = msg.From, msg.FromLabel, msg.Subject, msg.ThreadID
	return result, nil
}

func (m *mailer) ask(cn *conn, p *askAgentParams) (any, *proto.Error) {
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
	s := m.s
	s.mu.Lock()
	ss, w, err := s.target(cn, p.Session, p.Window)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	from, fromLabel, _, err := m.senderLocked(cn, p.From)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	ring, name := m.ringLocked(ss), w.DisplayName()
	s.mu.Unlock()
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

	ctx := cn.ctx // a client that hangs up ends its ask
	arb := s.tracker.Arbiter()
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
	screen := w.pane.Screen()
	base := contentLines(screen)
	snap = arb.Get(w.ID)
	if snap.State == agentstate.NeedsInput && !p.AllowBlocked {
		return nil, blocked(snap)
	}
	baseSeq := snap.CompletionSeq
	harness, gen, submitAt, err := s.typePrompt(cn, w, screen, p.Text)
	if err != nil {
		return nil, err
	}

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
			w.mu.Lock()
			gen = w.outputGen
			w.mu.Unlock()
		case <-sub.C:
		case <-stall.C:
			record("", "stalled")
			return nil, proto.Errorf(codePromptStalled, "%s showed no sign of taking the question within %dms; the text was typed", name, stallTimeout.Milliseconds()).
				WithHint(proto.Hint{Command: "tuios capture-pane -w " + w.ID[:8], Detail: "do not resend blindly: look at the pane first"})
		case <-w.exitCh:
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
		w.mu.Lock()
		last, g := w.lastOutput, w.outputGen
		w.mu.Unlock()
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
		case <-w.exitCh:
			settledBy = "window-closed"
		case <-s.done:
			settledBy = "shutdown"
		case <-ctx.Done():
			return nil, proto.Errorf(proto.CodeTimeout, "the asker hung up")
		}
	}
	if settledBy == "agent-state" && w.isProtocol() {
		w.settleOutput(50*time.Millisecond, 500*time.Millisecond) // start_agent.go
	}
	reply, truncated := replyLines(base, contentLines(screen), maxLines)
	record(strings.Join(reply, "\n"), settledBy)
	return map[string]any{"type": "agent_reply", "session": ss.Name, "window": w.ID, "name": name, "waited_for": waited.Milliseconds(),
		"settled_by": settledBy, "state": arb.Brief(w.ID).State.String(), "untrusted": true, "reply": strings.Join(reply, "\n"),
		"lines": len(reply), "truncated": truncated}, nil
}

// pasteDraw and pasteDrawAgent bound how long typePrompt waits for a
// pane to draw a paste before the submit key: a program that may never
// draw it, and an agent's harness, which does.
const (
	pasteDraw      = 300 * time.Millisecond
	pasteDrawAgent = 2 * time.Second
)

// typePrompt types text into w as one prompt, the way ask-agent and the
// reply queue (queue.go) both do: one paste (bracketed when the pane has
// DECSET 2004 on and the harness's manifest allows it, else one line, since
// a newline would submit early), trailing newlines dropped, paste
// delimiters stripped, up to pasteDraw (pasteDrawAgent for an agent's
// bracketed paste) for the pane to draw the paste (less
// once it drew and went quiet, at least the manifest's submit_delay_ms),
// then the harness's submit key. It returns
// the harness it typed for, the output generation read just before the
// submit (closed by the first chunk after it) and when the submit went
// out, by the daemon's clock. cn's context ends the waits.
func (s *Server) typePrompt(cn *conn, w *Window, screen *vt.Screen, text string) (harness string, gen chan struct{}, submitAt time.Time, err *proto.Error) {
	ctx := cn.ctx
	harness = s.tracker.Arbiter().Brief(w.ID).Harness
	input := detect.InputSpec{BracketedPaste: true, Submit: "cr"}
	if reg := s.tracker.Detector().Registry(); reg != nil && harness != "" {
		if man, ok := reg.Lookup(harness); ok {
			input = man.Input
		}
	}
	text = strings.NewReplacer("\x1b[200~", "", "\x1b[201~", "").Replace(text)
	text = strings.TrimRight(text, "\r\n")
	var paste string
	if input.BracketedPaste && screen.Mode(vt.ModeBracketedPaste) {
		paste = "\x1b[200~" + text + "\x1b[201~"
	} else { // no paste mode: newlines would submit early, so one line
		paste = strings.Join(strings.Fields(strings.ReplaceAll(text, "\r", "\n")), " ")
	}
	w.mu.Lock()
	gen = w.outputGen
	w.mu.Unlock()
	if err := s.typeInto(cn, w, []byte(paste), 0); err != nil {
		return harness, gen, time.Time{}, err
	}
	// Up to pasteDraw for the pane to draw the paste (an agent's own
	// harness draws a bracketed paste, but a busy machine can take more
	// than 300 ms to: an Enter before the draw is taken into the paste by
	// some, and the prompt stays unsent); less once it drew and went
	// quiet, but never under the harness's submit_delay_ms.
	pastedAt := time.Now()
	drawWait := pasteDraw
	if harness != "" && strings.HasPrefix(paste, "\x1b[200~") {
		drawWait = pasteDrawAgent
	}
	drawDeadline := time.NewTimer(drawWait)
	func() {
		defer drawDeadline.Stop()
		select {
		case <-gen:
		case <-drawDeadline.C:
			return
		case <-ctx.Done():
			return
		}
		for {
			w.mu.Lock()
			gen = w.outputGen
			w.mu.Unlock()
			select {
			case <-gen:
			case <-time.After(50 * time.Millisecond):
				return
			case <-drawDeadline.C:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	if gap := time.Duration(input.SubmitDelayMS)*time.Millisecond - time.Since(pastedAt); gap > 0 {
		select {
		case <-time.After(gap):
		case <-ctx.Done():
		}
	}
	if input.FocusBeforeSubmit && screen.Mode(vt.ModeFocusReporting) {
		s.focusIn(cn, w)
	}
	w.mu.Lock()
	gen = w.outputGen
	w.mu.Unlock()
	submitAt = s.clock.Now()
	if err := s.typeInto(cn, w, []byte(input.SubmitKey()), 0); err != nil {
		return harness, gen, submitAt, err
	}
	w.pane.Typed()
	return harness, gen, submitAt, nil
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
