package mailbox

import (
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// release is release-agent-message: the person passes on a message
// another machine's link sent while hold_mail held it for them (link.go),
// as a new message to the inbox it was meant for.
func (m *Mail) release(c core.Call, p *proto.ReleaseMessageParams) (any, *proto.Error) {
	if !m.h.IsPerson(c, p.HumanNonce) {
		return nil, proto.Errorf(core.CodeNotHuman, "release-agent-message acts as the person: it needs a live human nonce from an attached client").
			WithHint(proto.Hint{Param: "human_nonce", Detail: "pass it on from the Inbox of an attached client (p on the held mail row)"})
	}
	id := uint64(p.ID)
	var sv core.SessionView
	var ring *mail.Ring
	var held mail.Message
	if p.Session != "" {
		var err *proto.Error
		if sv, err = m.h.Session(c, p.Session); err != nil {
			return nil, err
		}
		ring = m.ring(sv)
		held, _ = ring.Get(id)
	} else {
		// Ids are daemon-wide: the ring that holds it, sessions in
		// creation order.
		for _, x := range m.h.View(nil).Sessions {
			r := m.Existing(x.Name, x.ID)
			if r == nil {
				continue
			}
			if msg, ok := r.Get(id); ok {
				sv, ring, held = x, r, msg
				break
			}
		}
	}
	if ring == nil || held.ID == 0 || !held.Held || held.ReleasedAs != 0 {
		// The ring's own refusal says which of these it is.
		if ring == nil {
			return nil, proto.Errorf(proto.CodeInvalidParams, "no session holds message %d", id).
				WithHint(proto.Hint{Param: "id", Command: "tuios read-agent-messages -w human"})
		}
		_, _, err := ring.Release(id, "", "")
		return nil, mailErr(err)
	}
	to, toLabel := held.HeldFor, ""
	if to != "" {
		w, ok := m.h.Find(to)
		if !ok || w.SessionID != sv.ID {
			return nil, proto.Errorf(proto.CodeWindowNotFound, "the window the mail was meant for (%s) has closed", core.Clip(held.HeldForLabel, 64)).
				WithHint(proto.Hint{Param: "id", Command: "tuios list-windows -s " + sv.Name, Detail: "the held message stays with you; forward its text by hand if a new pane should have it"})
		}
		toLabel = w.DisplayName
	}
	h, msg, rerr := ring.Release(id, to, toLabel)
	if rerr != nil {
		return nil, mailErr(rerr)
	}
	m.h.Publish(core.Event{Type: "agent-message", Session: sv.Name, Window: to})
	m.h.MailThread(sv.Name, ring, h.ThreadID) // the held row reads passed on
	return &proto.MessageReleased{Type: "agent_message_released", Session: sv.Name, HeldID: h.ID, MessageID: msg.ID,
		To: msg.To, ToName: msg.ToLabel, ThreadID: msg.ThreadID, Kind: string(msg.Kind), Origin: msg.Origin, OriginHost: msg.OriginHost}, nil
}
