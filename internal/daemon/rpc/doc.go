// Package rpc is the daemon's side of its connections: the event hub,
// which the core publishes to and the subscribe verb, the features
// (core.Host.Publish, Subscribe) and the daemon's own followers read; and
// the verb registry, with each verb's access declaration.
//
// It is to own, as issue 29 splits package daemon, the connections, the
// dispatch of a request to its verb and the placement of a caller too;
// those are still in package daemon (conn.go, gate.go, caller.go), which
// fills the registry (verbs.go and the verbs_*.go files) and enforces the
// declarations (gate.go's admit, the one write path).
//
// # The registry
//
// Registry holds every Verb a daemon serves: its name, description,
// returns, example, params and run, and its Access. It is generic in
// what a handler gets about its caller (C: package daemon's connection),
// so it never needs the connection's insides; Handle makes a verb's
// params and run from a handler of typed params, decoded strictly and
// checked against their tags. Lookup and Names serve dispatch, Nearest
// the did-you-mean of an unknown verb, and List is list-verbs' answer
// (through it, tuios mcp and the tests read the declarations). The
// registry is filled while the daemon is made and read without a lock
// after.
//
// Access is a verb's one declaration, packed in one word: who may call
// it (WhoAnyone … WhoOutside), the grants a pane needs in its own session
// (grant.Set), the link capabilities another machine's link needs
// (core.LinkCap; core.CapLocal: never over a link), and what it does
// beyond that (TypesInto, AgentFeature, HoldsConn, MarksRead,
// QueuesInput). The classes (Reads, Writes, Types, Administers, …) are
// constants; ClassAccess maps a feature's core.Class onto them, and a
// class it does not know declares nothing: refused to every caller. An
// Access only says; package daemon's gate and write path enforce it, and
// the links feature's policy grants the link capabilities.
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
// What it does not own: who a caller is and what it holds (package
// daemon's placement and grants), the verbs' handlers, the events' shape
// and types (core.Event, the event types named where they are
// published), what the subscribe verb replays (the Inbox's store picks it, the hub only queues it ahead), and
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
