package daemon

// The Inbox's verbs are the attention set's (attn.Store); what stays here
// is what they read of the rest of the daemon: the follow of linked
// hosts' Inboxes (followInbox: the links', links/follow_list.go) and what
// a dismiss asks of the daemon (afterDismiss).

import (
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/links"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// codeUnknownHost refuses a host list-attention does not know.
const codeUnknownHost = links.CodeUnknownHost

// codeHostUnreachable refuses a call to a host whose link is not up.
const codeHostUnreachable = links.CodeHostUnreachable

// afterDismiss does what a dismiss asks of the daemon besides its close:
// a finished turn is seen, a thread's mail to the person read.
func (s *Server) afterDismiss(d inbox.Dismissed) {
	if d.ForHost != "" && d.Host == "" { // this machine's outbox row: its waiting mail goes (outbox.go)
		s.discardOutbox(d.ForHost)
	}
	if d.MarkSeen != "" {
		s.tracker.Arbiter().MarkSeen(d.MarkSeen)
	}
	if d.ReadSession != "" && d.ReadThread != 0 {
		var ring *mail.Ring
		if ss := s.tab.SessionNamed(d.ReadSession); ss != nil { // table.go; a session's name and id never change
			ring = s.mail.Existing(ss.Name, ss.ID)
		}
		if ring != nil {
			ring.Read(mail.ReadOptions{Inbox: mail.Human, Thread: d.ReadThread, Limit: -1})
		}
	}
}

// followInbox is the follow of linked hosts' Inboxes (links.Follow) as
// the Inbox's verbs use it (attn.Hosts): the same, but for mark's
// params, which are the attention set's.
type followInbox struct{ *links.Follow }

func (x followInbox) Mark(p *proto.MarkAttentionParams) (any, *proto.Error) {
	return x.Follow.Mark(links.Mark{ID: p.ID, Action: p.Action, Until: p.Until, ForMS: p.ForMS, UntilChange: p.UntilChange})
}
