package daemon

import (
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// Grants (docs/security.md, What a pane may do): pane-grants says what a
// pane may do, set-pane-grants gives a pane its own grants or takes them
// back to the default, and restrict-connection narrows one connection for
// the rest of its life (it never widens, nor names another pane).

// wide refuses a call that reaches past one session (all_sessions,
// any_session, every host) for a caller that does not reach them all: a
// pane without admin, or a connection restricted to its own session.
// what names the param. Called without the table's lock.
func (s *Server) wide(cn *conn, what string) *proto.Error {
	if cn == nil || !cn.callKnown {
		return nil
	}
	c := cn.call
	if r := c.Restrict; r != nil && !r.All {
		return proto.Errorf(proto.CodeForbidden, "%s with %s is refused on this connection: it was restricted to its own session", cn.verbName, what).
			WithHint(proto.Hint{Detail: "leave " + what + " out; its own session is what it reaches"})
	}
	if c.Inside && !c.Grants.Has(grant.Admin) {
		return proto.Errorf(proto.CodeForbidden, "%s with %s is refused for this pane: reading every session needs the admin grant", cn.verbName, what).
			WithHint(mux.GrantHint(grant.Admin, c))
	}
	return nil
}

func (s *Server) grantVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.PaneGrantsParams) (any, *proto.Error) { return s.tab.PaneGrants(cn, p) })
	add("pane-grants", anyone.WithLink(capNone), "Say what a pane may do through TUIOS: from inside a pane, its own grants (given or the default), the mode and default of [agents.permissions], and any change that waits for tuios config apply; outside every pane, the defaults, or a pane named with window",
		"pane_grants", `{"verb":"pane-grants"}`, p, h)

	p, h = handler(func(cn *conn, p *proto.SetPaneGrantsParams) (any, *proto.Error) { return s.tab.SetPaneGrants(cn, p) })
	add("set-pane-grants", anyone.WithLink(capLocal)|holdsConn, "Give a pane its own grants, or with reset take it back to the default. The person may give any grants; a pane with admin may give another pane what it holds itself, never respond; a pane without admin may only narrow its own. Saved with the window across restarts",
		"pane_grants_set", `{"verb":"set-pane-grants","params":{"window":"reviewer","grants":"read,write"}}`, p, h)

	p, h = handler(s.restrictConnection)
	add("restrict-connection", anyone.WithLink(capNone)|holdsConn, "Narrow this connection, for a program that wants to hold itself to less (an MCP server, a hook): scope own reaches only the caller's own session, read_only types into no pane. It only narrows: a later call may narrow further, never widen",
		"connection_restricted", `{"verb":"restrict-connection","params":{"scope":"own","read_only":true}}`, p, h)
}

func (s *Server) restrictConnection(cn *conn, p *proto.RestrictParams) (any, *proto.Error) {
	c := s.callerOf(cn)
	all := p.Scope == "all"
	old := cn.restrict
	if old != nil && ((all && !old.All) || (old.ReadOnly && !p.ReadOnly)) {
		return nil, proto.Errorf(proto.CodeForbidden, "restrict-connection only narrows: this connection is already restricted to %s", old.Text()).
			WithHint(proto.Hint{Detail: "open another connection for more"})
	}
	if p.PaneID != "" && (c.Pane == nil || c.Pane.ID != p.PaneID) {
		return nil, proto.Errorf(proto.CodeForbidden, "pane_id %s is not the pane the kernel places this caller in", clipText(p.PaneID, 64)).
			WithHint(proto.Hint{Param: "pane_id", Detail: "leave pane_id out: the daemon finds the caller's pane by its process"})
	}
	r := &mux.Restriction{All: all, ReadOnly: p.ReadOnly || old != nil && old.ReadOnly, Pane: c.Pane}
	if c.Pane != nil {
		r.Session = c.Pane.Session() // a window's session never changes
	}
	if old != nil && !old.All { // narrowing own to own keeps the first session
		r.All, r.Session = false, old.Session
	}
	cn.restrict = r
	c.Restrict = r
	res := proto.ConnectionRestricted{Type: "connection_restricted", Scope: "own", ReadOnly: r.ReadOnly, Via: "pid", Sessions: []string{}}
	if r.All {
		res.Scope = "all"
	}
	if c.Pane != nil {
		res.Window = c.Pane.ID
	} else {
		res.Via = ""
	}
	if r.Session != nil {
		res.Session = r.Session.Name
	}
	res.Sessions = append(res.Sessions, s.tab.ReachedBy(c)...) // table.go
	return res, nil
}

// newGrants is what a window a call opens holds: asked (--grants) when
// the caller may give it, else the default, except that a pane never
// gives more than it holds: a pane without admin gives its own grants,
// and an admin pane the default less what it lacks (respond). Only the
// person gives respond; another machine never does. cn has passed admit.
func (s *Server) newGrants(cn *conn, asked string) (g grant.Set, granted bool, err *proto.Error) {
	c := mux.Caller{}
	if cn != nil && cn.callKnown {
		c = cn.call
	}
	def := s.perm.Load().Def
	if asked == "" {
		switch {
		case !c.Inside:
			return 0, false, nil
		case !c.Grants.Has(grant.Admin):
			return c.Grants, true, nil
		case !c.Grants.Covers(def):
			return def & c.Grants.Expand(), true, nil
		}
		return 0, false, nil
	}
	want, perr := grant.Parse(asked)
	if perr != nil {
		return 0, false, proto.Errorf(proto.CodeInvalidParams, "grants: %v", perr).
			WithHint(proto.Hint{Param: "grants", Accepted: append(grant.Names(), "none")})
	}
	verb := "--grants"
	switch {
	case c.Link && want.Has(grant.Respond):
		return 0, false, proto.Errorf(proto.CodeForbidden, "%s respond is refused over a link: only the person here gives respond", verb).
			WithHint(proto.Hint{Param: "grants", Detail: "leave respond out"})
	case c.Inside && want.Has(grant.Respond):
		return 0, false, proto.Errorf(proto.CodeForbidden, "%s respond is refused for this pane: only the person gives the respond grant (admin does not include it)", verb).
			WithHint(proto.Hint{Param: "grants", Command: "tuios set-pane-grants -w WINDOW --grants " + want.String(), Detail: "the person gives it from a terminal outside TUIOS"})
	case c.Inside && !c.Grants.Covers(want):
		return 0, false, proto.Errorf(proto.CodeForbidden, "%s %s is refused for this pane: a pane never gives more than it holds (%s)", verb, want, c.Grants).
			WithHint(mux.GrantHint(c.Grants.Missing(want.Expand()), c))
	}
	return want, true, nil
}
