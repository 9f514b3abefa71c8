// Package daemon is the tuios daemon: sessions of windows grouped in
// numbered workspaces, each window a shell on a PTY with a screen and an
// agent tracker, served over the JSON-lines control protocol on a unix
// socket. It runs detached: nothing needs a client.
//
// Every CLI verb is a protocol verb; the CLI is a thin client. The daemon
// owns addressing (sessions by name, windows by id, index, prefix or name),
// placing a caller inside its own pane (by the kernel's peer credentials
// and the caller's process ancestry), waits, and the event stream. The
// agent state itself comes from package detect's Tracker and package
// agentstate's Arbiter; the daemon only serves it.
package daemon
