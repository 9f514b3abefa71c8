// Package mailbox is agent mail in the daemon (docs/agents.md, Agent
// mail): the daemon's feature that keeps each session's mail ring and
// stash and serves the mail verbs.
//
// It holds
//
//   - the rings: one mail.Ring per session, made on the session's first
//     use (Ring) with its stash in a folder beside the socket
//     (stash/NAME, else stash/ID for a name that is no plain file
//     name), all numbered by one daemon-wide id counter. A ring is kept
//     by session name with the session's id, so a session killed and
//     made again under the same name starts empty. The hub's hooks end
//     them: window-closed closes the window's inbox (mail to it reads
//     undeliverable), session-closed closes the ring and removes its
//     stash; both run before close-window and kill-session answer.
//     Shutdown closes every ring (mail and the stash do not outlive the
//     daemon) and the stash folder once it is empty; a ring asked for
//     after that, or for a session already gone, is closed at once.
//   - the verbs send-agent-message, read-agent-messages, stash-put,
//     stash-list and stash-get (verbs.go), ask-agent (ask.go: the
//     question typed through the core's one write path once the agent
//     is not mid-turn, and what the pane printed until it settled) and
//     release-agent-message (release.go: the person passes on mail that
//     hold_mail held);
//   - the rules for mail another machine's link sends here (link.go):
//     its origin from the connection, its attachments only from the
//     session's stash, a reply to it stored as a notice, held mail;
//   - wait-for's agent-message condition (Wait), which the core's
//     wait-for hands it.
//
// It reaches the core only through core.Host: a verb's session and
// window through the one target check, copied (Session, Window); who a
// caller is (CallerPane, CallerPlaced, IsPerson, LinkMail); windows by id
// (Find, View); typing through the one write path (TypeHeld) and a
// pane's output (core.Pane); the hub (Publish) and the Inbox's mail
// items (MailThread); the outbox for mail to another machine (MailHost).
// The core reads a ring through it (Existing, Ring) for an agent row's
// unread count and a dismissed thread, and answers core.Host.MailTo (the
// answer to an ask-human that comes late) with it.
//
// What it does not own: the ring, the stash and their rules (package
// mail), the session table, the outbox and the links (the core and
// internal/daemon/links), the Inbox (internal/daemon/attention).
//
// # Locks
//
// Mail.mu guards the table of rings and is a leaf: nothing is taken
// under it, not even a ring's own lock, and the core may take it under
// its own lock (Existing). A ring is made, closed and read outside it.
package mailbox
