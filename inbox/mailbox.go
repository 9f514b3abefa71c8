package inbox

import (
	"strconv"

	"github.com/tuios/tuios/mail"
)

// MailInput is what the person's mail in one thread says now. The daemon
// builds one (MailFrom does) whenever a message to mail.Human lands in a
// session's ring or the person reads some.
type MailInput struct {
	Session string
	Thread  uint64
	// Unread is how many messages to the person in the thread are unread;
	// 0 closes the item (read).
	Unread int
	// Latest is the newest message to the person in the thread: its
	// sender names the row and its subject (else its text) is the summary.
	Latest mail.Message
	// HeldFor is the label of the pane held link mail was meant for, when
	// the latest message is held.
	HeldFor string
}

// MailFrom builds the input for one thread from its messages (a read of
// the thread with mail.ReadOptions{Thread: id, Limit: -1, Peek: true}):
// the unread messages addressed to mail.Human and the newest of them.
func MailFrom(session string, thread []mail.Message) MailInput {
	in := MailInput{Session: session}
	for i := range thread {
		m := &thread[i]
		if m.To != mail.Human || m.Kind != mail.KindMessage {
			continue
		}
		in.Thread = m.ThreadID
		if m.Unread() {
			in.Unread++
			if m.ID >= in.Latest.ID {
				in.Latest, in.HeldFor = *m, m.HeldForLabel // set on held link mail only
			}
		}
	}
	return in
}

// Mail opens, updates or closes the thread's mail item: one item per
// session and thread, count = unread messages to the person. New mail
// wakes a snoozed item; an unread count of 0 closes it (read). Mail
// dismissed through a message id stays dismissed until a newer message.
func (q *Queue) Mail(in MailInput) []Event {
	if in.Session == "" || in.Thread == 0 {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	k := MailKey(in.Session, in.Thread)
	var evs []Event
	e := q.byKey[k]
	if in.Unread <= 0 {
		if e != nil && !(e.pinned && in.Latest.ID <= e.latest) {
			q.end(&evs, k, ReasonRead)
		}
		return evs
	}
	if in.Latest.ID != 0 && in.Latest.ID <= q.mailMark[k] && e == nil {
		return nil
	}
	it := Item{Kind: KindMail, Session: in.Session, Thread: in.Thread, Count: in.Unread,
		Window: in.Latest.From, Name: CleanSummary(label(in.Latest)), Summary: CleanSummary(mailLine(in.Latest)), HeldFor: CleanSummary(in.HeldFor),
		MessageID: in.Latest.ID}
	e = q.put(&evs, k, it, q.clock.Now())
	if in.Latest.ID > e.latest {
		e.latest, e.pinned = in.Latest.ID, false
	}
	return evs
}

// MailRead says the person read the thread: its item closes (read)
// whatever it said, a restored one included.
func (q *Queue) MailRead(session string, thread uint64) []Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	var evs []Event
	q.end(&evs, MailKey(session, thread), ReasonRead)
	return evs
}

// label names the sender the way every place that shows one does
// (mail.Sender): a window's name with its short id, so two windows
// named alike ("bash", or a shell's "root@vm: ~") are told apart.
func label(m mail.Message) string { return mail.Sender(&m) }

func mailLine(m mail.Message) string {
	if m.Subject != "" {
		return m.Subject
	}
	return m.Text
}

// OutboxInput is what the outbox holds for one linked machine.
type OutboxInput struct {
	Host    string
	Waiting int    // messages waiting for the link
	Refused string // why the far side refused the last one, "" when none
	// Problem is why this machine holds no link to the host at all (an
	// ssh option refused, a host added to the file and not applied), ""
	// when none. The row stays while it is set, mail or not.
	Problem string
}

// Outbox opens, updates or closes the host's "Waiting to send" item: one
// per host, count = waiting messages. Nothing waiting and nothing refused
// closes it (resolved). Outbox items cannot be snoozed; dismissing one
// discards the waiting mail and cannot be undone.
func (q *Queue) Outbox(in OutboxInput) []Event {
	if in.Host == "" {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	k := outboxKey(in.Host)
	var evs []Event
	if in.Waiting <= 0 && in.Refused == "" && in.Problem == "" {
		q.end(&evs, k, ReasonResolved)
		return evs
	}
	it := Item{Kind: KindOutbox, ForHost: in.Host, Name: in.Host, Count: max(in.Waiting, 0), Summary: outboxLine(in)}
	q.put(&evs, k, it, q.clock.Now())
	return evs
}

func outboxLine(in OutboxInput) string {
	n := max(in.Waiting, 0)
	msgs := strconv.Itoa(n) + " messages wait"
	if n == 1 {
		msgs = "1 message waits"
	}
	if in.Problem != "" {
		s := "no link to " + in.Host + ": " + in.Problem
		if n > 0 {
			s += "; " + msgs
		}
		return CleanSummary(s)
	}
	if in.Refused != "" {
		s := "refused by " + in.Host + ": " + in.Refused
		if n > 0 {
			s += "; " + msgs
		}
		return CleanSummary(s)
	}
	return CleanSummary(msgs + " for the link to " + in.Host)
}

// HostRemoved closes the host's outbox item (host_removed).
func (q *Queue) HostRemoved(host string) []Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	var evs []Event
	q.end(&evs, outboxKey(host), ReasonHostRemoved)
	return evs
}
