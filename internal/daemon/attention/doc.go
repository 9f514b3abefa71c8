// Package attention is the daemon's attention set: what asks for the
// person and what the person sends back (docs/inbox.md, docs/agents.md).
// It holds
//
//   - the Inbox's store: one inbox.Queue fed with every agent-state change,
//     mail to the person and closes, its events published on the core's
//     hub and kept for a subscriber that comes back with after_seq, the
//     queue file under the state dir, the timer of the earliest timed
//     snooze (Store, SnoozeAlarm; the host follower's mirror of linked
//     hosts' items is numbered in its seq and published under its lock),
//     and its verbs list-attention, dismiss-attention and mark-attention
//     (inbox_verbs.go; a mirrored item goes to the links' follow of
//     the hosts, Hosts);
//   - the reply queue (queue-prompt, list-queued, cancel-queued): messages
//     typed into an agent one per rest, never over a prompt, as whoever
//     queued them (Queue; queue_rest.go says when a pane is at rest);
//   - review notes (review-diff, review-note, send-review), sent through
//     the reply queue (Review);
//   - ask-human and answer-ask: a question with fixed answers that waits
//     in the Inbox (Asks);
//   - held approvals (request-approval, reply-approval, get-approval): a
//     harness's permission prompt held for the Inbox while its hook
//     waits, and the hold peek-prompt and respond read and answer
//     (Holds, held_respond.go);
//   - peek-prompt and respond: the prompt a pane waits on, read from its
//     screen and history with its harness's rules (prompt_peek.go), the
//     risk of what it asks (prompt_risk.go: the Inbox's risk column,
//     through ApprovalRisk, and the rail's word, through Store.Risky,
//     read it too), and the person's answer pressed as exactly the keys
//     the harness's manifest names (respond.go, respond_choose.go; a
//     Crush dialog only with a crush process in the pane,
//     crush_respond.go) (Prompts).
//
// Each is a core.Feature: the daemon makes it with what it needs of the
// others (the queue for the review notes, the Inbox for the rest), and
// its Init adds its verbs and starts its goroutines; Shutdown stops them.
// The Store is first in the daemon's list; its Init has it hear a window
// close (the pane's items close before close-window answers). What it
// reads of the core it is given as hooks when made (StoreOptions: a pane
// as the Inbox is fed it, every pane's id, the hub's publish, the held
// approvals' Saw); the daemon loads it once the sessions came back and
// makes its final save as it stops.
//
// The follow of linked hosts' Inboxes is the links' (internal/daemon/links,
// given to the verbs as Hosts, with what a dismiss asks of the daemon:
// Serve); it reaches the Store only through the interface the links
// declare (links.Inbox). The human nonces attach hands the person's
// client are the core's (internal/daemon): who answers a prompt is the
// core's word (Host.Answerer), never the nonce table.
//
// The feature sees the core only through core.Host: a verb's pane through
// the one target check, copied (Window, Session); who a caller is
// (IsPerson, CallerPane, CallerPlaced, Answerer); typing through the one
// write path as a caller held past its connection (Hold, TypeHeld) or as
// respond's caller (TypeKeys, FocusIn); a pane's screen and process
// (core.Pane); the rail
// (RailChanged); where a pane's shell is and the worktrees tuios made
// (PaneDir, StartedIn, Worktree, FanReach); what list-attention checks
// (Wide, NoSession, InReach, SubscribeReach) and a selector's cwd
// (PaneCwds). The Inbox is reached through
// the Inbox interface this package declares (Do, Find, Replayed, Update),
// which the Store is. The core calls back the Store, a pane's queued count
// (Queue.Len), the Inbox's published events (Holds.Saw), the pane in front
// of the person (Holds.Viewed) and the risk of a pane's approval as the
// Inbox is fed it (Prompts.ApprovalRisk).
//
// What it does not own: the session table and its lock, the Inbox's
// rules (package inbox: what an item is, when it opens and closes), the diff and the notes' anchoring (package
// review), the person check itself and the human nonces it reads, agent
// state (agentstate, detect), the harnesses' screen rules (detect's
// manifests).
//
// # Locks
//
// Each part has one lock, and none is held while calling the core or
// the Inbox (reading the clock, the log and the arbiter aside, which take
// no lock of the core's), with three exceptions the core's doc states in
// its order:
// Store.mu (the Inbox's lock) is held across its hooks into the core
// (Pane, Panes, Publish) and the callbacks it runs; Queue.mu is held
// across Host.RailChanged (the attach streams' locks only); and Asks.mu
// and Holds.mu are taken under Store.mu, by Inbox.Do's callback and by
// Holds.Saw. Store.tmu (its save timer), SnoozeAlarm.mu and Prompts.mu
// (respond's tables, held across no call) are leaves; a window's answer
// lock (a one-slot channel, not a mutex) is held while its keys are
// pressed, and only another respond to that window waits on it.
// Review.mu is held across the notes file's read and write; no git runs
// under any of them. The core reads Queue.Len under its own lock.
package attention
