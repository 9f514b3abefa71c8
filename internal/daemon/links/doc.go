// Package links is the daemon's links to other machines, as a feature:
// one ssh link per [hosts.NAME] table of the config file, the calls and
// client connections that go over them, and the outbox that keeps mail
// for a host whose link is down.
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
//   - The outbox (outbox.go, outbox_file.go, outbox_link.go): mail kept,
//     on disk, only for a sender that asks for it (--queue), and sent in
//     order as the host's link comes up.
//
// What it does not own: the session table and its lock, the verb table
// and its declarations (Options.Poolable reads them), the connections
// and their write locks (a handed connection is a Client), the event hub
// (the core's, through internal/daemon/core), the Inbox rows a host's
// mail and its follow show as (the daemon's, told through
// Options.OutboxChanged and read through Options.Events), the link
// policy and the link-peer side of a link that comes in (the daemon's
// dispatch).
//
// # Locks
//
// Links.mu guards the hosts, their state, their kept and pooled channels
// and the open host connections; no ssh I/O happens under it and nothing
// else is taken under it. A pool channel's lock is held while a far line
// is handed to its user: under it that Conn's lock and the client's
// write lock (Client.WriteLine). Outbox.nmu serialises the outbox's
// Changed hook and is held across it (the daemon takes its Inbox locks
// there); Outbox.mu is taken under it and is otherwise a leaf. No lock
// of this package is held while calling the core (core.Host), apart from
// those two hooks.
package links
