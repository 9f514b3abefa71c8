// Package core is what the daemon's core offers its features, and all a
// feature may see of it: interfaces and plain values, no implementation.
//
// The core is the session table (sessions, windows, their placement and
// the lock that guards them) and the connections (dispatch, the verb
// table, the caller's placement, the event hub). A feature (the herdr
// socket, links to other machines, the attention set, the agent log, …)
// lives in a package of its own and reaches the core only through Host:
//
//   - View is an immutable copy of the table, taken under the core's lock
//     and read without it, so a feature never holds that lock nor sees a
//     field change under it.
//   - Target is the one target check: the same rule every verb's session
//     and window pass as they are resolved.
//   - Do runs a verb as a caller, through the same dispatch and gate as a
//     request on the socket; that is how a feature changes the table (a
//     name, a workspace's order), so every change has one path.
//   - Pane is a live handle on one pane: its tracked screen and agent
//     state, its process, its output.
//   - Publish and Subscribe are the event hub: a window that closes
//     reaches features as a window-closed event, never as a direct call.
//
// The core asks one feature questions of its own: the worktrees feature
// answers the target check's fan questions (Fans: a session's fan tag,
// read with the core's lock held, so it takes none) and is handed to the
// core by the composition root.
//
// A feature is a Feature: Name, Init and Shutdown, the shape of
// Tailscale's ipnext extensions and of caddy's modules, kept small. The
// daemon's composition root builds every feature, keeps them in one
// ordered list, inits them in that order as the daemon is made and
// shuts them down in reverse as it stops. Init is where a feature
// registers (Registrar, embedded in Host): its verbs, its pane
// environment hooks, and its hooks at the daemon's lifecycle points,
// OnListen (the socket is the daemon's), OnRestored (the sessions and
// the Inbox came back) and OnWindowClosed (a hook of the hub's that runs
// before a window's close returns, for what a caller must find done when
// close-window answers; a feature that can catch up later subscribes),
// and OnPersonTyped (the person typed at an attached client).
// Registering after Init panics: those tables are read without a lock.
//
// It holds the link capabilities (LinkCap) as plain bits: every verb's
// declaration names the ones a link needs, and the links feature's policy
// grants them per peer, so both read them here.
//
// What this package does not own: the table's types and its lock (the
// core's), the wire format (internal/proto), agent state (agentstate,
// detect).
package core
