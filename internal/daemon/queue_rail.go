package daemon

// railLocked tells the attached clients that a pane's count of queued
// replies changed: the rail's agent row and the Inbox row say "1 queued"
// until the entry is typed (seed 003), and the layout carries the count
// (proto.AttachAgent.Queued, filled from count). It only marks the
// streams (the attach hub's lock and each stream's, never q.mu), so it is
// safe under q.mu. Called with q.mu held.
func (q *replyQueue) railLocked() {
	q.s.attach.layoutChanged()
}
