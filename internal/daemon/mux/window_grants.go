package mux

import (
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// The grants a window holds (get-pane-grants, set-pane-grants) and the
// reach of a caller over the table (a session it may name, what a
// subscription hears): the parts of the grants that read the table under
// s.mu. The verbs' declarations, restrict-connection and the grants a new
// window is given are daemon's verbs_grants.go's.

// PaneGrants answers pane-grants: what a pane may do, and the defaults.
func (s *Table) PaneGrants(cn Call, p *proto.PaneGrantsParams) (any, *proto.Error) {
	c := s.d.CallerOf(cn)
	cn.SetCaller(c)
	perm := s.d.Permissions()
	v := proto.PaneGrants{Type: "pane_grants", Mode: perm.Mode, DefaultGrants: perm.Def.List(), Grants: []string{}}
	v.Pending, v.Widened = s.d.ConfigWaiting()
	if r := c.Restrict; r != nil {
		v.Restricted = &proto.Restriction{Scope: "own", ReadOnly: r.ReadOnly}
		if r.All {
			v.Restricted.Scope = "all"
		}
	}
	if c.Pane != nil {
		v.Pane, v.Via = c.Pane.ID, "pid"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var w *Window
	switch {
	case p.Window != "" || p.Session != "":
		_, tw, err := s.target(cn, p.Session, p.Window)
		if err != nil {
			return nil, err
		}
		w = tw
	case c.Pane != nil && s.windows[c.Pane.ID] == c.Pane:
		w = c.Pane
	case c.Inside:
		v.Grants = c.Grants.List() // a process inside that names no pane
		return v, nil
	}
	if w == nil {
		return v, nil
	}
	v.Window, v.Session = w.ID, w.session.Name
	v.Grants, v.Explicit, v.Env = s.grantsOfLocked(w).List(), w.granted, w.startGrants
	return v, nil
}

// SetPaneGrants answers set-pane-grants: a pane's own grants given, or
// taken back to the default.
func (s *Table) SetPaneGrants(cn Call, p *proto.SetPaneGrantsParams) (any, *proto.Error) {
	if (p.Grants == "") == !p.Reset {
		return nil, proto.Errorf(proto.CodeInvalidParams, "give the grants, or reset, and not both").
			WithHint(proto.Hint{Param: "grants", Command: "tuios set-pane-grants -w reviewer --grants read,write", Detail: "or --reset for the default"})
	}
	var want grant.Set
	if !p.Reset {
		g, err := grant.Parse(p.Grants)
		if err != nil {
			return nil, proto.Errorf(proto.CodeInvalidParams, "%v", err).
				WithHint(proto.Hint{Param: "grants", Accepted: append(grant.Names(), "none")})
		}
		want = g
	}
	c := s.d.CallerOf(cn)
	cn.SetCaller(c)
	s.mu.Lock()
	ss, w, err := s.target(cn, p.Session, p.Window)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	prev, prevExplicit := s.grantsOfLocked(w), w.granted
	next := want
	if p.Reset {
		next = s.d.Permissions().Def
	}
	if err := s.mayGiveLocked(c, w, prev, next, p.Reset); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	w.grants, w.granted = want, !p.Reset
	if p.Reset {
		w.grants = 0
	}
	s.mu.Unlock()
	s.rest.changed() // restore.go: the grants are saved with the window
	s.opt.Log.About(w.ID, ss.Name).Infof("grants: window %s of %s now holds %s (was %s)%s", w.ID[:8], ss.Name, next, prev, byText(c))
	return proto.PaneGrantsSet{Type: "pane_grants_set", Session: ss.Name, Window: w.ID, Grants: next.List(), Explicit: !p.Reset,
		Previous: prev.List(), PreviousExplicit: prevExplicit}, nil
}

// SessionInReach refuses a session name (which may not exist yet) the
// caller does not reach: for a pane without admin, any but its own.
// Called without s.mu.
func (s *Table) SessionInReach(cn Call, name string) *proto.Error {
	c, known := admitted(cn)
	if !known || !c.Inside && c.Restrict == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss := s.sessions[name]; ss != nil {
		return s.gateTargetLocked(cn, ss, nil)
	}
	if c.Pane != nil && c.Pane.session.Name == name {
		return nil
	}
	return s.d.Wide(cn, "another session")
}

// SubscribeScope is what a subscription may hear: a session (and window)
// the caller names passes the target check; none named is every session
// for a caller that reaches them all, else its own session's events.
func (s *Table) SubscribeScope(cn Call, session, window string) (string, string, *proto.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if session != "" {
		if _, err := s.session(cn, session); err != nil {
			return "", "", err
		}
	}
	if window != "" {
		if w := s.windows[window]; w != nil {
			if err := s.gateTargetLocked(cn, w.session, w); err != nil {
				return "", "", err
			}
		}
	}
	c, known := admitted(cn)
	if session != "" || !known {
		return session, window, nil
	}
	all := !c.Inside || c.Grants.Has(grant.Admin)
	if r := c.Restrict; r != nil && !r.All {
		all = false
	}
	if all {
		return "", window, nil
	}
	own := c.Pane
	if r := c.Restrict; r != nil && r.Session != nil {
		return r.Session.Name, window, nil
	}
	if own == nil {
		return "", "", s.d.OutOfReach(cn.Verb(), c, nil)
	}
	return own.session.Name, window, nil
}

// mayGiveLocked: the person gives anything; a pane never gives respond, never
// more than it holds, and without admin changes only its own grants and
// only to fewer. Called with s.mu held.
func (s *Table) mayGiveLocked(c Caller, w *Window, prev, next grant.Set, reset bool) *proto.Error {
	if !c.Inside {
		return nil
	}
	verb := "set-pane-grants"
	what := "giving " + next.String()
	if reset {
		what = "resetting to the default " + next.String()
	}
	switch {
	case next.Has(grant.Respond) && !prev.Has(grant.Respond):
		return proto.Errorf(proto.CodeForbidden, "%s is refused for this pane: only the person gives the respond grant (admin does not include it)", verb).
			WithHint(proto.Hint{Command: "tuios set-pane-grants -w " + w.ID[:8] + " --grants " + next.String(), Detail: "run it from a terminal outside TUIOS"})
	case !c.Grants.Has(grant.Admin) && w != c.Pane:
		return proto.Errorf(proto.CodeForbidden, "%s is refused for this pane: a pane without admin changes only its own grants", verb).
			WithHint(GrantHint(grant.Admin, c))
	case !c.Grants.Has(grant.Admin) && !prev.Covers(next):
		return proto.Errorf(proto.CodeForbidden, "%s is refused for this pane: %s would widen it, and a pane without admin only narrows its own grants", verb, what).
			WithHint(GrantHint(next.Missing(0)|prev.Missing(next.Expand()), c))
	case !c.Grants.Covers(next &^ prev):
		return proto.Errorf(proto.CodeForbidden, "%s is refused for this pane: %s gives more than this pane holds (%s)", verb, what, c.Grants).
			WithHint(GrantHint(c.Grants.Missing(next.Expand()), c))
	}
	return nil
}

// grantsOfLocked is what a pane may do now: the grants given to it, else the
// default. Called with s.mu held.
func (s *Table) grantsOfLocked(w *Window) grant.Set {
	if w.granted {
		return w.grants
	}
	return s.d.Permissions().Def
}
