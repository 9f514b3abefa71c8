package daemon

import (
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/grant"
)

// Caller is who made a call, as the daemon places it: the one answer the
// grant checks, the target check and the write path read. It is placed
// from the kernel's word on the Caller's pid (place and outsidePanes,
// resolve.go and boundary.go), never from anything the Caller says.
type Caller struct {
	// Pane is the Pane the caller runs in; nil when it runs in none.
	Pane *Window
	// Inside: the caller is Inside a pane of this daemon, or placed
	// nowhere the daemon can vouch for (a process it started, one whose
	// ancestry it lost): never the person.
	Inside bool
	// Link is another machine's Link (link_policy.go): its policy, not
	// pane grants, says what it may do. linkName is the peer's name.
	Link     bool
	LinkName string
	// Own is the daemon acting on its Own behalf (resume_agents = auto,
	// the queue between deliveries): no grant applies.
	Own bool
	// Grants is what the caller may do: a pane's Grants, the strict
	// list for a process inside that names no pane, grant.All outside.
	Grants grant.Set
	// Restrict narrows the connection (Restrict-connection).
	Restrict *Restriction
}

// Person is a caller outside every pane and not a link: the Person's own
// shell or client. Acts reserved to the Person still want the nonce.
func (c Caller) Person() bool { return !c.Inside && !c.Link && !c.Own }

// Permissions is [agents.Permissions] as the daemon applies it: what a
// pane holds when nothing gave it grants.
type Permissions struct {
	Mode string // open or strict
	// Def is a pane's default: admin under open, the grants list under
	// strict.
	Def grant.Set
	// Strict is the grants list whatever the mode: what a process the
	// daemon started outside a pane shell holds under Strict.
	Strict grant.Set
}

func permissionsOf(f *config.File) *Permissions {
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

// placeCaller places cn once (its pane, and whether it is outside every
// pane), through the one placement the daemon has. Called without s.mu.
func (s *Server) placeCaller(cn *conn) {
	if cn.where != 0 {
		return
	}
	s.place(cn)
	if s.outsidePanes(cn) {
		cn.where = placedOutside
	} else {
		cn.where = placedInside
	}
}

// callerOf is who cn is now: placed once per connection, its grants read
// again on every call (set-pane-grants and a narrowed config apply to the
// next call). Called without s.mu.
func (s *Server) callerOf(cn *conn) Caller {
	if cn == nil {
		return Caller{Own: true, Grants: grant.All}
	}
	if cn.own {
		return Caller{Own: true, Grants: grant.All}
	}
	if cn.link != nil {
		return Caller{Link: true, LinkName: linkName(cn), Grants: grant.All, Restrict: cn.restrict}
	}
	s.placeCaller(cn)
	c := Caller{Restrict: cn.restrict}
	if cn.where == placedOutside {
		c.Grants = grant.All
		return c
	}
	c.Inside = true
	if cn.placedID != "" {
		c.Pane, c.Grants = s.GrantsOfPane(cn.placedID) // table.go
	}
	if c.Pane == nil {
		c.Grants = s.perm.Load().Unplaced()
	}
	return c
}
