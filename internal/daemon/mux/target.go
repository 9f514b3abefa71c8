package mux

import (
	"github.com/tuios/tuios/internal/daemon/core"
	drpc "github.com/tuios/tuios/internal/daemon/rpc"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// The one target check (core.Host.Target, and every verb that names a
// session or a window as the daemon resolves the name): whether the
// call's caller reaches the session, the fan group rule, a pane's
// self-report naming only itself, and the typing rules. It reads the
// table, so it runs under s.mu, in this package; admission, which runs
// before the handler and reads no table, is package daemon's (gate.go).

// gateTargetLocked is the one target check: every verb that names a session or
// a window passes it as the daemon resolves the name. w is nil when only
// a session was named. Called with s.mu held.
func (s *Table) gateTargetLocked(cn Call, ss *Session, w *Window) *proto.Error {
	c, known := admitted(cn)
	if !known {
		return nil // the daemon's own lookups, and verbs for anyone
	}
	if c.Own {
		return nil
	}
	a, verb := cn.Declared(), cn.Verb()
	if !c.reachesLocked(s.d.Fans(), ss) {
		return s.d.OutOfReach(verb, c, ss)
	}
	if err := fanGroupRuleLocked(verb, a, c, ss); err != nil { // daemon's host_fan.go: writing beyond its own session needs fan
		return err
	}
	if w == nil || c.Link && !a.Types() {
		return nil
	}
	if a.Who() == drpc.WhoSelf && c.Inside && c.Pane != nil && w != c.Pane {
		return proto.Errorf(proto.CodeForbidden, "%s from a pane reports only about that pane, not window %s", verb, w.ID[:8]).
			WithHint(proto.Hint{Command: `tuios set-agent-state STATE -w "$TUIOS_PANE_ID"`, Detail: "name your own pane, or leave -w out"})
	}
	if a.Types() {
		atPrompt := w.AtPrompt()
		if a&drpc.QueuesInput != 0 && c.Grants.Has(grant.Admin) {
			atPrompt = false // the queue types only at rest; an admin pane may queue for a pane on a prompt
		}
		return s.typingRuleLocked(verb, a, c, w, atPrompt)
	}
	return nil
}

// typingRuleLocked: a pane types into another pane only when the target holds
// nothing it does not (admin aside), and into a pane waiting on a prompt
// only with respond (admin included). Answering a prompt with the
// respond grant (a verb the person's, which the grant stands in for) is
// not held to the first rule: it presses only the keys the prompt
// offers. A link types into a pane on a prompt only when this machine's
// link policy allows respond. Called with s.mu held.
func (s *Table) typingRuleLocked(verb string, a drpc.Access, c Caller, w *Window, atPrompt bool) *proto.Error {
	switch {
	case c.Own || c.Person():
		return nil
	case c.Link:
		if atPrompt && !s.d.LinkAllows(c.LinkName, core.CapRespond) {
			return proto.Errorf(proto.CodeForbidden, "%s into window %s is refused: it waits on a prompt, and host %s may not answer prompts here", verb, w.ID[:8], c.LinkName).
				WithHint(proto.Hint{Param: "allow", Detail: "on this machine add \"respond\" to allow under [hosts." + c.LinkName + "] in config.toml, then run tuios config apply"})
		}
		return nil
	}
	if c.Pane == w {
		return nil
	}
	if held := s.grantsOfLocked(w); a.Who() != drpc.WhoPerson && !c.Grants.Has(grant.Admin) && !c.Grants.Covers(held) {
		return proto.Errorf(proto.CodeForbidden, "%s is refused for this pane: window %s holds %s, more than this pane's %s, and a pane without admin types only into panes that hold nothing it does not",
			verb, w.ID[:8], held, c.Grants).WithHint(GrantHint(c.Grants.Missing(held.Expand()), c))
	}
	if atPrompt && !c.Grants.Has(grant.Respond) {
		return proto.Errorf(proto.CodeForbidden, "%s is refused for this pane: window %s waits on a prompt, and typing into a pane on a prompt needs the respond grant (admin does not include it)", verb, w.ID[:8]).
			WithHint(GrantHint(grant.Respond, c))
	}
	return nil
}

// fanGroupRuleLocked: a pane without admin reads its fan group and the
// sessions a fan from it started (fanReach); writing there (typing,
// notes, the queue, starting agents) needs the fan grant as well. Called
// with s.mu held, after reaches.
func fanGroupRuleLocked(verb string, a drpc.Access, c Caller, ss *Session) *proto.Error {
	if !c.Inside || c.Link || c.Own || c.Pane == nil || ss == nil || c.Pane.Session() == ss || c.Grants.Has(grant.Admin) {
		return nil
	}
	if !a.Types() && a.Grants()&^grant.Read == 0 {
		return nil // a read
	}
	if c.Grants.Has(grant.Fan) {
		return nil
	}
	return proto.Errorf(proto.CodeForbidden, "%s is refused for this pane: session %q is in its fan group, and writing there needs the fan grant (write covers only its own session)",
		verb, ss.Name).WithHint(GrantHint(grant.Fan, c))
}

// reachesLocked reports whether the caller may act on session ss at all: the
// person, a link and an admin pane reach every session; a pane without
// admin its own, its fan group and the sessions a fan from it started
// (fanReach, daemon's host_fan.go: fans answers for the worktrees feature); a process inside that names no pane none under
// strict. A restricted connection narrows that the same way. Called with
// s.mu held.
func (c Caller) reachesLocked(fans core.Fans, ss *Session) bool {
	if r := c.Restrict; r != nil && !r.All && (r.Session == nil || r.Session != ss && !fanReach(fans, r.Session, ss)) {
		return false
	}
	switch {
	case !c.Inside:
		return true
	case c.Grants.Has(grant.Admin):
		return true
	case c.Pane != nil:
		return c.Pane.Session() == ss || fanReach(fans, c.Pane.Session(), ss)
	}
	return false
}

// fanReach says whether a pane's session own reaches session ss through
// the worktrees: ss is in own's fan group, or a fan from own started it.
// Reads only the feature's tags, which take no lock: safe under s.mu.
func fanReach(fans core.Fans, own, ss *Session) bool {
	if own == nil || ss == nil || own == ss {
		return own == ss && own != nil
	}
	if fans == nil {
		return false
	}
	t := fans.Tag(ss.ID)
	if t == nil {
		return false
	}
	if t.LaunchedBy != "" && t.LaunchedBy == own.ID {
		return true
	}
	o := fans.Tag(own.ID)
	return o != nil && o.Group != "" && o.Group == t.Group && o.Repo == t.Repo
}
