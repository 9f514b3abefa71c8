// Package rpc is the daemon's side of its connections: for now the event
// hub, which the core publishes to and the subscribe verb, the features
// (core.Host.Publish, Subscribe) and the daemon's own followers read.
//
// It is to own, as issue 29 splits package daemon, the connections, the
// dispatch of a request to its verb, the verb registry with each verb's
// access rules, and the placement of a caller; those are still in package
// daemon (conn.go, verbs.go, access.go, caller.go). Of the registry it
// holds so far how a verb's typed params are decoded and checked
// (Handle), generic in what a handler gets about its caller, so the
// registry never needs the connection's insides.
//
// # The hub
//
// Hub.Publish gives an event its seq and time and hands it to every
// Subscriber whose filter wants it, through a bounded queue: a subscriber
// that falls behind loses events (Subscriber.TakeLost says how many, and
// its reader announces the gap), and never holds the publisher. After the
// fan-out, with no lock of the hub's held, Publish runs the hooks of the
// event's type (Hub.Hook: a feature's core.Registrar.OnWindowClosed), so
// what they do is done when the publisher returns. An observer
// (Hub.Observe: the attach streams) sees every event first, in seq order.
// output events cost a publish per pane read: Hub.Wants says whether
// anyone asked for them.
//
// What it does not own: the events' shape and types (core.Event, the
// event types named where they are published), what the subscribe verb
// replays (the Inbox's store picks it, the hub only queues it ahead), and
// writing a subscriber's events to its connection (package daemon).
//
// # Locks
//
// Hub.mu, then Subscriber.mu, a leaf. Hub.mu is held across the
// observer (Hub.Observe), which takes the attach hub's locks in package
// daemon, and never across a hook (Hub.Hook) or a subscriber's reader.
// Where Hub.mu sits among the core's locks is internal/daemon/doc.go's
// order (rpc.Hub.mu).
package rpc
