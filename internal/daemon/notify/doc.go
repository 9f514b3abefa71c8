// Package notify is push notifications as a feature of the daemon
// (docs/integrations.md, Push notifications): it hands internal/push's
// Notifier every change of the Inbox and says when the person typed, so
// what waits for them reaches their phone whether or not a client is
// attached.
//
//   - The Inbox's changes come from the event hub (core.Host.Subscribe),
//     as the attention events every subscriber gets: nothing in the
//     Inbox's code knows of pushes. The subscription's queue is bounded;
//     when it overflows, the open items are listed again (Resync), and
//     the Notifier looks each item up when it falls due, so a missed
//     close never sends. It follows from once the sessions came back and
//     the Inbox's saved items loaded (core.Registrar.OnRestored): the
//     items that came back from before a restart were sent (or not) then.
//   - The person typed: the core says so (core.Registrar.OnPersonTyped)
//     for send-text or attach-typed from the process of an attached
//     client holding a live human nonce. Nothing a pane runs holds one.
//   - [notify] is applied when the daemon starts and on apply-config
//     (Apply; tuios config apply, refused from inside a pane). While the
//     daemon follows the file, an edit applies at once only what narrows
//     (FileChanged: enabled = false, the triggers, a provider removed); a
//     new address, a new secret source, web_url, content and the timing
//     wait for apply-config and the log says so: a program in a pane can
//     edit the file, and must not send the person's Inbox elsewhere.
//   - token_env is read from the daemon's own environment (the one it
//     started with), on each send.
//
// Locks: Feature.mu (what the start or apply-config applied) is a leaf;
// the Notifier's locks are internal/push's. What it does not own: the
// sends, the rules and the wire formats (internal/push), the file and
// what narrows ([notify], internal/config), the Inbox
// (internal/daemon/attention), when an apply happens (the core's config
// follower and apply-config).
package notify
