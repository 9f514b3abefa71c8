package mailbox

import (
	"context"
	"errors"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// WaitFor is what wait-for's agent-message condition waits on.
type WaitFor struct {
	Session string // the session param ("": the caller's, else the most recently active)
	Inbox   string // the inbox (a window or human); "" for any mail of the session
	Thread  uint64 // only this thread; 0 for any
}

// Wait is wait-for's agent-message condition, which the daemon's New
// hands wait-for (internal/daemon/waitfor): it waits until ctx ends for a
// message that matches w and answers with it (proto.MessageWaitResult);
// timedOut makes the refusal when nothing came.
func (m *Mail) Wait(ctx context.Context, c core.Call, w WaitFor, timedOut func(string) *proto.Error) (any, *proto.Error) {
	o, err := m.open(c, w.Session, w.Inbox)
	if err != nil {
		return nil, err
	}
	msg, werr := o.ring.Wait(ctx, mail.WaitOptions{Inbox: o.inbox, Thread: w.Thread})
	if werr != nil {
		if errors.Is(werr, context.DeadlineExceeded) || errors.Is(werr, context.Canceled) {
			e := timedOut("a message")
			e.Hint = &proto.Hint{Command: "tuios read-agent-messages -s " + o.session, Detail: "nothing matched; read the session's mail to see what was said"}
			return nil, e
		}
		return nil, mailErr(werr)
	}
	return &proto.MessageWaitResult{Type: "wait_result", Condition: "agent-message", Matched: true, Session: o.session, Window: o.inbox,
		MessageID: msg.ID, Kind: string(msg.Kind), From: msg.From, FromLabel: msg.FromLabel, Subject: msg.Subject, ThreadID: msg.ThreadID}, nil
}
