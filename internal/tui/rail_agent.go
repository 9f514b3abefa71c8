package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// The keys on a rail agent row (seed 003), while prefix s has put the
// rail's cursor on it (rail_cursor.go):
//
//   - enter goes to the pane, switching session as the Inbox's enter does;
//   - u marks its finished turn unread again, for every client;
//   - z opens the Inbox on its item with the snooze choice open;
//   - r opens a reply line on the dock; enter queues it for the agent;
//   - x drops the newest queued message, and u within 10 seconds queues
//     it again;
//   - v reviews the pane's changes (review.go).
//
// The dock names the keys that act on the row under the cursor.

// requeueWindow is how long after x the row's u queues the message again.
const requeueWindow = 10 * time.Second

// railAgentState is what the agent-row keys keep between a key and the
// daemon's answer.
type railAgentState struct {
	on       proto.AttachAgent // the agent row the cursor was put on (rail_cursor.go)
	reply    *inboxInput       // r's reply line, while it is open
	replyTo  proto.AttachAgent // the agent it goes to
	queueFor string            // the agent named in the dock when queue-prompt answers
	unread   string            // the agent u marked unread, for the dock
	dropFor  *proto.AttachAgent
	dropping *railDropped // asked cancel-queued, no answer yet
	dropped  *railDropped // dropped: u on its row queues it again until until
}

// railDropped is a queued message x dropped, kept for u.
type railDropped struct {
	session, window, name string
	id, text              string
	until                 time.Time
}

// agentName names an agent row in the dock.
func agentName(a proto.AttachAgent) string {
	return clean(firstOf(a.Name, a.Window))
}

// requeueable is the message x dropped from this row, while u may still
// queue it again.
func (m *Model) requeueable(a proto.AttachAgent) *railDropped {
	d := m.railKeys.dropped
	if d == nil || d.window != a.Window || d.session != a.Session || !m.clock.Now().Before(d.until) {
		return nil
	}
	return d
}

// railHint is the dock while the rail has the keys: the keys that act on
// the row under the cursor.
func (m *Model) railHint() string {
	a, ok := m.railAgent()
	if !ok {
		k := func(act string) string { return m.keys.first("rail." + act) } // bindings.go: as bound now
		return "rail: " + k("up") + "/" + k("down") + " move, " + k("go") + " attaches, " + k("close") + " leaves"
	}
	keys := []string{"enter go", "r reply"}
	if m.requeueable(a) != nil {
		keys = append(keys, "u queue it again")
	} else {
		keys = append(keys, "u unread")
	}
	keys = append(keys, "z snooze")
	if a.Queued > 0 {
		keys = append(keys, "x drop newest queued")
	}
	keys = append(keys, "v review", "esc leave")
	return agentName(a) + ": " + strings.Join(m.boundHints(ModeRail, keys), "  ") // hint.go: the keys bound now
}

// railAgentKey is a key on an agent row other than the cursor's own.
func (m *Model) railAgentKey(a proto.AttachAgent, name string) {
	name0 := agentName(a)
	switch name {
	case "u":
		if d := m.requeueable(a); d != nil {
			m.railKeys.dropped = nil
			m.railKeys.queueFor = d.name
			m.call("queue-prompt", proto.QueuePromptParams{Session: d.session, Window: d.window, Text: d.text,
				HumanNonce: m.nonce}, "rail:queue")
			m.say("%s: queueing it again…", name0)
			return
		}
		m.railKeys.unread = name0
		m.call("mark-attention", proto.MarkAttentionParams{Action: "unread", Session: a.Session, Window: a.Window,
			HumanNonce: m.nonce}, "rail:unread")
	case "z":
		m.railOn = false
		m.dock = ""
		m.openInbox()
		m.inbox.snoozeFor = &a // inbox.go: its item is selected and z's question asked once the list comes
	case "r":
		m.openRailReply(a)
	case "x":
		if a.Queued == 0 {
			m.say("%s has no queued message", name0)
			return
		}
		m.railKeys.dropFor = &a
		m.call("list-queued", proto.ListQueuedParams{Session: a.Session, Window: a.Window, HumanNonce: m.nonce}, "rail:list")
	case "v":
		m.openReview(a.Session, a.Window, name0, "") // review.go; esc comes back to the rail
	}
}

// openRailReply opens the reply line for an agent row, or says why not:
// like the Inbox's r, never to an agent waiting on a prompt (the reply
// would wait behind it, and a queued message never answers a prompt).
func (m *Model) openRailReply(a proto.AttachAgent) {
	name := agentName(a)
	if m.waitingOnPrompt(a.Session, a.Window) || a.Asking {
		m.say("%s is waiting on a prompt. Answer it first (the Inbox).", name)
		return
	}
	word := clean(a.State)
	if word == "" {
		word = "at rest"
	}
	if a.SinceMS > 0 {
		if g := age(m.clock.Now(), a.SinceMS*int64(time.Millisecond)); g != "" {
			word += " " + g
		}
	}
	m.railKeys.replyTo = a
	m.railKeys.reply = &inboxInput{reply: true, label: fmt.Sprintf("Reply to %s (%s): ", name, word), limit: maxReplyText}
}

// railReplyKey takes the keys while r's reply line is open: enter queues
// it, esc cancels, and the cursor is back on the row. The prefix still
// works; it reports false then so onKey takes it.
func (m *Model) railReplyKey(k tea.Key) (tea.Cmd, bool) {
	x := m.railKeys.reply
	if x == nil || m.review != nil {
		return nil, false
	}
	name := keyName(k)
	if m.prefix || name == m.keys.prefix {
		return nil, false
	}
	switch name {
	case "enter":
		m.railKeys.reply = nil
		text := strings.TrimSpace(clean(string(x.text)))
		if text == "" {
			m.dock = m.railHint()
			return nil, true
		}
		a := m.railKeys.replyTo
		m.railKeys.queueFor = agentName(a)
		m.call("queue-prompt", proto.QueuePromptParams{Session: a.Session, Window: a.Window, Text: text,
			HumanNonce: m.nonce}, "rail:queue")
	case "esc", "ctrl+c":
		m.railKeys.reply = nil
		m.dock = m.railHint()
	default:
		x.edit(k, name)
	}
	return nil, true
}

// railReplyPaste takes a paste into the reply line.
func (m *Model) railReplyPaste(text string) bool {
	if m.railKeys.reply == nil || m.review != nil {
		return false
	}
	m.railKeys.reply.add(text)
	return true
}

// railReplyLine is the dock while the reply line is open.
func (m *Model) railReplyLine() (string, bool) {
	x := m.railKeys.reply
	if x == nil {
		return "", false
	}
	return fitPlain(x.label+string(x.text), m.width, m.opt.ASCIIOnly), true
}

// queuedEntry is one of list-queued's entries.
type queuedEntry struct {
	ID      string `json:"id"`
	Session string `json:"session"`
	Window  string `json:"window"`
	Preview string `json:"preview"`
	Text    string `json:"text"` // the whole message, when the daemon gives it
	State   string `json:"state"`
}

// newestDroppable is the newest entry that can still be dropped (one
// being typed cannot), and its text to queue again.
func newestDroppable(entries []queuedEntry, window string) (queuedEntry, bool) {
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if e.Window == window && e.State != "delivering" {
			return e, true
		}
	}
	return queuedEntry{}, false
}

// railReply is the daemon's answer to an agent-row key.
func (m *Model) railReply(r replyMsg) tea.Cmd {
	switch r.tag {
	case "rail:unread":
		if r.err != nil {
			m.say("unread %s: %s", m.railKeys.unread, r.err.Error())
			return nil
		}
		m.say("%s's finished turn is unread again", m.railKeys.unread)
	case "rail:queue":
		if r.err != nil {
			m.say("reply to %s: %s", m.railKeys.queueFor, r.err.Error())
			return nil
		}
		var res proto.PromptQueued
		json.Unmarshal(r.raw, &res)
		m.say("Queued for %s: typed when it is ready (%d in line)", m.railKeys.queueFor, max(res.Position, 1))
	case "rail:list":
		return m.dropNewest(r)
	case "rail:drop":
		d := m.railKeys.dropping
		m.railKeys.dropping = nil
		if d == nil {
			return nil
		}
		if r.err != nil {
			m.say("drop %s's message: %s", d.name, r.err.Error())
			return nil
		}
		if d.text == "" { // the daemon gave only a cut preview: queueing that would change the message
			m.say("Dropped %s for %s", d.id, d.name)
			return nil
		}
		d.until = m.clock.Now().Add(requeueWindow)
		m.railKeys.dropped = d
		m.say("Dropped %s for %s (u within 10s queues it again)", d.id, d.name)
		return after(requeueWindow)
	}
	return nil
}

// dropNewest drops the newest queued message list-queued names for the
// row x was pressed on.
func (m *Model) dropNewest(r replyMsg) tea.Cmd {
	a := m.railKeys.dropFor
	m.railKeys.dropFor = nil
	if a == nil {
		return nil
	}
	name := agentName(*a)
	if r.err != nil {
		m.say("queued for %s: %s", name, r.err.Error())
		return nil
	}
	var res struct {
		Entries []queuedEntry `json:"entries"`
	}
	json.Unmarshal(r.raw, &res)
	e, ok := newestDroppable(res.Entries, a.Window)
	if !ok {
		if len(res.Entries) > 0 {
			m.say("%s's queued message is being typed now; it cannot be dropped", name)
		} else {
			m.say("%s has no queued message", name)
		}
		return nil
	}
	text := e.Text
	if text == "" && !strings.HasSuffix(e.Preview, "…") {
		text = e.Preview // a one-line message up to 80 characters is whole in it
	}
	m.railKeys.dropping = &railDropped{session: a.Session, window: a.Window, name: name, id: clean(e.ID), text: text}
	m.call("cancel-queued", proto.CancelQueuedParams{Session: a.Session, Window: a.Window, ID: e.ID,
		HumanNonce: m.nonce}, "rail:drop")
	return nil
}

// snoozeWanted is z from a rail agent row, once the Inbox's list came:
// the pane's item is selected (one that can be snoozed first) and z's
// question asked about it.
func (m *Model) snoozeWanted() {
	in := m.inbox
	a := in.snoozeFor
	if a == nil {
		return
	}
	in.snoozeFor = nil
	pick := -1
	for i, it := range in.items {
		if it.Host != "" || it.Window != a.Window || it.Session != a.Session {
			continue
		}
		if pick < 0 || snoozable(it) && !snoozable(in.items[pick]) {
			pick = i
		}
	}
	if pick < 0 {
		in.note = agentName(*a) + " has nothing in the Inbox to snooze"
		return
	}
	in.sel = pick
	m.snoozeKey(in.items[pick]) // inbox_snooze.go
}
