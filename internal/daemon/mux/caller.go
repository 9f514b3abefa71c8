package mux

import (
	"github.com/tuios/tuios/internal/config"
	drpc "github.com/tuios/tuios/internal/daemon/rpc"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// Caller is who made a call, as the daemon places it: the one answer the
// grant checks, the target check and the write path read. It is placed
// from the kernel's word on the caller's pid (place and outsidePanes,
// resolve.go and daemon's boundary.go), never from anything the caller says.
type Caller struct {
	// Pane is the pane the caller runs in; nil when it runs in none.
	Pane *Window
	// Inside: the caller is inside a pane of this daemon, or placed
	// nowhere the daemon can vouch for (a process it started, one whose
	// ancestry it lost): never the person.
	Inside bool
	// Link is another machine's link (daemon's link_policy.go): its policy, not
	// pane grants, says what it may do. LinkName is the peer's name.
	Link     bool
	LinkName string
	// Own is the daemon acting on its own behalf (resume_agents = auto,
	// the queue between deliveries): no grant applies.
	Own bool
	// Grants is what the caller may do: a pane's grants, the strict
	// list for a process inside that names no pane, grant.All outside.
	Grants grant.Set
	// Restrict narrows the connection (restrict-connection).
	Restrict *Restriction
}

// Person is a caller outside every pane and not a link: the person's own
// shell or client. Acts reserved to the person still want the nonce.
func (c Caller) Person() bool { return !c.Inside && !c.Link && !c.Own }

// Permissions is [agents.permissions] as the daemon applies it: what a
// pane holds when nothing gave it grants.
type Permissions struct {
	Mode string // open or strict
	// Def is a pane's default: admin under open, the grants list under
	// strict.
	Def grant.Set
	// Strict is the grants list whatever the mode: what a process the
	// daemon started outside a pane shell holds under strict.
	Strict grant.Set
}

// PermissionsOf is f's [agents.permissions].
func PermissionsOf(f *config.File) *Permissions {
	mode, def, _ := f.PaneDefault()
	return &Permissions{Mode: mode, Def: def, Strict: f.StrictGrants()}
}

// Unplaced is what a caller inside that names no pane holds: the strict
// list in no session, admin under open.
func (p *Permissions) Unplaced() grant.Set {
	if p.Mode == "open" {
		return grant.Admin
	}
	return p.Strict
}

// Restriction is what restrict-connection left on a connection. It only
// narrows what the caller may do anyway.
type Restriction struct {
	All      bool // scope all: every session the caller reaches
	ReadOnly bool
	Session  *Session // scope own: the caller's session; nil reaches none
	Pane     *Window  // the caller's pane, if any
}

// Allows checks one verb against the restriction (the reach of the
// session it names is the target check's, caller.reaches).
func (r *Restriction) Allows(verb string, a drpc.Access) *proto.Error {
	deny := func(why string) *proto.Error {
		return proto.Errorf(proto.CodeForbidden, "%s is refused on this connection: %s", verb, why).
			WithHint(proto.Hint{Command: "restrict-connection", Detail: "the connection was restricted by its own caller (tuios mcp does this); a restriction only narrows"})
	}
	switch {
	case a.Who() == drpc.WhoAnyone:
		return nil
	case a.Who() == drpc.WhoOutside:
		return deny("it was restricted, and this is only for a terminal outside TUIOS")
	case a.Grants().Has(grant.Admin):
		return deny("a restricted connection reads, reports, mails, types and starts agents in its reach, nothing more")
	case a.Types() && r.ReadOnly:
		return deny("it is read-only: it types into no pane")
	case a.Grants().Has(grant.Fan) && r.Pane == nil:
		return deny("starting an agent needs a pane, and this connection runs in none")
	}
	return nil
}

// byText says who changed grants, for the log.
func byText(c Caller) string {
	switch {
	case c.Pane != nil:
		return " by pane " + c.Pane.ID[:8]
	case c.Inside:
		return " by a process inside TUIOS"
	}
	return " by the person"
}

// Text says in words what the restriction leaves the connection.
func (r *Restriction) Text() string {
	t := "its own session"
	if r.All {
		t = "every session it reaches"
	}
	if r.ReadOnly {
		t += ", read-only"
	}
	return t
}
