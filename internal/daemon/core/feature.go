package core

import "context"

// Feature is a part of the daemon in a package of its own (the herdr
// socket, the agent log, resume, …). The daemon's composition root keeps
// its features in one ordered list: it inits them in that order while
// the daemon is made and shuts them down in the reverse order as it
// stops, so a feature may rely on the ones before it.
type Feature interface {
	// Name names the feature in the daemon's log ("herdr", "resume").
	Name() string
	// Init adds the feature to the core: its verbs and its hooks (the
	// Registrar's methods, allowed only during Init: the verb table and
	// the hooks are fixed once the daemon is made, and read without a
	// lock) and its subscriptions. It does no I/O: what needs the
	// daemon's socket waits for OnListen, what needs its sessions for
	// OnRestored. An error stops the daemon's New, which shuts down the
	// features inited before.
	Init(h Host) error
	// Shutdown stops what the feature started (its goroutines, sockets,
	// watches, subscriptions) and returns once they are gone, or when
	// ctx ends. It is called once, as the daemon stops: after the
	// daemon's socket closed and before its panes close.
	Shutdown(ctx context.Context) error
}

// Registrar is what a feature adds to the core, only during its Init
// (a call after it panics: it would race with the readers of tables that
// take no lock). The hooks run in the order they were added, with no
// core lock held; a hook must not block on a pane or the network.
type Registrar interface {
	// AddVerb adds a feature's verb to the verb table.
	AddVerb(v Verb)
	// OnPaneStart adds to the environment of every pane started from
	// now on (a feature's variables).
	OnPaneStart(func(PaneStart, map[string]string))
	// OnPaneEnviron adds a rule that reads a caller's environment: the
	// variables whose names start with prefix, when it has any; true
	// when they name one of this daemon's panes. A rule may only ever
	// put a caller inside, never take it out.
	OnPaneEnviron(prefix string, rule func(vars map[string]string) bool)
	// OnWindowClosed adds a hook of the event hub: when a window
	// closes, fn gets its window-closed event in the closing goroutine,
	// after the event went out to the subscribers and before the close
	// returns, so whatever fn does (an Inbox item closed, a queued reply
	// dropped) is done when the verb that closed the window answers. A
	// feature that can catch up later subscribes instead.
	OnWindowClosed(fn func(Event))
	// OnSessionClosed adds a hook of the event hub as OnWindowClosed
	// does, for session-closed: fn runs after the session left the table
	// and its windows closed, before kill-session answers.
	OnSessionClosed(fn func(Event))
	// OnListen adds what to do once the daemon holds its socket and
	// before its sessions come back (a feature's own socket, which a
	// restored pane's environment names). It runs once; a daemon that
	// finds another on its socket never runs it.
	OnListen(fn func())
	// OnRestored adds what to do once the daemon's sessions came back
	// and the Inbox's saved items were loaded; fn gets the windows the
	// restore brought back (none when nothing was saved). It runs once,
	// after the OnListen hooks.
	OnRestored(fn func([]Restored))

	// The person's keys (push notifications, internal/daemon/notify).

	// OnPersonTyped adds what to do when the person typed into a pane:
	// send-text or attach-typed from the process of an attached client
	// that holds a live human nonce (never a link, never a pane, nor a
	// script outside every pane that holds no nonce). fn gets the window
	// typed into, in the typing call's goroutine after the write, with no
	// core lock held; it must not block.
	OnPersonTyped(fn func(window string))
}

// Restored is a window the restore brought back, with the agent
// conversation its saved state held.
type Restored struct {
	Window string // its id
	// AgentSessionID and Harness are the conversation the pane held when
	// it was saved ("" for none); the window keeps them
	// (WindowView.ResumeID) until its agent reports another.
	AgentSessionID string
	Harness        string
	// Live says an agent was running in the pane when it was saved.
	Live bool
}
