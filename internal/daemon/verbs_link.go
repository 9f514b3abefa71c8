package daemon

import (
	"github.com/tuios/tuios/internal/daemon/links"
	"github.com/tuios/tuios/internal/proto"
)

// linkVerbs are the verbs another machine's link uses here.
func (s *Server) linkVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.LinkPeerParams) (any, *proto.Error) { return s.linkPeer(cn, p) })
	add("link-peer", outsideOnly&^access(capLocal)|holdsConn, "Make this connection another machine's link and say its name: the first request of every link (stdio-proxy --as NAME says it pinned). Every later verb passes the link policy ([hosts.NAME] allow)", "link_peer",
		`{"verb":"link-peer","params":{"peer":"build"}}`, p, h)
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

func linkPeerResult(lp *linkPeer, changed bool) proto.LinkPeer {
	return proto.LinkPeer{Type: "link_peer", Peer: lp.name, Pinned: lp.pinned, Changed: changed}
}
