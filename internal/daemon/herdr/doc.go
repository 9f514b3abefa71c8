// Package herdr is the daemon's herdr socket: herdr's wire and socket API
// over tuios's sessions, so agents that report to herdr by themselves
// (Crush, Kiro CLI, …) report to tuios with no install step, and herdr's
// CLI and tools drive tuios.
//
// A herdr workspace is a tuios session, a tab one of its numbered
// workspaces, a pane a window. Reads answer from the core's View, a copy
// taken under the core's lock and read without it; every method is
// admitted as the tuios verb it does the work of and its targets pass the
// core's one target check; a method that changes something runs that
// verb (pane.rename is set-window, tab.rename set-workspace-name, tab.move
// set-workspace-order, …) or, where no verb exists, one of the core's
// setters (SwapWindows, Touch, CloseWindow); typing goes through the
// core's one write path. Reports go straight to the pane's tracker, at the
// report rank, as set-agent-state's do.
//
// Sock is one of the daemon's features (core.Feature): its Init adds the
// pane environment hooks and serves the socket once the daemon holds its
// own (OnListen, before the first pane starts); its Shutdown closes the
// socket and every connection.
//
// What it owns: the socket and its caps (connections in all, per pane or
// process, event streams, connections not yet placed), the seq
// high-water table, the metadata rate buckets, each reporting pane's
// crash watch, and the herdr variables of a new pane's environment. What
// it does not: the session table and its lock, the verbs, the event hub
// (the core's, through core.Host), herdr's CLI (internal/cli).
package herdr
