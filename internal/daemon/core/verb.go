package core

import (
	"encoding/json"

	"github.com/tuios/tuios/internal/proto"
)

// Class is who may call a feature's verb and what it does, as the verb
// table declares it: the same declaration dispatch, the grants, the link
// policy and list-verbs read for the core's own verbs.
type Class int

const (
	// Reads is a listing or a read of one session: the person, or a
	// pane holding read in its session.
	Reads Class = iota + 1
	// PersonLocal is the person's alone (a live human nonce, checked by
	// the handler through Host.Person), and never over a link.
	PersonLocal
	// TypesCommand types a command line at a pane's shell prompt: a
	// pane needs write in its session, the typing rules hold at the
	// target check and on the write path, and a link needs the open
	// capability (the line starts a program).
	TypesCommand
	// ReadsAll is a listing across sessions and machines (the hosts, the
	// outbox): the person, or a pane holding admin; a link with list.
	ReadsAll
	// Writes changes what a pane is given or typed (review notes, a
	// message queued for it): the person, or a pane holding write in its
	// session.
	Writes
	// QueuesInput types into a pane later, when its agent is at rest
	// (queue-prompt): a write that types, checked again as it types, so
	// an admin pane may queue for a pane that waits on a prompt now.
	QueuesInput
	// ReportsLocal is a pane's report about itself (or a caller's
	// outside every pane), never over a link (ask-human).
	ReportsLocal
	// Person is the person's alone, checked by dispatch and again by the
	// handler (a live human nonce: Host.IsPerson); over a link only with
	// the respond capability (answer-ask).
	Person
	// Reports is a pane's report about itself, or a caller's outside
	// every pane (request-approval).
	Reports

	// The worktrees feature's classes (internal/daemon/fan).

	// Starts opens a window that runs a program in a session (verify-fan):
	// the person, or a pane holding fan; a link needs open.
	Starts
	// StartsAgents makes sessions whose agents it types a first prompt
	// into (new-worktree, fan): as Starts, and it types into a pane; a
	// link needs open and write.
	StartsAgents
	// Opens closes or removes what a session holds (remove-worktree):
	// the person, or a pane holding admin; a link needs open.
	Opens
	// ReadsOut is a read that carries a session's work off the machine
	// (bundle-worktree): as Reads, and a link needs write besides list.
	ReadsOut
	// AdminLocal removes or merges the person's work (keep-fan) or makes
	// a worktree from another machine's (pull-worktree): the person, or a
	// pane holding admin; never over a link.
	AdminLocal
	// The agent mail verbs' classes (internal/daemon/mailbox). Mail is a
	// capability of its own on a link (mail), apart from list and write.

	// ReadsMail reads a session's mail or stash without marking anything
	// (stash-list, stash-get): the person, or a pane holding read in its
	// session; a link with mail.
	ReadsMail
	// MarksMailRead reads mail and marks what it returned as read
	// (read-agent-messages), so it is not read-only: as ReadsMail
	// otherwise.
	MarksMailRead
	// LeavesMail leaves a message or a stashed file in a session
	// (send-agent-message, stash-put): the person, or a pane holding
	// write in its session; a link with mail.
	LeavesMail
	// AsksPane types a question into a pane and reads what it prints
	// back (ask-agent): a pane needs write in its session, the typing
	// rules hold at the target check and on the write path, and a link
	// needs both write and mail.
	AsksPane

	// The copies' class (internal/daemon/transfers).

	// Copies copies files on this machine, or lists and acts on copies
	// (tuios cp, tuios transfers): the person, or a pane holding files
	// (a session out of its reach needs admin too); never over a link,
	// where a far machine copies with its own daemon.
	Copies

	// Answers (respond's class, attention's prompts) answers a pane's
	// prompt as the person: the person (who the handler checks through
	// Host.Answerer), or a pane holding respond; it types into the pane,
	// so the typing rules hold at the target check and on the write
	// path; over a link only with the respond capability.
	Answers

	// The agent verbs' class (internal/daemon/agents).

	// Lookup is a lookup every caller may make and that changes nothing
	// (resolve-pane): nothing is checked but the link policy, where a
	// link needs list; the handler decides what it answers.
	Lookup
)

// CodeNotHuman is the error code of a call that acts as the person and
// is not.
const CodeNotHuman = "not_human"

// Verb is a verb a feature adds to the core's verb table.
type Verb struct {
	Name    string
	Class   Class
	Desc    string // one line, for list-verbs and the skill
	Returns string // the result's type field
	Example string // a request line
	// Params is a pointer to a zero params struct: its tags are the
	// verb's schema (proto.DecodeParams, proto.Validate).
	Params any
	// Agent marks an agent feature: answered agents_disabled, before
	// Run, while [agents] enabled = false (the Inbox's verbs).
	Agent bool
	// Holds marks a verb that waits, streams or changes its connection
	// (wait-transfers): it cannot be sent quiet, and a host link's
	// channel that carried it is not pooled.
	Holds bool
	// Run answers one admitted call.
	Run func(c Call, raw json.RawMessage) (any, *proto.Error)
}

// Handle makes a Verb's Params and Run from a handler of typed params:
// the params decoded and checked against their tags before fn runs.
func Handle[P any](fn func(c Call, p *P) (any, *proto.Error)) (params any, run func(Call, json.RawMessage) (any, *proto.Error)) {
	return new(P), func(c Call, raw json.RawMessage) (any, *proto.Error) {
		p := new(P)
		if err := proto.DecodeParams(raw, p); err != nil {
			return nil, err
		}
		if err := proto.Validate(p); err != nil {
			return nil, err
		}
		return fn(c, p)
	}
}
