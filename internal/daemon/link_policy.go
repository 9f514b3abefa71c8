package daemon

import (
	"maps"
	"strings"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// The link policy (§14.5 of the coordination spec): what another machine,
// calling over its link (a stdio-proxy connection that said link-peer),
// may do here.
//
//   - Capabilities: list, mail, open, write, respond. With no table the
//     default is list, mail, open and write; respond is opt-in.
//   - Resolution per call: the built-in default, then [hosts."*"], then
//     [hosts.NAME] of the link's peer name; an allow that is set replaces
//     the list, and allow = [] allows nothing. A narrowing installed by
//     apply-config holds from the very next call on every open link.
//   - Every verb's declaration in the verb table (access.go) names the
//     capabilities a link needs for it, or capLocal: never over a link.
//     A verb that declares nothing is refused to everyone.
//   - A link caller is never a pane and never the person: it is not
//     placed by /proc ancestry, outsidePanes is false for it, it gets no
//     human nonce, and ask-human is refused. The respond-class verbs
//     (respond, reply-approval, answer-ask, dismiss-attention,
//     mark-attention, release-agent-message) pass with the respond
//     capability, which then stands in for the person's nonce.
//   - The peer name is a boundary only when pinned by the far machine's
//     authorized_keys: command="tuios stdio-proxy --as NAME",restrict.
//     Without that, the dialler names itself, and so can claim any name.
//     Respond granted to a name also lets any process of this user outside
//     every pane claim it (by running tuios stdio-proxy --as NAME itself):
//     grant it only where that is acceptable.

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

// linkCap is a set of link capabilities.
type linkCap uint8

const (
	capList linkCap = 1 << iota
	capMail
	capOpen
	capWrite
	capRespond
	// capLocal marks a verb never served over a link.
	capLocal

	capNone linkCap = 0
	capAll          = capList | capMail | capOpen | capWrite | capRespond
)

// capNames are the capabilities in the docs' order, for hints.
func (c linkCap) names() []string {
	var out []string
	for i, n := range config.LinkCapabilities() {
		if c&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

func capsOf(names []string) linkCap {
	var c linkCap
	for i, n := range config.LinkCapabilities() {
		for _, x := range names {
			if x == n {
				c |= 1 << i
			}
		}
	}
	return c
}

// linkPolicy is the installed policy: a copy of the config's hosts
// tables. Nil (nothing installed) is the built-in default.
type linkPolicy struct {
	f *config.File
}

// policyFor resolves the policy for a peer name now.
func (s *Server) policyFor(name string) config.LinkPolicy {
	var f *config.File
	if p := s.linkPol.Load(); p != nil {
		f = p.f
	}
	return f.LinkPolicy(name)
}

// linkAllowed applies the link policy to one verb called over a link.
func (s *Server) linkAllowed(cn *conn, verb string, a access) *proto.Error {
	lp := cn.link
	lp.asPerson = false
	need := a.link()
	who := "this link"
	if lp.name != "" {
		who = "host " + lp.name
	}
	if !a.overLink() {
		detail := "run it on this machine"
		if verb == "ask-human" {
			detail = "the person here answers only questions from this machine's panes: send mail to human instead (send-agent-message -w human)"
		}
		return proto.Errorf(proto.CodeForbidden, "%s is refused over links", verb).WithHint(proto.Hint{Detail: detail})
	}
	pol := s.policyFor(lp.name)
	missing := need &^ capsOf(pol.Allow)
	if missing != 0 {
		caps := missing.names()
		table := `[hosts."*"]`
		if lp.name != "" {
			table = "[hosts." + lp.name + "]"
		}
		quoted := make([]string, len(caps))
		for i, c := range caps {
			quoted[i] = `"` + c + `"`
		}
		return proto.Errorf(proto.CodeForbidden, "%s may not call %s here: it needs the %s capability (allowed: %s, from %s)",
			who, verb, strings.Join(caps, " and "), allowedText(pol.Allow), pol.From).
			WithHint(proto.Hint{Param: "allow", Accepted: config.LinkCapabilities(),
				Detail: "on this machine add " + strings.Join(quoted, ", ") + " to allow under " + table + " in ~/.config/tuios/config.toml, then run tuios config apply"})
	}
	lp.asPerson = need == capRespond
	return nil
}

func allowedText(allow []string) string {
	if len(allow) == 0 {
		return "nothing"
	}
	return strings.Join(allow, ", ")
}

// applyLinkPolicy installs the link policy of f ([hosts."*"], [hosts.NAME]
// allow and hold_mail); the daemon's start and apply-config call it. The
// next call on every link is judged by it.
func (s *Server) applyLinkPolicy(f *config.File) {
	if f == nil {
		s.linkPol.Store(&linkPolicy{})
		return
	}
	cp := &config.File{Hosts: maps.Clone(f.Hosts)}
	for name := range cp.Hosts {
		if u := cp.LinkPolicy(name).Unknown; len(u) > 0 {
			s.warnf("config [hosts.%s] allow: unknown capabilities %q ignored (known: %s)", name, u, strings.Join(config.LinkCapabilities(), ", "))
		}
	}
	s.linkPol.Store(&linkPolicy{f: cp})
}

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
