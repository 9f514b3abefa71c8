package daemon

import (
	"github.com/tuios/tuios/internal/daemon/links"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// linkVerbs are the verbs another machine's link uses here.
func (s *Server) linkVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.LinkPeerParams) (any, *proto.Error) { return s.linkPeer(cn, p) })
	add("link-peer", outsideOnly&^access(capLocal)|holdsConn, "Make this connection another machine's link and say its name: the first request of every link (stdio-proxy --as NAME says it pinned). Every later verb passes the link policy ([hosts.NAME] allow)", "link_peer",
		`{"verb":"link-peer","params":{"peer":"build"}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.ReleaseMessageParams) (any, *proto.Error) { return s.releaseMessage(cn, p) })
	add("release-agent-message", personOnly, "Pass held mail on (hold_mail): the person delivers a message another machine sent, as a new message with its original sender and released_from; once", "agent_message_released",
		`{"verb":"release-agent-message","params":{"session":"api","id":41,"human_nonce":"…"}}`, p, h)
}

func (s *Server) linkPeer(cn *conn, p *proto.LinkPeerParams) (any, *proto.Error) {
	name, ok := links.PeerName(p.Peer)
	if !ok {
		return nil, proto.Errorf(proto.CodeInvalidParams, "%q cannot name a machine", clipText(p.Peer, 64)).
			WithHint(proto.Hint{Param: "peer", Detail: "letters, digits, - and _ (up to the first dot), at most 64 bytes; not local"})
	}
	lp := cn.link
	if lp == nil {
		// A program in a pane here, or one that left it, or one the
		// daemon started, does not become a link (it would shed what a
		// pane may not do, and a link with respond stands in for the
		// person).
		if s.place(cn); cn.placedID != "" || cn.inside {
			return nil, proto.Errorf(proto.CodeForbidden, "a caller inside a pane of this daemon cannot be a link").
				WithHint(proto.Hint{Detail: "links come from other machines over ssh (tuios stdio-proxy)"})
		}
		lp = &linkPeer{name: name, pinned: p.Pinned && name != ""}
		cn.link = lp
		// Never placed by ancestry from here on: a link is no pane.
		cn.placed, cn.placedID, cn.placedBy, cn.inside = true, "", "", false
		return linkPeerResult(lp, true), nil
	}
	// A later link-peer: a pinned name stands; an unpinned link may be
	// named once (the dialler's word after a plain stdio-proxy), and
	// never pinned by it.
	changed := false
	if !lp.pinned && lp.name == "" && name != "" {
		lp.name, changed = name, true
	}
	return linkPeerResult(lp, changed), nil
}

func linkPeerResult(lp *linkPeer, changed bool) map[string]any {
	return map[string]any{"type": "link_peer", "peer": lp.name, "pinned": lp.pinned, "changed": changed}
}

func (s *Server) releaseMessage(cn *conn, p *proto.ReleaseMessageParams) (any, *proto.Error) {
	if !s.isPerson(cn, p.HumanNonce) {
		return nil, proto.Errorf(codeNotHuman, "release-agent-message acts as the person: it needs a live human nonce from an attached client").
			WithHint(proto.Hint{Param: "human_nonce", Detail: "pass it on from the Inbox of an attached client (p on the held mail row)"})
	}
	id := uint64(p.ID)
	s.mu.Lock()
	var ss *Session
	var ring *mail.Ring
	var held mail.Message
	if p.Session != "" {
		var err *proto.Error
		if ss, err = s.session(cn, p.Session); err != nil {
			s.mu.Unlock()
			return nil, err
		}
		ring = s.mail.ringLocked(ss)
		held, _ = ring.Get(id)
	} else {
		// Ids are daemon-wide: the ring that holds it.
		for _, x := range s.order {
			if x.mail == nil {
				continue
			}
			if m, ok := x.mail.Get(id); ok {
				ss, ring, held = x, x.mail, m
				break
			}
		}
	}
	if ring == nil || held.ID == 0 || !held.Held || held.ReleasedAs != 0 {
		s.mu.Unlock()
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
		w := s.windows[to]
		if w == nil || w.session != ss {
			s.mu.Unlock()
			return nil, proto.Errorf(proto.CodeWindowNotFound, "the window the mail was meant for (%s) has closed", clipText(held.HeldForLabel, 64)).
				WithHint(proto.Hint{Param: "id", Command: "tuios list-windows -s " + ss.Name, Detail: "the held message stays with you; forward its text by hand if a new pane should have it"})
		}
		toLabel = w.DisplayName()
	}
	s.mu.Unlock()
	h, msg, rerr := ring.Release(id, to, toLabel)
	if rerr != nil {
		return nil, mailErr(rerr)
	}
	s.hub.publish(event{Type: "agent-message", Session: ss.Name, Window: to})
	s.att.MailThread(ss.Name, ring, h.ThreadID) // the held row reads passed on
	return map[string]any{"type": "agent_message_released", "session": ss.Name, "held_id": h.ID, "message_id": msg.ID,
		"to": msg.To, "to_name": msg.ToLabel, "thread_id": msg.ThreadID, "kind": msg.Kind, "origin": msg.Origin, "origin_host": msg.OriginHost}, nil
}
