// Package links is the daemon's links to other machines, as a feature:
// one ssh link per [hosts.NAME] table of the config file, the calls, mail
// and client connections that go over them, the outbox that keeps mail
// for a host whose link is down, and the policy that says what another
// machine's link may do here.
//
// What it owns:
//
//   - The links (links.go): a goroutine per host that dials, holds the
//     link and redials (at once, then 1 s doubling to 30 s on the
//     daemon's clock); the state list-hosts shows and each change as a
//     host-changed event on the core's hub; Apply, which makes the links
//     match a config file (apply-config, the config follower).
//   - Calls over a link (conn.go): Call runs one verb on a host's daemon
//     (the outbox, pull-worktree, the Inbox follow's listings), Open
//     opens a stream (the follow's subscription), OpenConn hands a
//     client connection to the host (open-host-connection): every later
//     request line goes there and the far lines come back as they are.
//   - The channel pool (pool.go): a channel a client left provably clean
//     goes back to a small per-host pool, and one is warmed ahead of use,
//     so a host-qualified CLI call does not start a far process.
//   - Mail to another machine (mail.go) and the outbox (outbox.go,
//     outbox_file.go, outbox_link.go): one try by default; kept, on disk,
//     only for a sender that asks for it (--queue), and sent in order as
//     the host's link comes up.
//   - The link policy (policy.go): the capabilities a link holds here,
//     resolved per call from [hosts."*"] and [hosts.NAME], and the
//     refusal of a verb it may not call; the name a link may claim
//     (peer.go).
//   - Each host's one Inbox row, "Waiting to send" (inbox_rows.go): the
//     outbox's part (mail waiting, the last refusal) and the config's
//     (why no link is held: SetHostProblem, from the daemon's config
//     follower), put in the Inbox together.
//   - The follow of the linked hosts' Inboxes (follow.go; the far
//     daemon's lines, follow_far.go; the Inbox verbs' side,
//     follow_list.go; the rail's and list-hosts', follow_views.go and
//     follow_sessions.go): while a host's link is up its
//     own Inbox is listed and followed live (or polled, for a host too
//     old to subscribe from a seq) into a mirror beside the local queue,
//     stale while the link is down; the hosts' agents and sessions are
//     cached for the rail's header per host (AttachHosts) and
//     list-hosts' events column. The Inbox's verbs (list-attention's
//     host param and mirrored items, dismiss and mark of a mirrored item
//     here only, undo, the refusal to answer another host's prompt here)
//     reach it through the daemon as their Hosts.
//   - Its verbs (verbs.go): list-hosts and list-outbox.
//
// It reaches the core only through core.Host (the hub's host-changed
// events, the rail's redraw, the clock) and this machine's Inbox only
// through the Inbox interface it declares (inbox.go: the attention
// set's Store, handed over in Options.Inbox).
//
// What it does not own: the session table and its lock, the verb table
// and its declarations (a verb's link capabilities are declared there;
// Options.Poolable reads them), the connections, their link-peer state
// and their write locks (a handed connection is a Client), the event hub
// (the core's, through internal/daemon/core), the Inbox itself (its
// queue, its lock, its events and their seq: the attention set's).
//
// # Locks
//
// In the order they may be taken (the daemon's TestLinksLockOrder walks
// this package against it):
//
//  1. Outbox.nmu serialises the outbox's Changed hook and is held across
//     it (the host's Inbox row is put there); Outbox.mu under it.
//  2. inboxRows.mu: one host row's update at a time, held across its
//     Inbox call (Inbox.Outbox), so two parts never land out of order;
//     under it the Inbox's lock (the attention set's Store.mu) and what
//     that takes (the core's s.mu, the hub's lock).
//  3. A pool channel's lock, held while a far line is handed to its
//     user: under it that Conn's lock and the client's write lock
//     (Client.WriteLine).
//  4. Leaves: Links.mu (the hosts, their state, their kept and pooled
//     channels, the open host connections; no ssh I/O under it), a
//     Conn's lock, Outbox.mu, Follow.mu (the followed hosts, their mode
//     and caches; no I/O under it). The follow's snooze timer's lock
//     (internal/alarm) is a leaf too.
//
// The Inbox's lock is held across what the follow hands it (DoMirrored,
// DoMixed, ListWith): the mirror's calls, and Follow.mu as a listing
// reads the hosts' caches. No lock of this package is held while calling
// the core (core.Host), apart from those hooks.
package links
