// Package attention is the daemon's attention set: what asks for the
// person and what the person sends back. Today it holds the review notes
// (review-diff, review-note, send-review: docs/inbox.md, Review what an
// agent changed); the Inbox, the reply queue, held approvals, ask-human,
// respond and snooze are to move here from the daemon's core
// (internal/daemon) in turn.
//
// The feature sees the core only through core.Host: a verb's pane through
// the one target check, copied (Host.Window); which panes are alive from
// a View; where a pane's shell is (PaneDir); the worktrees and fans tuios
// made (Worktree, FanReach). Notes go to an agent through the reply
// queue, which is still the core's: Queue is what this package needs of
// it, and the daemon gives it one.
//
// What it owns: the notebook and its file (review/notes.json under the
// state dir, 0600, written atomically after every change) and who may
// change a note. What it does not: the diff and the notes' anchoring
// (package review), the queue's delivery, the person check (the queue's
// Origin decides who a caller is), the session table and its lock.
//
// Locking: Review.mu is a leaf. It is held across the notes file's read
// and write and never while calling the core; what a call needs of the
// table is copied first. No git runs under it.
package attention
