package daemon

import (
	"context"

	"github.com/tuios/tuios/internal/daemon/links"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// The outbox in the daemon: send-agent-message's host branch (the outbox
// itself, its wiring to the links and list-outbox are the links
// feature's: links/outbox.go, links/outbox_link.go, links/verbs.go).

// discardOutbox drops what waits for host: its Inbox row was dismissed.
func (s *Server) discardOutbox(host string) {
	if s.outbox != nil {
		s.outbox.Discard(host)
	}
}

// sendToHost is send-agent-message with a host that is not this machine:
// mail that came over a link is not passed on; the links check the
// message (links/mail.go), the sender is named as that machine will see
// it, and the links try it over the link, keeping it only when the
// sender asked for it (queue).
func (s *Server) sendToHost(cn *conn, p *proto.SendMessageParams) (any, *proto.Error) {
	if cn != nil && cn.link != nil {
		return nil, proto.Errorf(proto.CodeForbidden, "mail that came over a link is not passed on to another machine").
			WithHint(proto.Hint{Param: "host", Detail: "send it from the machine the mail is for"})
	}
	ctx := context.Background()
	if cn != nil && cn.ctx != nil {
		ctx = cn.ctx
	}
	msg := links.OutboxMsg{Host: p.Host, Session: p.Session, To: p.To, Subject: p.Subject, Text: p.Text,
		ReplyTo: p.ReplyTo, Attachments: p.Attachments}
	if err := s.links.CheckMail(ctx, msg); err != nil {
		return nil, err
	}
	// The sender as that machine will see it: a label, never resolved
	// there. A pane is itself (its name unless it gave a label); human
	// is a claim only a caller outside every pane may make, and it
	// arrives there as claimed_human.
	from := p.From
	if id, label, ok := s.tab.CallerLabel(cn); ok { // table.go
		if from == mail.Human {
			return nil, proto.Errorf(proto.CodeForbidden, "a pane cannot write as human").
				WithHint(proto.Hint{Param: "from", Detail: "only the person at an attached client is human; sign with your own name"})
		}
		if from == "" || from == id {
			from = label
		}
	}
	msg.From, msg.QueuedAt = from, s.clock.Now().UnixNano()
	return s.links.Mail(ctx, msg, p.Queue)
}
