package links

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// Mail to a session on another machine: send-agent-message with a host.
// The daemon's mail verb refuses what a link may not pass on and names
// the sender (From) as that machine will see it; the rest is here.

// CheckMail refuses a message for m.Host before anything is tried: the
// checks that need nothing of the far side (text, subject and attachment
// count first, as a local send checks them: nothing the far side would
// refuse for its shape waits here), then a host that is not configured.
func (ls *Links) CheckMail(ctx context.Context, m OutboxMsg) *proto.Error {
	switch {
	case strings.TrimSpace(m.Text) == "":
		return proto.Errorf(proto.CodeInvalidParams, "the message text is blank").WithHint(proto.Hint{Param: "text", Detail: "say something: the text is the message"})
	case len(m.Text) > mail.MaxBodyBytes:
		return proto.Errorf(proto.CodeInvalidParams, "the text is %d bytes, over the %d-byte cap", len(m.Text), mail.MaxBodyBytes).
			WithHint(proto.Hint{Param: "text", Detail: "stash a file there and attach it (tuios stash put -s HOST:SESSION FILE)"})
	case utf8.RuneCountInString(m.Subject) > mail.MaxSubjectChars:
		return proto.Errorf(proto.CodeInvalidParams, "the subject is %d characters, over the %d-character cap", utf8.RuneCountInString(m.Subject), mail.MaxSubjectChars).
			WithHint(proto.Hint{Param: "subject", Detail: "shorten the subject; the body carries the detail"})
	case len(m.Attachments) > mail.MaxAttachments:
		return proto.Errorf(proto.CodeInvalidParams, "%d attachments, over the cap of %d", len(m.Attachments), mail.MaxAttachments).
			WithHint(proto.Hint{Param: "attachments", Detail: "send fewer, or several messages"})
	}
	for _, a := range m.Attachments {
		if !strings.HasPrefix(a, "/") || len(a) > OutboxMaxField {
			return proto.Errorf(proto.CodeInvalidParams, "attachment %q is not an absolute path", a).
				WithHint(proto.Hint{Param: "attachments", Detail: "attach the path stash put -s " + m.Host + ":SESSION FILE printed"})
		}
	}
	if len(m.Session) > OutboxMaxField || len(m.To) > OutboxMaxField {
		return proto.Errorf(proto.CodeInvalidParams, "the session or inbox name is too long").WithHint(proto.Hint{Param: "session"})
	}
	if !hosts.ValidName(m.Host) || ls.outbox.LinkStatus(m.Host) == "" {
		return ls.unknownHost(ctx, m.Host)
	}
	return nil
}

// unknownHost is the refusal for a host that is not configured, naming
// the configured ones as the links know them.
func (ls *Links) unknownHost(ctx context.Context, host string) *proto.Error {
	// Call says unknown_host with the configured names for a host
	// Status does not know, without dialling anything.
	if err := ls.Call(ctx, host, "hello", nil, nil); err != nil && err.Code == CodeUnknownHost {
		return err
	}
	return proto.Errorf(CodeUnknownHost, "no host is named %q", host).
		WithHint(proto.Hint{Param: "host", Command: "tuios hosts", Detail: "add it with tuios hosts add NAME ADDR"})
}

// Mail sends m, which passed CheckMail, to its host: one try over the
// link, and the outbox only when keep (the sender asked for it with
// queue). The far daemon's answer is its word about its own ring: it is
// marked untrusted, with the host.
func (ls *Links) Mail(ctx context.Context, m OutboxMsg, keep bool) (map[string]any, *proto.Error) {
	res, err := ls.outbox.Send(ctx, m, keep)
	if err != nil {
		return nil, err
	}
	if res == nil {
		res = map[string]any{}
	}
	if res["type"] != "agent_message_queued" { // the far daemon's answer: its word about its own ring
		res["host"], res["untrusted"] = m.Host, true
	}
	return res, nil
}
