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
//   - Its verbs (verbs.go): list-hosts and list-outbox.
//
// What it does not own: the session table and its lock, the verb table
// and its declarations (a verb's link capabilities are declared there;
// Options.Poolable reads them), the connections, their link-peer state
// and their write locks (a handed connection is a Client), the event hub
// (the core's, through internal/daemon/core), the Inbox rows a host's
// mail and its follow show as (told through Options.OutboxChanged and
// read through Options.Events), and the follow of a host's Inbox, which
// lives with the Inbox.
//
// # Locks
//
// In the order they may be taken (the daemon's TestLinksLockOrder walks
// this package against it):
//
//  1. Outbox.nmu serialises the outbox's Changed hook and is held across
//     it (the daemon takes its Inbox locks there); Outbox.mu under it.
//  2. A pool channel's lock, held while a far line is handed to its
//     user: under it that Conn's lock and the client's write lock
//     (Client.WriteLine).
//  3. Leaves: Links.mu (the hosts, their state, their kept and pooled
//     channels, the open host connections; no ssh I/O under it), a
//     Conn's lock, Outbox.mu.
//
// No lock of this package is held while calling the core (core.Host),
// apart from those two hooks.
package links
