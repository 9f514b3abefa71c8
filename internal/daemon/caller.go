package daemon

import (
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/grant"
)

// placeCaller places cn once (its pane, and whether it is outside every
// pane), through the one placement the daemon has. Called without the table's lock.
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
// next call). Called without the table's lock.
func (s *Server) callerOf(cn *conn) mux.Caller {
	if cn == nil {
		return mux.Caller{Own: true, Grants: grant.All}
	}
	if cn.own {
		return mux.Caller{Own: true, Grants: grant.All}
	}
	if cn.link != nil {
		return mux.Caller{Link: true, LinkName: linkName(cn), Grants: grant.All, Restrict: cn.restrict}
	}
	s.placeCaller(cn)
	c := mux.Caller{Restrict: cn.restrict}
	if cn.where == placedOutside {
		c.Grants = grant.All
		return c
	}
	c.Inside = true
	if cn.placedID != "" {
		c.Pane, c.Grants = s.tab.GrantsOfPane(cn.placedID) // table.go
	}
	if c.Pane == nil {
		c.Grants = s.perm.Load().Unplaced()
	}
	return c
}
