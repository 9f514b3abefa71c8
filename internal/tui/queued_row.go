package tui

// The reply queue on a row: a reply queued for a pane (the Inbox's r, or
// tuios queue) waits in the daemon until the agent is at rest, and both
// the pane's rail row and its Inbox row say "1 queued" until it is typed
// (seed 003). The count comes with the layout (AttachAgent.Queued).

// queuedFor is how many replies wait for a window of this machine, read
// from the layout's agent rows.
func (m *Model) queuedFor(window string) int {
	if window == "" {
		return 0
	}
	for _, a := range m.layout.Agents {
		if a.Window == window {
			return a.Queued
		}
	}
	return 0
}

// withQueuedNote puts "1 queued" in front of a row's text, where a long
// message cut at the row's end cannot hide it.
func withQueuedNote(text string, n int) string {
	q := queuedBadge(n) // inbox_mail.go
	switch {
	case q == "":
		return text
	case text == "":
		return q
	}
	return q + "  " + text
}
