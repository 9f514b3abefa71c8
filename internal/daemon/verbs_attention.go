package daemon

// The Inbox's verbs are the attention set's (attn.Store); what stays here
// is what they read of the core's side: the follow of linked hosts'
// Inboxes (followInbox, host_follow_list.go) and what a dismiss asks of
// the daemon (afterDismiss).

import (
	"github.com/tuios/tuios/inbox"
	attn "github.com/tuios/tuios/internal/daemon/attention"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// codeUnknownHost refuses a host list-attention does not know.
const codeUnknownHost = "unknown_host"

// codeHostUnreachable refuses a call to a host whose link is not up.
const codeHostUnreachable = "host_unreachable"

// attentionList is list-attention's result.
type attentionList struct {
	Type   string         `json:"type"`
	Items  []inbox.Item   `json:"items"`
	Counts map[string]int `json:"counts"`
	Total  int            `json:"total"`
	Seq    uint64         `json:"seq"`
	BootID string         `json:"boot_id"`
	// Hosts are the followed hosts (host_follow.go): stale, seen_at and
	// counts for the rail's header per host; absent with host local.
	Hosts []hostView `json:"hosts,omitempty"`
}

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
		s.mu.Lock()
		var ring *mail.Ring
		if ss := s.sessions[d.ReadSession]; ss != nil {
			ring = s.mail.Existing(ss.Name, ss.ID)
		}
		s.mu.Unlock()
		if ring != nil {
			ring.Read(mail.ReadOptions{Inbox: mail.Human, Thread: d.ReadThread, Limit: -1})
		}
	}
}

// followInbox is the follow of linked hosts' Inboxes as the Inbox's
// verbs use it (attn.Hosts).
type followInbox struct{ s *Server }

func (x followInbox) Check(host string) *proto.Error { return x.s.attentionHost(host) }

func (x followInbox) List(host string, opt inbox.ListOptions) any { return x.s.follow.list(host, opt) }

func (x followInbox) Dismiss(id string) (any, *proto.Error) { return x.s.follow.dismiss(id) }

func (x followInbox) Mark(p *attn.MarkParams) (any, *proto.Error) { return x.s.follow.mark(p) }

func (x followInbox) Undo() ([]inbox.Event, error) { return x.s.follow.undo() }
