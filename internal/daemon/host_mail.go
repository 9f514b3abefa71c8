package daemon

import (
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// What the agent mail feature (internal/daemon/mailbox) reads of the
// core, and the core's hooks it uses: kept together so the feature's
// seam is in one place.

// OnSessionClosed adds a hook the hub runs after it sent a
// session-closed event out (events.go).
func (h host) OnSessionClosed(fn func(core.Event)) {
	h.registering()
	h.s.hub.Hook("session-closed", fn)
}

// MailTo is the session's ring from the mail feature, while window is
// one of its panes.
func (h host) MailTo(session, window string) *mail.Ring {
	s := h.s
	ss := s.tab.SessionNamed(session) // table.go; a session's name and id never change
	if ss == nil || s.tab.WindowByID(window) == nil {
		return nil
	}
	return s.mail.Ring(ss.Name, ss.ID)
}

func (h host) MailThread(session string, ring *mail.Ring, thread uint64) {
	h.s.att.MailThread(session, ring, thread)
}

func (h host) LinkMail(c core.Call) (string, bool) {
	cn, _ := c.(*conn)
	if cn == nil || cn.link == nil {
		return "", false
	}
	return linkName(cn), h.s.policyFor(cn.link.name).HoldMail
}

func (h host) MailHost(c core.Call, p *proto.SendMessageParams) (any, *proto.Error) {
	cn, _ := c.(*conn)
	return h.s.sendToHost(cn, p) // outbox_verbs.go
}

// agent_launch.go
