package rpc

import (
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// Access is a verb's one declaration in the verb registry: who may call
// it and what it does to a pane. Everything that once kept its own list
// of verb names reads it instead: dispatch (grants, agents off, the link
// policy, restricted connections), the connection pool of host links,
// list-verbs (and through it tuios mcp and the tests).
//
// It packs three parts into one word, so the classes below are constants:
//
//   - the link capabilities another machine's link needs (core.LinkCap,
//     the low byte; core.CapLocal: never over a link);
//   - the grants a pane needs to call it in its own session (grant.Set,
//     the second byte); another session always needs admin too;
//   - who may call it (WhoAnyone … WhoOutside) and what it does beyond
//     that (TypesInto, AgentFeature, HoldsConn, MarksRead, QueuesInput).
//
// A verb whose declaration has no who part is refused to every caller,
// and the daemon's TestEveryVerbIsDeclared fails, so a verb added without
// thinking about who may call it is closed, never open.
type Access uint32

const (
	grantShift = 8
	whoShift   = 16

	linkPart  Access = 0xff
	grantPart Access = 0xff << grantShift
	whoPart   Access = 0x0f << whoShift
)

// Who may call a verb.
const (
	WhoUndeclared Access = iota << whoShift
	// WhoAnyone: every caller; nothing is checked but the link policy
	// and what the handler itself decides (pane-grants, hello).
	WhoAnyone
	// WhoGranted: the person, or a pane holding the grant part (a
	// session out of its reach needs admin as well).
	WhoGranted
	// WhoSelf: the person, or a pane about its own pane only.
	WhoSelf
	// WhoPerson: the person only (a live nonce, checked by the
	// handler); a pane holding the grant part (respond) passes too.
	WhoPerson
	// WhoOutside: only a caller outside every pane of this daemon.
	WhoOutside
)

// What a verb does beyond who may call it.
const (
	// TypesInto: it writes bytes into a pane, so the typing rules hold
	// at the target check and again on the one write path.
	TypesInto Access = 1 << (20 + iota)
	// AgentFeature: answered agents_disabled while [agents] enabled =
	// false.
	AgentFeature
	// HoldsConn: it streams, waits, or changes its connection, so a
	// host link's channel that carried it is not pooled.
	HoldsConn
	// MarksRead: it reads, and marks what it returned as read (mail), so
	// it is not read-only.
	MarksRead
	// QueuesInput: with TypesInto, it queues what is typed later, when
	// the agent is at rest (queue-prompt), so an admin pane may queue
	// for a pane that waits on a prompt now.
	QueuesInput
)

// The grants part of a declaration.
const (
	NeedRead    = Access(grant.Read) << grantShift
	NeedWrite   = Access(grant.Write) << grantShift
	NeedFan     = Access(grant.Fan) << grantShift
	NeedRespond = Access(grant.Respond) << grantShift
	NeedAdmin   = Access(grant.Admin) << grantShift
	NeedFiles   = Access(grant.Files) << grantShift
)

// The classes the verb table uses. Each names who may call a verb and
// what it does; a verb adds TypesInto, AgentFeature or HoldsConn, or a
// link capability, where it does more.
const (
	// Anyone: hello, list-verbs, pane-grants, restrict-connection.
	Anyone = WhoAnyone
	// Reads: listings, captures, agent state, waits and events in one
	// session.
	Reads = WhoGranted | NeedRead | Access(core.CapList)
	// ReadsAll: listings across sessions and machines (hosts, the
	// outbox): a pane needs admin.
	ReadsAll = WhoGranted | NeedAdmin | Access(core.CapList)
	// ReadsMail: mail and stash reads.
	ReadsMail = WhoGranted | NeedRead | Access(core.CapMail)
	// LeavesMail: mail and stashed files left in a session.
	LeavesMail = WhoGranted | NeedWrite | Access(core.CapMail)
	// Writes: changes a pane's session holds for it (notes, the queue).
	Writes = WhoGranted | NeedWrite | Access(core.CapWrite)
	// Types: writes bytes into a pane.
	Types = Writes | TypesInto
	// Reports: a pane's report about itself (agent state, meta,
	// approvals it asks for).
	Reports = WhoSelf | Access(core.CapWrite)
	// Starts: starts an agent in a new pane (the fan grant).
	Starts = WhoGranted | NeedFan | Access(core.CapOpen)
	// Opens: opens or closes sessions and panes.
	Opens = WhoGranted | NeedAdmin | Access(core.CapOpen)
	// Arranges: windows, layouts, workspaces and session labels.
	Arranges = WhoGranted | NeedAdmin | Access(core.CapWrite)
	// Administers: the daemon itself, its options and other machines;
	// never over a link.
	Administers = WhoGranted | NeedAdmin | Access(core.CapLocal)
	// PersonOnly: acts that are the person's alone (answers, dismissals,
	// the transcript).
	PersonOnly = WhoPerson | Access(core.CapRespond)
	// OutsideOnly: only from a terminal outside every pane.
	OutsideOnly = WhoOutside | Access(core.CapLocal)
	// Copies: a copy on this machine and the list of copies
	// (core.Copies); never over a link (a far machine copies with its
	// own daemon).
	Copies = WhoGranted | NeedFiles | Access(core.CapLocal)
)

// Who is the who part.
func (a Access) Who() Access { return a & whoPart }

// Grants is what a pane needs in its own session.
func (a Access) Grants() grant.Set { return grant.Set((a & grantPart) >> grantShift) }

// Link is what a link needs (core.CapLocal: never over a link).
func (a Access) Link() core.LinkCap { return core.LinkCap(a & linkPart) }

// Types says the verb writes bytes into a pane.
func (a Access) Types() bool { return a&TypesInto != 0 }

// Agent says the verb is answered agents_disabled while agents are off.
func (a Access) Agent() bool { return a&AgentFeature != 0 }

// Declared says the declaration names who may call the verb; one that
// does not is refused to every caller.
func (a Access) Declared() bool { return a.Who() != WhoUndeclared && a.Who() <= WhoOutside }

// OverLink says another machine's link may call the verb at all.
func (a Access) OverLink() bool { return a.Declared() && a.Link()&core.CapLocal == 0 }

// ChangesNothing: a read (a link needs list for it, or mail to read
// mail), or a verb for anyone that keeps nothing on its connection.
func (a Access) ChangesNothing() bool {
	switch a.Who() {
	case WhoAnyone:
		return a&HoldsConn == 0
	case WhoGranted:
		return a&MarksRead == 0 && !a.Types() && (a.Link() == core.CapList || a.Link() == core.CapMail && a.Grants() == grant.Read)
	}
	return false
}

// WithLink is a with the link capabilities c needed too.
func (a Access) WithLink(c core.LinkCap) Access { return a | Access(c) }

// Poolable: a host link's channel that carried the verb (and got its
// answer) may serve another client, since the verb left nothing on the
// far connection.
func (a Access) Poolable() bool { return a.OverLink() && a&HoldsConn == 0 }

// WhoName is the wire name of the who part.
func (a Access) WhoName() string {
	switch a.Who() {
	case WhoAnyone:
		return "anyone"
	case WhoGranted:
		return "granted"
	case WhoSelf:
		return "own_pane"
	case WhoPerson:
		return "person"
	case WhoOutside:
		return "outside_panes"
	}
	return "nobody"
}

// Info is the declaration as list-verbs gives it.
func (a Access) Info() *proto.VerbAccess {
	in := &proto.VerbAccess{Caller: a.WhoName(), Grants: a.Grants().List(), TypesIntoPanes: a.Types(), ReadOnly: a.ChangesNothing(),
		AgentFeature: a.Agent()}
	in.Link, in.Local = []string{}, !a.OverLink()
	if a.OverLink() && a.Link().Names() != nil {
		in.Link = a.Link().Names()
	}
	return in
}

// ClassAccess is the declaration of a feature's verb class
// (core.Host.AddVerb); a class it does not know declares nothing, so the
// verb is refused to every caller (closed, never open).
func ClassAccess(c core.Class) Access {
	switch c {
	case core.Reads:
		return Reads
	case core.Writes:
		return Writes
	case core.QueuesInput:
		return Types | QueuesInput
	case core.ReportsLocal:
		return Reports.WithLink(core.CapLocal)
	case core.Person:
		return PersonOnly
	case core.Reports:
		return Reports
	case core.PersonLocal:
		return PersonOnly&^Access(core.CapRespond) | Access(core.CapLocal)
	case core.TypesCommand:
		return Types.WithLink(core.CapOpen) &^ Access(core.CapWrite)
	case core.ReadsAll:
		return ReadsAll

	// The worktrees feature's (internal/daemon/fan).
	case core.Starts:
		return Starts
	case core.StartsAgents:
		return Starts.WithLink(core.CapWrite) | TypesInto
	case core.Opens:
		return Opens
	case core.ReadsOut:
		return Reads.WithLink(core.CapWrite)
	case core.AdminLocal:
		return WhoGranted | NeedAdmin | Access(core.CapLocal)
	// The mail feature's classes (internal/daemon/mailbox).
	case core.ReadsMail:
		return ReadsMail
	case core.MarksMailRead:
		return ReadsMail | MarksRead
	case core.LeavesMail:
		return LeavesMail
	case core.AsksPane:
		return Types.WithLink(core.CapMail)
	// The copies' class (internal/daemon/transfers).
	case core.Copies:
		return Copies
	// respond's (attention's prompts).
	case core.Answers:
		return PersonOnly | NeedRespond | TypesInto
	// The agent verbs' class (internal/daemon/agents).
	case core.Lookup:
		return Anyone.WithLink(core.CapList)
	}
	return 0
}
