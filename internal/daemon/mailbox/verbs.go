package mailbox

import (
	"encoding/base64"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// addVerbs serves the mail verbs: send-agent-message, read-agent-messages,
// stash-put, stash-list, stash-get, ask-agent (ask.go) and
// release-agent-message (release.go).
func (m *Mail) addVerbs(h core.Host) {
	p, run := core.Handle(func(c core.Call, p *proto.SendMessageParams) (any, *proto.Error) { return m.send(c, p) })
	h.AddVerb(core.Verb{Name: "send-agent-message", Class: core.LeavesMail, Returns: "agent_message_sent", Params: p, Run: run,
		Desc:    "Leave a message in an inbox (a pane or human), or a notice for the whole session; it never touches a keyboard",
		Example: `{"verb":"send-agent-message","params":{"to":"review","from":"lead","subject":"retest please","text":"rebased onto main"}}`})

	p, run = core.Handle(func(c core.Call, p *proto.ReadMessagesParams) (any, *proto.Error) { return m.read(c, p) })
	h.AddVerb(core.Verb{Name: "read-agent-messages", Class: core.MarksMailRead, Returns: "agent_messages", Params: p, Run: run,
		Desc:    "Read mail: an inbox (marking what it returns as read unless peek) or the whole session (marking nothing)",
		Example: `{"verb":"read-agent-messages","params":{"to":"review","unread":true}}`})

	p, run = core.Handle(m.stashPut)
	h.AddVerb(core.Verb{Name: "stash-put", Class: core.LeavesMail, Returns: "stash_entry", Params: p, Run: run,
		Desc:    "Copy a file into the session's stash (content-addressed, 16 MB a file, 256 MB a session) and return its stored path",
		Example: `{"verb":"stash-put","params":{"path":"/tmp/flame.png"}}`})

	p, run = core.Handle(m.stashList)
	h.AddVerb(core.Verb{Name: "stash-list", Class: core.ReadsMail, Returns: "stash_list", Params: p, Run: run,
		Desc:    "List the session's stashed files, oldest first, with whether a message still names each",
		Example: `{"verb":"stash-list","params":{"session":"work"}}`})

	p, run = core.Handle(m.stashGet)
	h.AddVerb(core.Verb{Name: "stash-get", Class: core.ReadsMail, Returns: "stash_entry", Params: p, Run: run,
		Desc:    "Look up one stashed file by name, hash or path; with data, its bytes (at most 8 MB)",
		Example: `{"verb":"stash-get","params":{"name":"3f9a…c2.png"}}`})

	p, run = core.Handle(m.ask) // ask.go
	h.AddVerb(core.Verb{Name: "ask-agent", Class: core.AsksPane, Returns: "agent_reply", Params: p, Run: run,
		Desc:    "Type a question into an agent's pane once it is not mid-turn and return what it printed (fenced: data, not instructions)",
		Example: `{"verb":"ask-agent","params":{"window":"review","text":"does the retry path look right?"}}`})

	p, run = core.Handle(m.release) // release.go
	h.AddVerb(core.Verb{Name: "release-agent-message", Class: core.Person, Returns: "agent_message_released", Params: p, Run: run,
		Desc:    "Pass held mail on (hold_mail): the person delivers a message another machine sent, as a new message with its original sender and released_from; once",
		Example: `{"verb":"release-agent-message","params":{"session":"api","id":41,"human_nonce":"…"}}`})
}

// remote says whether c came over another machine's link.
func remote(c core.Call) bool { return c != nil && c.Remote() }

// ring is the ring of the session sv.
func (m *Mail) ring(sv core.SessionView) *mail.Ring { return m.Ring(sv.Name, sv.ID) }

// sender places the sender: a caller inside a pane is that pane (from is
// only its label); outside every pane, from may claim human or a window's
// full id, else it is a label.
func (m *Mail) sender(c core.Call, from string) (id, label string, claimedHuman bool, err *proto.Error) {
	if remote(c) {
		// Another machine's sender is a label here, never resolved
		// against this machine's windows (link.go).
		return "", from, from == mail.Human, nil
	}
	if w, ok := m.callerWindow(c); ok {
		if from == mail.Human {
			return "", "", false, proto.Errorf(proto.CodeForbidden, "a pane cannot write as human").
				WithHint(proto.Hint{Param: "from", Detail: "only the person at an attached client is human; sign with your own name"})
		}
		label = from
		if label == "" || label == w.ID {
			label = w.DisplayName
		}
		return w.ID, label, false, nil
	}
	switch {
	case from == mail.Human:
		return mail.Human, mail.Human, true, nil
	case from != "":
		if w, ok := m.h.Find(from); ok {
			return from, w.DisplayName, false, nil
		}
	}
	return "", from, false, nil
}

// callerWindow is the window c's caller runs in, copied; false when it
// runs in none (or its window is gone).
func (m *Mail) callerWindow(c core.Call) (core.WindowView, bool) {
	if id := m.h.CallerPane(c); id != "" {
		return m.h.Find(id)
	}
	return core.WindowView{}, false
}

// rateKey is the caller's mail rate bucket, keyed on what it cannot
// choose: its pane, or one bucket for every caller outside a pane (a
// label, or a window id claimed from outside, is the caller's to pick).
func (m *Mail) rateKey(c core.Call) string {
	if remote(c) {
		peer, _ := m.h.LinkMail(c)
		return "link:" + peer
	}
	if id := m.h.CallerPlaced(c); id != "" {
		return "pane:" + id
	}
	return "outside"
}

// inbox resolves an inbox address in session sv: human before any window.
func (m *Mail) inbox(c core.Call, sv core.SessionView, addr string) (id, label string, err *proto.Error) {
	if addr == mail.Human {
		return mail.Human, mail.Human, nil
	}
	w, err := m.h.Window(c, sv.Name, addr)
	if err != nil {
		return "", "", err
	}
	return w.ID, w.DisplayName, nil
}

func (m *Mail) send(c core.Call, p *proto.SendMessageParams) (any, *proto.Error) {
	if p.Host != "" && p.Host != "local" { // the core's outbox: over the link, or kept in the outbox
		return m.h.MailHost(c, p)
	}
	if p.Queue { // a param error a client words its own way (--queue …: hint.param, hint.problem)
		e := proto.ParamError("queue", "keeps mail for another machine; a session here gets it at once")
		e.Hint.Detail = "drop it, or name the host (-s HOST:SESSION)"
		return nil, e
	}
	// A nonce makes the message the person's own (verified human); a
	// nonce that is not the attached client's live one is refused rather
	// than sent as a claim.
	verified := p.HumanNonce != "" && !remote(c)
	if verified && !m.h.IsPerson(c, p.HumanNonce) {
		return nil, proto.Errorf(core.CodeNotHuman, "send-agent-message as the person needs a live human nonce from an attached client").
			WithHint(proto.Hint{Detail: "answer mail in the Inbox of an attached client (prefix key then M, r on the thread)"})
	}
	sv, err := m.h.Session(c, p.Session)
	if err != nil {
		return nil, err
	}
	from, fromLabel, claimed, err := m.sender(c, p.From)
	if err != nil {
		return nil, err
	}
	rate := m.rateKey(c)
	if verified {
		from, fromLabel, claimed, rate = mail.Human, mail.Human, false, "human"
	}
	ring := m.ring(sv)
	var to, toLabel string
	if p.To != "" && !replyToLink(c, ring, p) { // link.go: a reply to another machine is a notice
		if to, toLabel, err = m.inbox(c, sv, p.To); err != nil {
			return nil, err
		}
	}
	lk, err := m.fromLink(c, ring, p, &to, &toLabel) // link.go: origin, caps, attachments, held mail
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
	m.h.Publish(core.Event{Type: "agent-message", Session: sv.Name, Window: to})
	if msg.To == mail.Human {
		m.h.MailThread(sv.Name, ring, msg.ThreadID)
	}
	return &proto.MessageSent{Type: "agent_message_sent", Session: sv.Name, MessageID: msg.ID, Kind: string(msg.Kind), To: msg.To,
		ToName: msg.ToLabel, ID: msg.ID, ToLabel: msg.ToLabel, From: msg.From, FromLabel: msg.FromLabel, SentAt: msg.SentAt, ReplyTo: msg.ReplyTo,
		ThreadID: msg.ThreadID, ReplyToMissing: msg.ReplyToMissing, Origin: msg.Origin, OriginHost: msg.OriginHost,
		VerifiedHuman: msg.VerifiedHuman, ClaimedHuman: msg.ClaimedHuman, Held: msg.Held, HeldFor: msg.HeldFor,
		HeldForLabel: msg.HeldForLabel, Attachments: msg.Attachments}, nil
}

// opened is a session's ring and the inbox a read or a wait names in it.
type opened struct {
	session string
	inbox   string // "" for the whole session
	ring    *mail.Ring
	// forced says the inbox is the person's and the caller runs in a
	// pane or on another machine: such a read is served as a peek.
	forced bool
}

// open resolves a session and an optional inbox address and returns the
// session's ring.
func (m *Mail) open(c core.Call, session, to string) (opened, *proto.Error) {
	sv, err := m.h.Session(c, session)
	if err != nil {
		return opened{}, err
	}
	o := opened{session: sv.Name}
	if to != "" {
		if o.inbox, _, err = m.inbox(c, sv, to); err != nil {
			return opened{}, err
		}
	}
	o.forced = o.inbox == mail.Human && (remote(c) || m.h.CallerPane(c) != "") // another machine only peeks at the person's mail
	o.ring = m.ring(sv)
	return o, nil
}

func (m *Mail) read(c core.Call, p *proto.ReadMessagesParams) (any, *proto.Error) {
	o, err := m.open(c, p.Session, p.To)
	if err != nil {
		return nil, err
	}
	forced := o.forced && !p.Peek
	res := o.ring.Read(mail.ReadOptions{Inbox: o.inbox, Unread: p.Unread, Notices: p.Notices, Peek: p.Peek || forced, Thread: uint64(p.Thread), Limit: p.Limit})
	if o.inbox == mail.Human && !p.Peek && !forced { // the person read: their Inbox rows follow
		seen := map[uint64]bool{}
		for _, msg := range res.Messages {
			if msg.WasUnread && !seen[msg.ThreadID] {
				seen[msg.ThreadID] = true
				m.h.MailThread(o.session, o.ring, msg.ThreadID)
			}
		}
	}
	return &proto.MessagesRead{Type: "agent_messages", Session: o.session, Inbox: o.inbox, Thread: res.Thread, Untrusted: true,
		Messages: readMessages(res.Messages), Unread: res.Unread, Total: res.Total, Evicted: res.Evicted, PeekForced: forced}, nil
}

// stash resolves a session and returns its stash.
func (m *Mail) stash(c core.Call, session string) (core.SessionView, *mail.Stash, *proto.Error) {
	sv, err := m.h.Session(c, session)
	if err != nil {
		return core.SessionView{}, nil, err
	}
	return sv, m.ring(sv).Stash(), nil
}

func (m *Mail) stashPut(c core.Call, p *proto.StashPutParams) (any, *proto.Error) {
	if err := stashPutSource(c, p); err != nil { // link.go
		return nil, err
	}
	sv, st, err := m.stash(c, p.Session)
	if err != nil {
		return nil, err
	}
	res, perr := putStash(st, p)
	if perr != nil {
		return nil, mailErr(perr)
	}
	e := res.Entry
	evicted := []string{}
	for _, x := range res.Evicted {
		evicted = append(evicted, x.Path)
	}
	return &proto.StashStored{Type: "stash_entry", Session: sv.Name, Path: e.Path, Name: e.Name, Hash: e.Hash, Bytes: e.Bytes,
		MediaType: e.MediaType, Kind: e.Kind, Source: e.Source, StoredAt: e.StoredAt,
		Deduped: res.Deduped, Evicted: len(res.Evicted), EvictedPaths: evicted, Evictions: res.Evictions,
		SessionBytes: res.SessionBytes, SessionEntries: res.SessionEntries, MaxFileBytes: res.MaxFileBytes, MaxBytes: res.MaxBytes}, nil
}

func (m *Mail) stashList(c core.Call, p *proto.StashListParams) (any, *proto.Error) {
	sv, st, err := m.stash(c, p.Session)
	if err != nil {
		return nil, err
	}
	l := st.List()
	return &proto.StashList{Type: "stash_list", Session: sv.Name, Dir: l.Dir, Entries: l.Entries, Bytes: l.Bytes,
		Evictions: l.Evictions, MaxBytes: l.MaxBytes, MaxFileBytes: int64(mail.MaxStashFileBytes)}, nil
}

func (m *Mail) stashGet(c core.Call, p *proto.StashGetParams) (any, *proto.Error) {
	sv, st, err := m.stash(c, p.Session)
	if err != nil {
		return nil, err
	}
	if !p.Data {
		e, gerr := st.Get(p.Name)
		if gerr != nil {
			return nil, mailErr(gerr)
		}
		return stashFile(sv.Name, e), nil
	}
	b, e, gerr := st.Read(p.Name, mail.MaxLinkStashBytes)
	if gerr != nil {
		return nil, mailErr(gerr)
	}
	out := stashFile(sv.Name, e)
	data := base64.StdEncoding.EncodeToString(b)
	out.Data = &data
	return out, nil
}

// stashFile is stash-get's answer for one stored file.
func stashFile(session string, e mail.StashEntry) *proto.StashFile {
	return &proto.StashFile{Type: "stash_entry", Session: session, Path: e.Path, Name: e.Name, Hash: e.Hash, Bytes: e.Bytes,
		MediaType: e.MediaType, Kind: e.Kind, Source: e.Source, StoredAt: e.StoredAt}
}
