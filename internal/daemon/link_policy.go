package daemon

import (
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/links"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
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
// part): the links feature's (links/policy.go).
type linkCap = links.Cap

const (
	capList    = links.CapList
	capMail    = links.CapMail
	capOpen    = links.CapOpen
	capWrite   = links.CapWrite
	capRespond = links.CapRespond
	capLocal   = links.CapLocal
	capNone    = links.CapNone
	capAll     = links.CapAll
)

func capsOf(names []string) linkCap { return links.CapsOf(names) }

// policyFor resolves the policy for a peer name now.
func (s *Server) policyFor(name string) config.LinkPolicy { return s.linkPol.For(name) }

// linkAllowed applies the link policy to one verb called over a link,
// and says whether its respond capability stands in for the person on
// it.
func (s *Server) linkAllowed(cn *conn, verb string, a access) *proto.Error {
	lp := cn.link
	lp.asPerson = false
	if err := s.linkPol.Check(lp.name, verb, a.link(), a.overLink()); err != nil {
		return err
	}
	lp.asPerson = a.link() == capRespond
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

// ---- mail over links: the connection's side of links/mail_in.go ----

// linkMail is what a link adds to one message (links.Received).
type linkMail struct {
	origin, host          string
	held                  bool
	heldFor, heldForLabel string
}

// fromLink applies the link's mail rules (links.Receive) to a message
// about to be stored, when cn is a link: attachments in the stash, the
// origin from the connection, and holding. to and toLabel are rewritten
// to human when the mail is held.
func (m *mailer) fromLink(cn *conn, ring *mail.Ring, p *sendMessageParams, to, toLabel *string) (linkMail, *proto.Error) {
	if cn == nil || cn.link == nil {
		return linkMail{}, nil
	}
	in := &links.Incoming{Peer: linkName(cn), HoldMail: m.s.policyFor(cn.link.name).HoldMail, Stash: ring.Stash(),
		Attachments: p.Attachments, To: *to, ToLabel: *toLabel}
	r, err := links.Receive(in)
	if err != nil {
		return linkMail{}, err
	}
	*to, *toLabel = in.To, in.ToLabel
	return linkMail{origin: r.Origin, host: r.Host, held: r.Held, heldFor: r.HeldFor, heldForLabel: r.HeldForLabel}, nil
}

// replyToLinkLocked reports whether a local sender's message answers a
// message from another machine and addresses its sender
// (links.AnswersLink): it is then stored as a notice, which the far side
// reads in the thread. Called with s.mu held.
func (m *mailer) replyToLinkLocked(cn *conn, ss *Session, p *sendMessageParams) bool {
	if p.ReplyTo == 0 || cn != nil && cn.link != nil {
		return false
	}
	parent, ok := m.ringLocked(ss).Get(uint64(p.ReplyTo))
	return ok && links.AnswersLink(parent, p.To)
}

// stashSource is stash-put's source as the links' rules read it.
func stashSource(cn *conn, p *stashPutParams) links.StashPut {
	return links.StashPut{Path: p.Path, Data: p.Data, Name: p.Name, OverLink: cn != nil && cn.link != nil}
}

// stashPutSource checks stash-put's source (links.StashPut.Check).
func stashPutSource(cn *conn, p *stashPutParams) *proto.Error { return stashSource(cn, p).Check() }

// putStash stores a path, or data sent as base64 (links.StashPut.Put).
func putStash(st *mail.Stash, p *stashPutParams) (mail.PutResult, error) {
	return stashSource(nil, p).Put(st)
}
