package daemon

import (
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// Grants (docs/security.md, What a pane may do): pane-grants says what a
// pane may do, set-pane-grants gives a pane its own grants or takes them
// back to the default, and restrict-connection narrows one connection for
// the rest of its life (it never widens, nor names another pane).

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
func (r *Restriction) Allows(verb string, a access) *proto.Error {
	deny := func(why string) *proto.Error {
		return proto.Errorf(proto.CodeForbidden, "%s is refused on this connection: %s", verb, why).
			WithHint(proto.Hint{Command: "restrict-connection", Detail: "the connection was restricted by its own caller (tuios mcp does this); a restriction only narrows"})
	}
	switch {
	case a.Who() == whoAnyone:
		return nil
	case a.Who() == whoOutside:
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

// wide refuses a call that reaches past one session (all_sessions,
// any_session, every host) for a caller that does not reach them all: a
// pane without admin, or a connection restricted to its own session.
// what names the param. Called without s.mu.
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
			WithHint(grantHint(grant.Admin, c))
	}
	return nil
}

func (s *Server) grantVerbs(add addFunc) {
	p, h := handler(s.PaneGrants)
	add("pane-grants", anyone.WithLink(capNone), "Say what a pane may do through TUIOS: from inside a pane, its own grants (given or the default), the mode and default of [agents.permissions], and any change that waits for tuios config apply; outside every pane, the defaults, or a pane named with window",
		"pane_grants", `{"verb":"pane-grants"}`, p, h)

	p, h = handler(s.SetPaneGrants)
	add("set-pane-grants", anyone.WithLink(capLocal)|holdsConn, "Give a pane its own grants, or with reset take it back to the default. The person may give any grants; a pane with admin may give another pane what it holds itself, never respond; a pane without admin may only narrow its own. Saved with the window across restarts",
		"pane_grants_set", `{"verb":"set-pane-grants","params":{"window":"reviewer","grants":"read,write"}}`, p, h)

	p, h = handler(s.restrictConnection)
	add("restrict-connection", anyone.WithLink(capNone)|holdsConn, "Narrow this connection, for a program that wants to hold itself to less (an MCP server, a hook): scope own reaches only the caller's own session, read_only types into no pane. It only narrows: a later call may narrow further, never widen",
		"connection_restricted", `{"verb":"restrict-connection","params":{"scope":"own","read_only":true}}`, p, h)
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

func (s *Server) restrictConnection(cn *conn, p *proto.RestrictParams) (any, *proto.Error) {
	c := s.callerOf(cn)
	all := p.Scope == "all"
	old := cn.restrict
	if old != nil && ((all && !old.All) || (old.ReadOnly && !p.ReadOnly)) {
		return nil, proto.Errorf(proto.CodeForbidden, "restrict-connection only narrows: this connection is already restricted to %s", old.text()).
			WithHint(proto.Hint{Detail: "open another connection for more"})
	}
	if p.PaneID != "" && (c.Pane == nil || c.Pane.ID != p.PaneID) {
		return nil, proto.Errorf(proto.CodeForbidden, "pane_id %s is not the pane the kernel places this caller in", clipText(p.PaneID, 64)).
			WithHint(proto.Hint{Param: "pane_id", Detail: "leave pane_id out: the daemon finds the caller's pane by its process"})
	}
	r := &Restriction{All: all, ReadOnly: p.ReadOnly || old != nil && old.ReadOnly, Pane: c.Pane}
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
	res.Sessions = append(res.Sessions, s.ReachedBy(c)...) // table.go
	return res, nil
}

func (r *Restriction) text() string {
	t := "its own session"
	if r.All {
		t = "every session it reaches"
	}
	if r.ReadOnly {
		t += ", read-only"
	}
	return t
}

// newGrants is what a window a call opens holds: asked (--grants) when
// the caller may give it, else the default, except that a pane never
// gives more than it holds: a pane without admin gives its own grants,
// and an admin pane the default less what it lacks (respond). Only the
// person gives respond; another machine never does. cn has passed admit.
func (s *Server) newGrants(cn *conn, asked string) (g grant.Set, granted bool, err *proto.Error) {
	c := Caller{}
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
			WithHint(grantHint(c.Grants.Missing(want.Expand()), c))
	}
	return want, true, nil
}
