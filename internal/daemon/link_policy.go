package daemon

import (
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// The link policy's core side (the policy itself, its capabilities and
// its refusals are links/policy.go): a link caller is never a pane and
// never the person: it is not placed by /proc ancestry, outsidePanes is
// false for it, it gets no human nonce, and ask-human is refused. The
// respond-class verbs (respond, reply-approval, answer-ask,
// dismiss-attention, mark-attention, release-agent-message) pass with the
// respond capability, which then stands in for the person's nonce.

// linkPeer is what a connection from another machine's link said about
// itself (link-peer). It is read and written only by the connection's
// worker, one request at a time.
type linkPeer struct {
	// name is the peer's name as claimed (lowercased, up to the first
	// dot); "" until said.
	name string
	// pinned: the name came from stdio-proxy --as (authorized_keys), and
	// no later link-peer changes it.
	pinned bool
	// asPerson is set while a respond-class verb the policy allows runs:
	// the respond capability stands in for the person's nonce.
	asPerson bool
}

// The capabilities, as the verb table declares them (access.go's link
// part) and the links feature's policy grants them (core.LinkCap).
type linkCap = core.LinkCap

const (
	capList    = core.CapList
	capMail    = core.CapMail
	capOpen    = core.CapOpen
	capWrite   = core.CapWrite
	capRespond = core.CapRespond
	capLocal   = core.CapLocal
	capNone    = core.CapNone
	capAll     = core.CapAll
)

func capsOf(names []string) linkCap { return core.CapsOf(names) }

// policyFor resolves the policy for a peer name now.
func (s *Server) policyFor(name string) config.LinkPolicy { return s.linkPol.For(name) }

// linkAllowed applies the link policy to one verb called over a link,
// and says whether its respond capability stands in for the person on
// it.
func (s *Server) linkAllowed(cn *conn, verb string, a access) *proto.Error {
	lp := cn.link
	lp.asPerson = false
	if err := s.linkPol.Check(lp.name, verb, a.Link(), a.OverLink()); err != nil {
		return err
	}
	lp.asPerson = a.Link() == capRespond
	return nil
}

// applyLinkPolicy installs the link policy of f; the daemon's start and
// apply-config call it. The next call on every link is judged by it.
func (s *Server) applyLinkPolicy(f *config.File) { s.linkPol.Apply(f, s.warnf) }

// linkStandsIn reports whether cn is a link whose respond capability
// stands in for the person on the verb running now.
func linkStandsIn(cn *conn) bool {
	return cn != nil && cn.link != nil && cn.link.asPerson
}

// linkName is the link's peer name for mail's origin_host: the name the
// connection said, never one a request carries.
func linkName(cn *conn) string {
	if cn.link.name == "" {
		return "unnamed"
	}
	return cn.link.name
}
