// Package links is the daemon's links to other machines, as a feature:
// the outbox that keeps mail for a host whose link is down.
//
// The outbox (outbox.go, outbox_file.go) keeps a message only for a
// sender that asks for it (send-agent-message --queue), on disk under the
// state dir before the send answers agent_message_queued, and sends each
// host's mail in order when its link is up: at once on a host-changed
// event to up, and on a one-shot retry timer (1 s doubling to 30 s) while
// tries fail. It reaches the link and the Inbox only through the hooks of
// OutboxOptions (Deliver, Status, Changed), which the daemon wires.
//
// What it does not own: the session table and its lock, the verb table,
// the event hub (the core's, through internal/daemon/core), the Inbox
// row a host's mail shows as (the daemon's, told through Changed).
package links
