package links

import "github.com/tuios/tuios/inbox"

// Inbox is this machine's Inbox as the links use it (the attention
// set's Store, which the daemon hands over in Options.Inbox): each
// linked host's "Waiting to send" row, and the mirror of the hosts'
// own Inboxes that the follow keeps beside the local queue. Its lock is
// held across each call and the publish of its events; the links call
// it holding none of their own locks but inboxRows.mu (doc.go, # Locks),
// and what they hand it runs under the Inbox's lock, where it may take
// Follow.mu and the mirror's own.
type Inbox interface {
	// NewMirror is the mirror of the linked hosts' items, numbered in
	// the local queue's seq; its calls go through DoMirrored.
	NewMirror() *inbox.Mirror
	// DoMirrored runs a call of the mirror under the Inbox's lock and
	// publishes its events as mirrored ones; it returns them.
	DoMirrored(fn func() []inbox.Event) []inbox.Event
	// DoMixed runs a call that changes both the local queue and the
	// mirror (an undo): both kinds of events go out under the Inbox's
	// lock, in seq order.
	DoMixed(fn func() (local, mirrored []inbox.Event))
	// ListWith is list-attention's read: the local items (local false:
	// none, only the seq and boot id) and what more adds (the mirrored
	// ones), read under the Inbox's lock so the seq covers exactly what
	// is listed.
	ListWith(local bool, opt inbox.ListOptions, more func(l *inbox.List)) inbox.List
	// List lists the local items.
	List(opt inbox.ListOptions) inbox.List
	// Outbox opens, updates or closes a host's "Waiting to send" row.
	Outbox(in inbox.OutboxInput)
}
