package links

import (
	"maps"
	"strings"
	"sync/atomic"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// The link policy (docs/hosts.md, What another machine may do here): what
// another machine, calling over its link (a stdio-proxy connection that
// said link-peer), may do here.
//
//   - Capabilities: list, mail, open, write, respond. With no table the
//     default is list, mail, open and write; respond is opt-in.
//   - Resolution per call: the built-in default, then [hosts."*"], then
//     [hosts.NAME] of the link's peer name; an allow that is set replaces
//     the list, and allow = [] allows nothing. A narrowing installed by
//     apply-config holds from the very next call on every open link.
//   - Every verb's declaration in the daemon's verb table names the
//     capabilities a link needs for it, or core.CapLocal: never over a link.
//     A verb that declares nothing is refused to everyone.
//   - The peer name is a boundary only when pinned by the far machine's
//     authorized_keys: command="tuios stdio-proxy --as NAME",restrict.
//     Without that, the dialler names itself, and so can claim any name.
//     Respond granted to a name also lets any process of this user outside
//     every pane claim it (by running tuios stdio-proxy --as NAME itself):
//     grant it only where that is acceptable.
//
// What a link caller is (never a pane, never the person; respond standing
// in for the person's nonce) is the daemon's dispatch's to enforce.

// Policy is the installed policy: a copy of the config's hosts tables,
// replaced whole by Apply and read without a lock by every call over a
// link. Its zero value, nothing installed, is the built-in default.
type Policy struct {
	f atomic.Pointer[config.File]
}

// Apply installs the link policy of f ([hosts."*"], [hosts.NAME] allow
// and hold_mail); the next call on every link is judged by it. warnf is
// told about capabilities it does not know (ignored).
func (p *Policy) Apply(f *config.File, warnf func(format string, args ...any)) {
	if f == nil {
		p.f.Store(nil)
		return
	}
	cp := &config.File{Hosts: maps.Clone(f.Hosts)}
	for name := range cp.Hosts {
		if u := cp.LinkPolicy(name).Unknown; len(u) > 0 {
			warnf("config [hosts.%s] allow: unknown capabilities %q ignored (known: %s)", name, u, strings.Join(config.LinkCapabilities(), ", "))
		}
	}
	p.f.Store(cp)
}

// For resolves the policy for a peer name now.
func (p *Policy) For(name string) config.LinkPolicy {
	return p.f.Load().LinkPolicy(name)
}

// Allows says whether the link named name holds every capability of c.
func (p *Policy) Allows(name string, c core.LinkCap) bool {
	return core.CapsOf(p.For(name).Allow)&c == c
}

// Check applies the policy to one verb called over the link named peer
// ("" for one that said no name): need is what the verb's declaration
// asks of a link, overLink whether it is served over one at all.
func (p *Policy) Check(peer, verb string, need core.LinkCap, overLink bool) *proto.Error {
	who := "this link"
	if peer != "" {
		who = "host " + peer
	}
	if !overLink {
		detail := "run it on this machine"
		if verb == "ask-human" {
			detail = "the person here answers only questions from this machine's panes: send mail to human instead (send-agent-message -w human)"
		}
		return proto.Errorf(proto.CodeForbidden, "%s is refused over links", verb).WithHint(proto.Hint{Detail: detail})
	}
	pol := p.For(peer)
	missing := need &^ core.CapsOf(pol.Allow)
	if missing == 0 {
		return nil
	}
	caps := missing.Names()
	table := `[hosts."*"]`
	if peer != "" {
		table = "[hosts." + peer + "]"
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

func allowedText(allow []string) string {
	if len(allow) == 0 {
		return "nothing"
	}
	return strings.Join(allow, ", ")
}
