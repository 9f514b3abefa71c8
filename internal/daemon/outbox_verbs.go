package daemon

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/daemon/links"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// The outbox in the daemon: send-agent-message's host branch (the outbox
// itself, its wiring to the links and list-outbox are the links
// feature's: links/outbox.go, links/outbox_link.go, links/verbs.go).

// outboxWaiting is how many messages wait for host: list-hosts' queued.
func (s *Server) outboxWaiting(host string) int {
	if s.outbox == nil {
		return 0
	}
	return s.outbox.Waiting(host)
}

// discardOutbox drops what waits for host: its Inbox row was dismissed.
func (s *Server) discardOutbox(host string) {
	if s.outbox != nil {
		s.outbox.Discard(host)
	}
}

// sendToHost is send-agent-message with a host that is not this machine:
// the checks that need nothing of the far side, then a try over the link,
// and the outbox only when the sender asked for it (queue).
func (m *mailer) sendToHost(cn *conn, p *sendMessageParams) (any, *proto.Error) {
	s := m.s
	host := p.Host
	if cn != nil && cn.link != nil {
		return nil, proto.Errorf(proto.CodeForbidden, "mail that came over a link is not passed on to another machine").
			WithHint(proto.Hint{Param: "host", Detail: "send it from the machine the mail is for"})
	}
	// Text, subject and attachment count first, as a local send checks
	// them: nothing the far side would refuse for its shape waits here.
	switch {
	case strings.TrimSpace(p.Text) == "":
		return nil, proto.Errorf(proto.CodeInvalidParams, "the message text is blank").WithHint(proto.Hint{Param: "text", Detail: "say something: the text is the message"})
	case len(p.Text) > mail.MaxBodyBytes:
		return nil, proto.Errorf(proto.CodeInvalidParams, "the text is %d bytes, over the %d-byte cap", len(p.Text), mail.MaxBodyBytes).
			WithHint(proto.Hint{Param: "text", Detail: "stash a file there and attach it (tuios stash put -s HOST:SESSION FILE)"})
	case utf8.RuneCountInString(p.Subject) > mail.MaxSubjectChars:
		return nil, proto.Errorf(proto.CodeInvalidParams, "the subject is %d characters, over the %d-character cap", utf8.RuneCountInString(p.Subject), mail.MaxSubjectChars).
			WithHint(proto.Hint{Param: "subject", Detail: "shorten the subject; the body carries the detail"})
	case len(p.Attachments) > mail.MaxAttachments:
		return nil, proto.Errorf(proto.CodeInvalidParams, "%d attachments, over the cap of %d", len(p.Attachments), mail.MaxAttachments).
			WithHint(proto.Hint{Param: "attachments", Detail: "send fewer, or several messages"})
	}
	for _, a := range p.Attachments {
		if !strings.HasPrefix(a, "/") || len(a) > links.OutboxMaxField {
			return nil, proto.Errorf(proto.CodeInvalidParams, "attachment %q is not an absolute path", a).
				WithHint(proto.Hint{Param: "attachments", Detail: "attach the path stash put -s " + host + ":SESSION FILE printed"})
		}
	}
	if len(p.Session) > links.OutboxMaxField || len(p.To) > links.OutboxMaxField {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the session or inbox name is too long").WithHint(proto.Hint{Param: "session"})
	}
	if !hosts.ValidName(host) || s.outbox.LinkStatus(host) == "" {
		return nil, m.unknownHost(cn, host)
	}
	// The sender as that machine will see it: a label, never resolved
	// there. A pane is itself (its name unless it gave a label); human
	// is a claim only a caller outside every pane may make, and it
	// arrives there as claimed_human.
	from := p.From
	s.mu.Lock()
	if w := s.callerWindow(cn); w != nil {
		if from == mail.Human {
			s.mu.Unlock()
			return nil, proto.Errorf(proto.CodeForbidden, "a pane cannot write as human").
				WithHint(proto.Hint{Param: "from", Detail: "only the person at an attached client is human; sign with your own name"})
		}
		if from == "" || from == w.ID {
			from = w.DisplayName()
		}
	}
	s.mu.Unlock()
	msg := links.OutboxMsg{Host: host, Session: p.Session, To: p.To, From: from, Subject: p.Subject, Text: p.Text,
		ReplyTo: p.ReplyTo, Attachments: p.Attachments, QueuedAt: s.clock.Now().UnixNano()}
	ctx := context.Background()
	if cn != nil && cn.ctx != nil {
		ctx = cn.ctx
	}
	res, err := s.outbox.Send(ctx, msg, p.Queue)
	if err != nil {
		return nil, err
	}
	if res == nil {
		res = map[string]any{}
	}
	if res["type"] != "agent_message_queued" { // the far daemon's answer: its word about its own ring
		res["host"], res["untrusted"] = host, true
	}
	return res, nil
}

// unknownHost is the refusal for a host that is not configured, naming
// the configured ones as the links know them.
func (m *mailer) unknownHost(cn *conn, host string) *proto.Error {
	ctx := context.Background()
	if cn != nil && cn.ctx != nil {
		ctx = cn.ctx
	}
	// Call says unknown_host with the configured names for a host
	// Status does not know, without dialling anything.
	if err := m.s.links.Call(ctx, host, "hello", nil, nil); err != nil && err.Code == codeUnknownHost {
		return err
	}
	return proto.Errorf(codeUnknownHost, "no host is named %q", host).
		WithHint(proto.Hint{Param: "host", Command: "tuios hosts", Detail: "add it with tuios hosts add NAME ADDR"})
}
