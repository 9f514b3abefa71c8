package tui

import (
	"encoding/json"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// The person's mail (the human inbox) on the rail and in the dock: the
// rail's agents header says how many messages wait ("Agents · 3 mail")
// and, when mail to human arrives, the dock says who wrote, once. The
// client lists the mail rows on each layout and once a second (a layout
// the daemon would send unchanged is not sent, so mail alone may bring
// none); a list still out when the next is due is asked again once it
// answers, never twice at a time.

// mailPollStale is how long a list may be out before another is sent
// anyway: a reply lost with a re-attach must not stop the count for good.
const mailPollStale = 10 * time.Second

// mailState is what the client knows of the person's mail.
type mailState struct {
	unread int    // unread messages to human, this machine's
	newest uint64 // the newest message id the dock said (or found at attach)
	said   string // the dock line the newest mail news wrote
	primed bool   // the first answer only sets newest: mail already there is not news
	// from is when the client attached (unix ns, this machine's clock,
	// the daemon's too: only this machine's mail is counted): mail whose
	// item opened after it is news even when the first answer, which
	// primes, comes after it.
	from    int64
	queued  bool      // a list is asked for and not yet sent
	polling bool      // a list is out
	sentAt  time.Time // when it went
	again   bool      // a layout came while it was out
	seq     uint64    // the layout's attention_seq last listed for
}

// mailRow is a mail row of list-attention, with the fields the rail needs.
type mailRow struct {
	Kind      string `json:"kind"`
	Host      string `json:"host"`
	Name      string `json:"name"`
	Summary   string `json:"summary"`
	Count     int    `json:"count"`
	MessageID uint64 `json:"message_id"`
	Snoozed   int64  `json:"snoozed_until"`
	Since     int64  `json:"since"` // unix ns: when its item opened
}

// mailPollMsg sends the list: a layout asks for it with a command, so
// handling the layout never waits on the call being queued. Nothing polls:
// the layout carries the Inbox's seq, and a new one means list again.
type mailPollMsg struct{}

// pollMail asks for the person's mail rows when the layout says the Inbox
// changed since the last list, once however many layouts ask; a change
// while a list is out is listed again once it answers.
func (m *Model) pollMail() tea.Cmd {
	ms := &m.mail
	if m.calls == nil || m.opt.AgentsOff || m.link.host != "" {
		return nil // on another machine's session its mail is not this person's count here
	}
	seq := m.layout.AttentionSeq
	if seq == ms.seq && ms.primed && !ms.again {
		return nil // the Inbox has not changed since the last list
	}
	if ms.polling && m.clock.Now().Sub(ms.sentAt) < mailPollStale {
		ms.again = true
		return nil
	}
	if ms.queued {
		return nil
	}
	ms.queued = true
	return func() tea.Msg { return mailPollMsg{} }
}

// onMailPoll sends the list pollMail asked for. Nothing is armed after
// it: the layout stream's attention_seq says when to list again.
func (m *Model) onMailPoll(mailPollMsg) tea.Cmd {
	ms := &m.mail
	ms.queued = false
	if m.calls == nil || m.opt.AgentsOff || m.link.host != "" {
		return nil
	}
	ms.polling, ms.again, ms.sentAt, ms.seq = true, false, m.clock.Now(), m.layout.AttentionSeq
	m.call("list-attention", proto.ListAttentionParams{Kinds: []string{"mail"}, Host: "local", IncludeSnoozed: true}, "mail:poll")
	return nil
}

// mailPolled takes the list: the count for the rail, and the dock line
// for mail newer than any said before.
func (m *Model) mailPolled(r replyMsg) tea.Cmd {
	ms := &m.mail
	ms.polling = false
	var again tea.Cmd
	if ms.again {
		again = m.pollMail()
	}
	var res struct {
		Items []mailRow `json:"items"`
	}
	if r.err != nil || json.Unmarshal(r.raw, &res) != nil {
		return again
	}
	n, fresh, newest := 0, 0, ms.newest
	var news mailRow
	for _, it := range res.Items {
		if it.Kind != "mail" || it.Host != "" {
			continue
		}
		n += max(it.Count, 1)
		// Before the first answer, only mail that came after the attach.
		if it.MessageID > ms.newest && it.Snoozed == 0 && (ms.primed || ms.from != 0 && it.Since >= ms.from) {
			fresh++
			if it.MessageID > news.MessageID {
				news = it
			}
		}
		newest = max(newest, it.MessageID)
	}
	ms.unread, ms.newest = n, newest
	ms.primed = true
	if fresh == 0 || m.layout.AgentsOff {
		return again
	}
	text := mailNews(news, fresh)
	if !m.opt.DockOff {
		m.dock, ms.said = text, text
	}
	return tea.Batch(again, m.ring(text)) // alerts.go: the bell and OSC 9, as the options allow
}

// mailNews is the dock's line for new mail: who wrote and what about.
func mailNews(it mailRow, threads int) string {
	who := clean(it.Name)
	if who == "" {
		who = "anonymous"
	}
	s := "mail from " + who
	if sub := clean(it.Summary); sub != "" {
		s += ": " + sub
	}
	if threads > 1 {
		s += fmt.Sprintf(" (+%d more)", threads-1)
	}
	return s + " (prefix M reads it)"
}

// mailOnRail reports whether the rail shows the agents header for mail
// alone: unread mail is news even before any pane shows an agent.
func (m *Model) mailOnRail() bool {
	return m.mail.unread > 0 && !m.opt.AgentsOff && !m.layout.AgentsOff
}

// agentsHeader is the rail's agents heading, with the person's unread
// mail when there is some.
func (m *Model) agentsHeader() string {
	if m.mail.unread <= 0 {
		return " Agents"
	}
	dot := "·"
	if m.opt.ASCIIOnly {
		dot = "-"
	}
	return fmt.Sprintf(" Agents %s %d mail", dot, m.mail.unread)
}
