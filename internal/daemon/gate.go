package daemon

import (
	"strconv"

	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// The gate: what decides whether a call may run, in three places that
// all read the verb's one declaration (access.go) and the caller's one
// placement (caller.go).
//
//  1. admit, in dispatch, before the handler: agents off, the link
//     policy, a restricted connection, and the grants the verb needs.
//  2. gateTargetLocked, in the resolution every handler uses to find a session
//     or a window (session, window, target in resolve.go and
//     verbs_window.go): another session needs admin, a report names only
//     the caller's own pane, and typing names only a pane that holds
//     nothing the typist does not, or one not waiting on a prompt
//     without the respond grant.
//  3. typeAs, the one write path (write_path.go): the typing rules again,
//     right before the bytes go to the pane, for every writer.

// Where a connection's caller was placed.
const (
	placedOutside = 1
	placedInside  = 2
)

// admit checks one call of verb name before its handler runs, and
// leaves the caller and the declaration on cn for the target check.
func (s *Server) admit(cn *conn, name string, a access) *proto.Error {
	cn.acc, cn.callKnown = a, false
	if !a.Declared() {
		return proto.Errorf(proto.CodeForbidden, "%s declares no caller, so no one may call it (a bug)", name)
	}
	if s.agentsOff && a.Agent() {
		return agentsDisabled(name)
	}
	if cn.link != nil {
		if err := s.linkAllowed(cn, name, a); err != nil {
			return err
		}
	}
	if r := cn.restrict; r != nil {
		if err := r.Allows(name, a); err != nil {
			return err
		}
	}
	if a.Who() == whoAnyone {
		return nil // a handler that needs the caller places it itself
	}
	c := s.callerOf(cn)
	cn.SetCaller(c)
	return s.mayCall(c, name, a)
}

// Admitted is the caller admit (or the handler, setCaller) placed for the
// call running on cn; known is false when none was, or cn is nil. The
// table reads the call through it and the three below, not through the
// connection's fields.
func (cn *conn) Admitted() (c mux.Caller, known bool) {
	if cn == nil {
		return mux.Caller{}, false
	}
	return cn.call, cn.callKnown
}

// SetCaller records c as the running call's caller: a verb anyone may
// call places its caller itself when it needs one.
func (cn *conn) SetCaller(c mux.Caller) { cn.call, cn.callKnown = c, true }

// PlacedWindow is the id of the window the caller runs in, found once
// ("" for none, or a nil cn).
func (cn *conn) PlacedWindow() string {
	if cn == nil {
		return ""
	}
	return cn.placedID
}

// Declared is what the running call's verb declares (admit left it).
func (cn *conn) Declared() access { return cn.acc }

// PeerPID is the caller's pid from the kernel (0 when unknown).
func (cn *conn) PeerPID() int { return cn.peer }

// mayCall is the verb-level rule: who may call it, and the grants.
func (s *Server) mayCall(c mux.Caller, name string, a access) *proto.Error {
	if c.Link || c.Own {
		return nil // a link answers to the link policy, checked in admit
	}
	need := a.Grants()
	switch a.Who() {
	case whoAnyone:
		return nil
	case whoOutside:
		if c.Inside {
			return proto.Errorf(proto.CodeForbidden, "%s is refused inside a pane: only a terminal outside TUIOS may run it", name).
				WithHint(proto.Hint{Detail: "run it from a terminal outside every TUIOS pane"})
		}
		return nil
	case whoPerson:
		if !c.Inside {
			return nil // the handler wants the person's nonce
		}
		if need != 0 && c.Grants.Has(need) {
			return nil
		}
		h := proto.Hint{Detail: "the person does this from an attached client (tuios attach)"}
		if need != 0 {
			h = mux.GrantHint(need, c)
		}
		return proto.Errorf(codeNotHuman, "%s acts as the person: a program inside a pane may not%s", name, needText(need)).WithHint(h)
	case whoSelf:
		if c.Inside && c.Pane == nil && !c.Grants.Has(grant.Admin) {
			return proto.Errorf(proto.CodeForbidden, "%s reports about the caller's own pane, and this caller runs in no pane TUIOS can name", name).
				WithHint(proto.Hint{Command: "tuios pane-grants", Detail: "call it from the pane's own processes (its hooks)"})
		}
		return nil
	case whoGranted:
		if !c.Inside {
			return nil
		}
		if miss := c.Grants.Missing(need); miss != 0 {
			return mux.GrantRefusal(name, a, miss, c)
		}
		return nil
	}
	return proto.Errorf(proto.CodeForbidden, "%s may not be called", name)
}

// outOfReach refuses a session the caller does not reach (nil: every
// session).
func (s *Server) outOfReach(verb string, c mux.Caller, ss *mux.Session) *proto.Error {
	what := "every session"
	if ss != nil {
		what = "session " + strconv.Quote(ss.Name)
	}
	if r := c.Restrict; r != nil && !r.All {
		return proto.Errorf(proto.CodeForbidden, "%s is refused on this connection: it was restricted to its own session, and reaches not %s", verb, what).
			WithHint(proto.Hint{Command: "restrict-connection", Detail: "a restriction only narrows: open another connection (tuios mcp --scope all) for every session"})
	}
	if c.Pane == nil {
		return proto.Errorf(proto.CodeForbidden, "%s is refused: this caller runs inside TUIOS in no pane it can name, so it reaches no session", verb).
			WithHint(proto.Hint{Command: "tuios pane-grants", Detail: "call from a pane's own processes, or from a terminal outside TUIOS"})
	}
	return proto.Errorf(proto.CodeForbidden, "%s is refused for this pane: it reaches only its own session %q, and %s needs the admin grant",
		verb, c.Pane.Session().Name, what).WithHint(mux.GrantHint(grant.Admin, c))
}

// needText is " without the respond grant" for a person's act a grant
// also allows.
func needText(need grant.Set) string {
	if need == 0 {
		return ""
	}
	return " without the " + need.String() + " grant"
}
