// Package mux is the daemon's table of sessions and windows: every
// session with its workspaces, every window with its placement, its pane
// (the process on a PTY, mux/term) and its grants; the verbs that make,
// find, arrange and close them (new-session, list-windows, split-window,
// send-keys, popup, …); the tiling of each workspace (mux/layout); the
// resolving of a caller's session and window addresses and the one
// target check; the sessions file a restart brings back; and the reads
// the features make of it (core.Host's View, Find, Seats, …).
//
// It owns the table's lock, Table.mu, unexported: no other package can
// take it. Every exported method copies what it needs under the lock and
// lets go before it returns, so no caller holds the table while it reads
// a pane or writes a socket.
//
// It does not own connections, dispatch or who a caller is (package
// daemon places a caller and admits a call; the table sees it as a Call),
// the write path into a pane, the attach streams, the Inbox or any
// feature: what it asks of them goes through the interfaces of Options
// (Daemon, Screens, PaneIndex, Reaper), which package daemon implements.
// It imports only the core's interfaces (internal/daemon/core), the event
// hub and verb registry (internal/daemon/rpc) and its own leaves.
//
// # Layout
//
// Each session has an area (cols x rows: new-session's size until a client
// sends resize or attaches with a size). Once a client has shown the
// session (resize, or attach with stream or a size; before that each pane
// keeps the whole area and list-windows reports it unplaced), the current
// workspace's windows that are not minimized are tiled into it. A tile is
// one title row and the pane, so the pane's PTY and screen are the tile's
// width by its height less one; side-by-side tiles are a border column
// apart (the client draws the line there), stacked ones touch (the lower
// title bar is the line).
//
// Each workspace has a tree of splits (mux/layout), as tmux and zellij
// do: a split lays its children side by side or stacked, each with a
// share of its length, so a new area scales every tile in proportion.
// How the tree grows (the decision, also in the skill and docs/cli.md):
// split-window splits its target's tile where asked (vertical: side by
// side, tmux's -h and prefix %; horizontal: stacked, tmux's -v and
// prefix "; the new window takes --percent of it, default half, and no
// other tile moves); every other way a window arrives on a workspace
// (new-window, move-window, a restart whose file did not place it) is the
// automatic tiling: the first fills the area, the second goes beside it,
// each later one under the last tile, whose column is made even, so
// windows opened only with new-window are a master and an even stack. A
// window that closes or moves away gives its cells to the tile before it
// in its split (else the one after), as tmux; a minimized one keeps its
// leaf, its siblings take its cells, and it comes back where it was.
// syncLayoutsLocked brings the trees in step with the windows before every
// placement, whatever verb moved them. Zoom (run-command ToggleZoom) gives
// the focused window the whole area and leaves the tree as it is;
// set-layout --equalize evens every split of the workspace on screen.
//
// A tile is never under 4x2 in an area that holds one: a split whose
// children do not fit lays them out the other way, or with one tile's
// room each, or shows those that fit with the focused one first; the
// layout's hidden counts the rest, and the focused title bar says so.
// split-window refuses to make a tile smaller (no_space), as it refuses
// nesting deeper than 24 splits; a saved tree is held to the same bounds
// when it is read back. list-windows' x, y, width and height are the
// tile; windows off screen keep their last place and size. The daemon
// re-tiles on resize, new and closed windows, moves, minimize and
// restore, workspace switches, zoom, and focus changes. set-layout
// --tiling false floats a session instead (layoutRects): each window
// keeps its place, cut to the area, and one never placed takes the top
// left; the trees are kept (and follow the windows) for when tiling is
// back on, and split-window needs tiling on. The verbs that read places
// (focus-window --direction, split-window, set-layout) answer
// needs_client when no client shows the session (verbs_arrange.go).
//
// # Locks
//
// The table's locks, in the one order they may be taken: a lock is never
// taken while one below it is held. TestMuxLockOrder (in package daemon,
// beside the core's walk) walks this package on every run, following its
// calls into the event hub, and fails on a nesting this list does not
// allow; package daemon's order places these among the core's locks.
//
//  2. Restorer.writing: one save of the sessions file at a time, held
//     from reading the table (Table.mu under it; at the final save, each
//     pane's foreground read) to the file's rename, so an older copy
//     never lands over a newer one; only another save waits on it.
//  3. Session.tileMu: one retile of a session at a time; Table.mu and
//     the attach streams' locks (Screens) under it.
//  8. Table.mu: the session and window maps, every window's placement
//     and grants. Never held across I/O, while taking a pane's lock (its
//     detect.Pane, its screen) or waiting on the arbiter. A function that
//     needs it held is named …Locked (the resolvers session, window,
//     target and callerWindow, Window.DisplayName and sessionsSorted say
//     so in their comments). The target check runs under it and reads
//     only atomics besides (the permissions in force, the link policy,
//     each window's atPrompt). Under it the table calls only what takes
//     no lock of its own: Daemon's Permissions, LinkAllows, Fans, Queued
//     and MailRing, and the attach streams (Screens), whose locks are
//     below it.
//  10. rpc.Hub.mu, the event hub's: taken under Table.mu where a change
//     and its event must not be told apart (a new session's
//     session-created, newSessionLocked), else with no lock held.
//  13. Leaves, under which nothing else is taken: Restorer.mu (the
//     debounced save's timer), Window.nameMu (the pacing of a window's
//     automatic name), rpc.Subscriber.mu, and term.Term.mu (mux/term).
package mux
