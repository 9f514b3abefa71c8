package tui

import (
	"encoding/json"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
)

// Mail over links in the Inbox (docs/inbox.md, The Inbox): held link mail
// and the outbox. A machine whose hosts table says hold_mail = true has its
// mail to a pane stored with the person instead; the row says who it was
// for and p passes it on (release-agent-message, as the person). Mail for a
// machine whose link is down waits under "Waiting to send": it needs
// nothing of the person, so it raises no alert and prefix o skips it; a
// refusal from the far side stays until dismissed.

// heldMail reports whether a row is held link mail this client can pass
// on: this machine's mail item that names who it was for.
func heldMail(it item) bool {
	return it.Kind == "mail" && it.HeldFor != "" && it.Host == ""
}

// heldTag is what a held mail row says after its summary.
func heldTag(it item) string {
	return "[held for " + clean(it.HeldFor) + ", p passes on]"
}

// outboxWho names an outbox row by the machine its mail waits for.
func outboxWho(it item) string {
	if it.ForHost != "" {
		return clean(it.ForHost)
	}
	return clean(it.Name)
}

// rowWho is the "who" column of a row.
func rowWho(it item) string {
	if it.Kind == "outbox" {
		return outboxWho(it)
	}
	return hostWho(it) // inbox_hosts.go: a host's row carries its name
}

// rowSummary is a row's summary with what mail over links adds to it.
func rowSummary(it item, summary string) string {
	if heldMail(it) {
		return summary + "  " + heldTag(it)
	}
	return summary
}

// releaseHeld passes the selected held mail on to the pane it was meant
// for. Like a digit on a question, it acts only once the row has stood
// unchanged for the dwell: the person passes on what they read.
func (m *Model) releaseHeld(it item) tea.Cmd {
	in := m.inbox
	if it.MessageID == 0 {
		in.note = "this mail row names no message: read it with tuios read-agent-messages -w human"
		return nil
	}
	if ok, left := m.ready(); !ok {
		in.note = "read it first: p works in a moment"
		return after(left)
	}
	in.note = "passing it on…"
	in.sent = it
	m.call("release-agent-message", proto.ReleaseMessageParams{Session: it.Session, ID: int(it.MessageID), HumanNonce: m.nonce}, "inbox:release")
	return nil
}

// releaseReply is release-agent-message's answer: the dock says where
// the mail went; a refusal (the pane closed, released already) stays on
// the Inbox's note row.
func (m *Model) releaseReply(r replyMsg) {
	in := m.inbox
	if r.err != nil {
		in.note = "not passed on: " + clean(r.err.Error())
		m.refreshInbox()
		return
	}
	var res proto.MessageReleased
	json.Unmarshal(r.raw, &res)
	to := clean(firstOf(res.ToName, res.To))
	if to == "" {
		to = "the session"
	}
	in.note = ""
	m.say("Passed the mail from %s on to %s (message #%d)", clean(in.sent.Name), to, res.MessageID)
	m.refreshInbox()
}

// queuedBadge is what the rail's host header says about its outbox.
func queuedBadge(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("%d queued", n)
}

// withQueued puts the outbox's "2 queued" beside a host header's badge
// ("seen 3m ago  2 queued") when the row has room for both (used is what
// the name and margins take); otherwise the count goes on a row of its
// own under the header (below), so neither the age nor the count is cut.
func withQueued(badge string, queued, used, inner int) (string, string) {
	q := queuedBadge(queued)
	switch {
	case q == "":
		return badge, ""
	case badge == "":
		return q, ""
	case used+ansi.StringWidth(badge)+2+len(q) <= inner:
		return badge + "  " + q, ""
	}
	return badge, q
}
