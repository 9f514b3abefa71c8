package daemon

import (
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// access is a verb's one declaration in the verb table: who may call it
// and what it does to a pane. Everything that once kept its own list of
// verb names reads it instead: dispatch (grants, agents off, the link
// policy, restricted connections), the connection pool of host links,
// list-verbs (and through it tuios mcp and the tests).
//
// It packs three parts into one word, so the classes below are constants:
//
//   - the link capabilities another machine's link needs (linkCap, the
//     low byte; capLocal: never over a link);
//   - the grants a pane needs to call it in its own session (grant.Set,
//     the second byte); another session always needs admin too;
//   - who may call it (whoAnyone … whoOutside) and what it does beyond
//     that (typesInto, agentFeature, holdsConn).
//
// A verb whose declaration has no who part is refused to every caller,
// and TestEveryVerbIsDeclared fails, so a verb added without thinking
// about who may call it is closed, never open.
type access uint32

const (
	grantShift = 8
	whoShift   = 16

	linkPart  access = 0xff
	grantPart access = 0xff << grantShift
	whoPart   access = 0x0f << whoShift
)

// Who may call a verb.
const (
	whoUndeclared access = iota << whoShift
	// whoAnyone: every caller; nothing is checked but the link policy
	// and what the handler itself decides (pane-grants, hello).
	whoAnyone
	// whoGranted: the person, or a pane holding the grant part (a
	// session out of its reach needs admin as well).
	whoGranted
	// whoSelf: the person, or a pane about its own pane only.
	whoSelf
	// whoPerson: the person only (a live nonce, checked by the
	// handler); a pane holding the grant part (respond) passes too.
	whoPerson
	// whoOutside: only a caller outside every pane of this daemon.
	whoOutside
)

// What a verb does beyond who may call it.
const (
	// typesInto: it writes bytes into a pane, so the typing rules hold
	// at the target check and again on the one write path.
	typesInto access = 1 << (20 + iota)
	// agentFeature: answered agents_disabled while [agents] enabled =
	// false.
	agentFeature
	// holdsConn: it streams, waits, or changes its connection, so a
	// host link's channel that carried it is not pooled.
	holdsConn
	// marksRead: it reads, and marks what it returned as read (mail), so
	// it is not read-only.
	marksRead
	// queuesInput: with typesInto, it queues what is typed later, when
	// the agent is at rest (queue-prompt), so an admin pane may queue
	// for a pane that waits on a prompt now.
	queuesInput
)

// The grants part of a declaration.
const (
	needRead    = access(grant.Read) << grantShift
	needWrite   = access(grant.Write) << grantShift
	needFan     = access(grant.Fan) << grantShift
	needRespond = access(grant.Respond) << grantShift
	needAdmin   = access(grant.Admin) << grantShift
)

// The classes the verb table uses. Each names who may call a verb and
// what it does; a verb adds typesInto, agentFeature or holdsConn, or a
// link capability, where it does more.
const (
	// anyone: hello, list-verbs, pane-grants, restrict-connection.
	anyone = whoAnyone
	// reads: listings, captures, agent state, waits and events in one
	// session.
	reads = whoGranted | needRead | access(capList)
	// readsAll: listings across sessions and machines (hosts, the
	// outbox): a pane needs admin.
	readsAll = whoGranted | needAdmin | access(capList)
	// readsMail: mail and stash reads.
	readsMail = whoGranted | needRead | access(capMail)
	// leavesMail: mail and stashed files left in a session.
	leavesMail = whoGranted | needWrite | access(capMail)
	// writes: changes a pane's session holds for it (notes, the queue).
	writes = whoGranted | needWrite | access(capWrite)
	// types: writes bytes into a pane.
	types = writes | typesInto
	// reports: a pane's report about itself (agent state, meta,
	// approvals it asks for).
	reports = whoSelf | access(capWrite)
	// starts: starts an agent in a new pane (the fan grant).
	starts = whoGranted | needFan | access(capOpen)
	// opens: opens or closes sessions and panes.
	opens = whoGranted | needAdmin | access(capOpen)
	// arranges: windows, layouts, workspaces and session labels.
	arranges = whoGranted | needAdmin | access(capWrite)
	// administers: the daemon itself, its options and other machines;
	// never over a link.
	administers = whoGranted | needAdmin | access(capLocal)
	// personOnly: acts that are the person's alone (answers, dismissals,
	// the transcript).
	personOnly = whoPerson | access(capRespond)
	// outsideOnly: only from a terminal outside every pane.
	outsideOnly = whoOutside | access(capLocal)
)

func (a access) who() access       { return a & whoPart }
func (a access) grants() grant.Set { return grant.Set((a & grantPart) >> grantShift) }
func (a access) link() linkCap     { return linkCap(a & linkPart) }
func (a access) types() bool       { return a&typesInto != 0 }
func (a access) agent() bool       { return a&agentFeature != 0 }
func (a access) declared() bool    { return a.who() != whoUndeclared && a.who() <= whoOutside }
func (a access) overLink() bool    { return a.declared() && a.link()&capLocal == 0 }

// changesNothing: a read (a link needs list for it, or mail to read
// mail), or a verb for anyone that keeps nothing on its connection.
func (a access) changesNothing() bool {
	switch a.who() {
	case whoAnyone:
		return a&holdsConn == 0
	case whoGranted:
		return a&marksRead == 0 && !a.types() && (a.link() == capList || a.link() == capMail && a.grants() == grant.Read)
	}
	return false
}
func (a access) withLink(c linkCap) access { return a | access(c) }

// poolable: a host link's channel that carried the verb (and got its
// answer) may serve another client, since the verb left nothing on the
// far connection.
func (a access) poolable() bool { return a.overLink() && a&holdsConn == 0 }

// whoName is the wire name of the who part.
func (a access) whoName() string {
	switch a.who() {
	case whoAnyone:
		return "anyone"
	case whoGranted:
		return "granted"
	case whoSelf:
		return "own_pane"
	case whoPerson:
		return "person"
	case whoOutside:
		return "outside_panes"
	}
	return "nobody"
}

// info is the declaration as list-verbs gives it.
func (a access) info() *proto.VerbAccess {
	in := &proto.VerbAccess{Caller: a.whoName(), Grants: a.grants().List(), TypesIntoPanes: a.types(), ReadOnly: a.changesNothing(),
		AgentFeature: a.agent()}
	in.Link, in.Local = []string{}, !a.overLink()
	if a.overLink() && a.link().Names() != nil {
		in.Link = a.link().Names()
	}
	return in
}
