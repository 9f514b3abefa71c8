package daemon

import (
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/grant"
)

// caller is who made a call, as the daemon places it: the one answer the
// grant checks, the target check and the write path read. It is placed
// from the kernel's word on the caller's pid (place and outsidePanes,
// resolve.go and boundary.go), never from anything the caller says.
type caller struct {
	// pane is the pane the caller runs in; nil when it runs in none.
	pane *Window
	// inside: the caller is inside a pane of this daemon, or placed
	// nowhere the daemon can vouch for (a process it started, one whose
	// ancestry it lost): never the person.
	inside bool
	// link is another machine's link (link_policy.go): its policy, not
	// pane grants, says what it may do. linkName is the peer's name.
	link     bool
	linkName string
	// own is the daemon acting on its own behalf (resume_agents = auto,
	// the queue between deliveries): no grant applies.
	own bool
	// grants is what the caller may do: a pane's grants, the strict
	// list for a process inside that names no pane, grant.All outside.
	grants grant.Set
	// restrict narrows the connection (restrict-connection).
	restrict *restriction
}

// person is a caller outside every pane and not a link: the person's own
// shell or client. Acts reserved to the person still want the nonce.
func (c caller) person() bool { return !c.inside && !c.link && !c.own }

// permissions is [agents.permissions] as the daemon applies it: what a
// pane holds when nothing gave it grants.
type permissions struct {
	mode string // open or strict
	// def is a pane's default: admin under open, the grants list under
	// strict.
	def grant.Set
	// strict is the grants list whatever the mode: what a process the
	// daemon started outside a pane shell holds under strict.
	strict grant.Set
}

func permissionsOf(f *config.File) *permissions {
	mode, def, _ := f.PaneDefault()
	return &permissions{mode: mode, def: def, strict: f.StrictGrants()}
}

// unplaced is what a caller inside that names no pane holds: the strict
// list in no session, admin under open.
func (p *permissions) unplaced() grant.Set {
	if p.mode == "open" {
		return grant.Admin
	}
	return p.strict
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
func (s *Server) callerOf(cn *conn) caller {
	if cn == nil {
		return caller{own: true, grants: grant.All}
	}
	if cn.own {
		return caller{own: true, grants: grant.All}
	}
	if cn.link != nil {
		return caller{link: true, linkName: linkName(cn), grants: grant.All, restrict: cn.restrict}
	}
	s.placeCaller(cn)
	c := caller{restrict: cn.restrict}
	if cn.where == placedOutside {
		c.grants = grant.All
		return c
	}
	c.inside = true
	if cn.placedID != "" {
		c.pane, c.grants = s.grantsOfPane(cn.placedID) // table.go
	}
	if c.pane == nil {
		c.grants = s.perm.Load().unplaced()
	}
	return c
}
