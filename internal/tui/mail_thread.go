package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/safetext"
	"github.com/tuios/tuios/mail"
)

// The mail overlay: prefix M opens the Inbox on its Mail heading; enter
// or space on a mail row reads the thread (read-agent-messages on the
// human inbox, which marks it read, so the row and the rail's count go);
// r opens a reply line and enter sends it into the thread as the person:
// send-agent-message with this attach's nonce, so the reply is from
// human, verified, and a pane waiting with
// `tuios wait-for agent-message --thread N` gets it.
//
// Every message is data: its text is drawn fenced, each line behind a
// bar, with control characters and escapes written out (\x1b), never
// run, so a line that looks like the fence's end is still inside it.

// maxMailReply is the most the reply line takes: send-agent-message's
// limit on a message's text.
const maxMailReply = 8 << 10

// maxMailSubject is send-agent-message's limit on a subject, in characters.
const maxMailSubject = 120

// mailThread is the thread the overlay shows.
type mailThread struct {
	it      item // the Mail row it was opened from
	msgs    []threadMsg
	loaded  bool
	top     int  // the first row shown; -1 shows the end
	replyOn bool // r was pressed before the thread came: the reply line opens then
}

// threadMsg is one message of read-agent-messages (proto.MailMessage),
// the fields drawn.
type threadMsg struct {
	ID            uint64 `json:"id"`
	Kind          string `json:"kind"`
	From          string `json:"from"`
	FromLabel     string `json:"from_label"`
	To            string `json:"to"`
	ToLabel       string `json:"to_label"`
	Subject       string `json:"subject"`
	Text          string `json:"text"`
	ThreadID      uint64 `json:"thread_id"`
	SentAt        int64  `json:"sent_at"`
	VerifiedHuman bool   `json:"verified_human"`
	ClaimedHuman  bool   `json:"claimed_human"`
	Origin        string `json:"origin"`
	OriginHost    string `json:"origin_host"`
	Held          bool   `json:"held"` // held link mail: passed on with p, not read here
}

// threadMsgOf is the part of a message read that the thread draws.
func threadMsgOf(m proto.MailMessage) threadMsg {
	return threadMsg{ID: m.ID, Kind: string(m.Kind), From: m.From, FromLabel: m.FromLabel, To: m.To, ToLabel: m.ToLabel,
		Subject: m.Subject, Text: m.Text, ThreadID: m.ThreadID, SentAt: m.SentAt, VerifiedHuman: m.VerifiedHuman,
		ClaimedHuman: m.ClaimedHuman, Origin: m.Origin, OriginHost: m.OriginHost, Held: m.Held}
}

// readsThread reports whether enter, space or r on a row reads its mail
// thread here: this machine's mail, not held link mail (reading that
// would mark it read before the person passes it on with p).
func readsThread(it item) bool {
	return it.Kind == "mail" && it.Host == "" && !heldMail(it) && it.MessageID != 0
}

// openMail is prefix M: the Inbox on its Mail heading.
func (m *Model) openMail() {
	m.openInbox()
	m.inbox.only = "Mail"
}

// openThread reads a mail row's thread.
func (m *Model) openThread(it item, reply bool) {
	in := m.inbox
	in.thread = &mailThread{it: it, top: -1, replyOn: reply}
	in.note = ""
	m.dropPending()
	m.readThread()
}

// readThread (re)reads the open thread. Reading the human inbox marks
// what the person read, but lists only what was written to them; the
// thread is then read whole (the session's mail, marking nothing), so
// the person's own replies show between. The calls go out in order.
func (m *Model) readThread() {
	t := m.inbox.thread
	m.call("read-agent-messages", proto.ReadMessagesParams{Session: t.it.Session, To: "human",
		Thread: int(t.it.MessageID), Limit: 256}, "inbox:threadmark")
	m.call("read-agent-messages", proto.ReadMessagesParams{Session: t.it.Session,
		Thread: int(t.it.MessageID), Limit: 256}, "inbox:thread")
}

// threadMarked is the marking read's answer: only a refusal is news.
func (m *Model) threadMarked(r replyMsg) {
	if r.err != nil && m.inbox.thread != nil {
		m.inbox.note = "not marked read: " + clean(r.err.Error())
	}
}

// threadReply is read-agent-messages' answer.
func (m *Model) threadReply(r replyMsg) {
	in := m.inbox
	t := in.thread
	if t == nil {
		return
	}
	if r.err != nil {
		in.note = "not read: " + clean(r.err.Error())
		t.loaded = true
		return
	}
	var res proto.MessagesRead
	json.Unmarshal(r.raw, &res)
	t.msgs = make([]threadMsg, len(res.Messages))
	for i, msg := range res.Messages {
		t.msgs[i] = threadMsgOf(msg)
	}
	t.loaded, t.top = true, -1
	m.refreshInbox() // the thread was marked read: its row goes from the list under it
	if t.replyOn {
		t.replyOn = false
		m.openMailReply()
	}
}

// replyTarget is the message a reply answers: the newest one written to
// the person.
func (t *mailThread) replyTarget() (threadMsg, bool) {
	for i := len(t.msgs) - 1; i >= 0; i-- {
		if t.msgs[i].To == "human" {
			return t.msgs[i], true
		}
	}
	return threadMsg{}, false
}

// openMailReply opens the reply line on the dock.
func (m *Model) openMailReply() {
	in := m.inbox
	t := in.thread
	if !t.loaded {
		t.replyOn = true
		return
	}
	to, ok := t.replyTarget()
	if !ok {
		in.note = "nothing in this thread was written to you"
		return
	}
	in.input = &inboxInput{mail: true, it: t.it, label: "Reply to " + senderName(to) + ": ", limit: maxMailReply}
}

// sendMailReply sends the typed line into the thread as the person.
func (m *Model) sendMailReply(text string) {
	in := m.inbox
	t := in.thread
	if text == "" || t == nil {
		return
	}
	to, ok := t.replyTarget()
	if !ok {
		return
	}
	if m.nonce == "" {
		in.note = "not attached yet: the reply was not sent"
		return
	}
	p := proto.SendMessageParams{Session: t.it.Session, ReplyTo: int(to.ID), Text: text, HumanNonce: m.nonce,
		Subject: replySubject(to.Subject)}
	if to.From != "" && to.From != "human" {
		p.To = to.From // the sender's pane; a label alone has no inbox: the reply is a notice in the thread
	}
	in.note = "sending…"
	m.call("send-agent-message", p, "inbox:mailsent")
}

// replySubject is "Re: subject", cut to the subject limit.
func replySubject(s string) string {
	s = clean(s)
	if s == "" {
		return ""
	}
	if !strings.HasPrefix(strings.ToLower(s), "re: ") {
		s = "Re: " + s
	}
	if utf8.RuneCountInString(s) > maxMailSubject {
		s = string([]rune(s)[:maxMailSubject])
	}
	return s
}

// mailSentReply is send-agent-message's answer: the dock says where the
// reply went and the thread is read again, the reply in it.
func (m *Model) mailSentReply(r replyMsg) {
	in := m.inbox
	if r.err != nil {
		in.note = "not sent: " + clean(r.err.Error())
		return
	}
	var res proto.MessageSent
	json.Unmarshal(r.raw, &res)
	in.note = ""
	m.say("Replied to %s (message #%d)", firstOf(clean(res.ToName), "the thread"), res.MessageID)
	if in.thread != nil {
		m.readThread()
	}
}

// threadKey takes a key while a thread is open: r replies, j/k scroll,
// enter goes to the sender's pane, esc/q/space go back to the list.
func (m *Model) threadKey(name string) {
	in := m.inbox
	t := in.thread
	switch m.keys.in(ModeMail, name) {
	case MlReply:
		m.openMailReply()
	case MlDown:
		t.top = m.threadTop() + 1
	case MlUp:
		t.top = max(m.threadTop()-1, 0)
	case MlPageDown:
		t.top = m.threadTop() + 10
	case MlPageUp:
		t.top = max(m.threadTop()-10, 0)
	case MlTop:
		t.top = 0
	case MlBottom:
		t.top = -1
	case MlOpen:
		win := ""
		if to, ok := t.replyTarget(); ok && to.From != "human" {
			win = to.From
		}
		m.inbox = nil
		m.goTo(t.it.Session, win)
	case MlBack, mlSpace:
		in.thread, in.note = nil, ""
		m.refreshInbox()
		if in.box != nil {
			m.openBox() // mail_box.go: back to the mailbox, read again
		}
	}
}

// threadTop is the first row shown, the end made explicit.
func (m *Model) threadTop() int {
	_, cols, rows, _ := m.geometry()
	body := max(rows-4, 1)
	n := len(m.threadLines(cols))
	t := m.inbox.thread
	last := max(n-body, 0)
	if t.top < 0 || t.top > last {
		return last
	}
	return t.top
}

// asMail is the message as the mail package names and fences it.
func (msg threadMsg) asMail() *mail.Message {
	return &mail.Message{Kind: mail.Kind(msg.Kind), From: msg.From, FromLabel: msg.FromLabel, VerifiedHuman: msg.VerifiedHuman,
		ClaimedHuman: msg.ClaimedHuman, Origin: msg.Origin, OriginHost: msg.OriginHost}
}

// senderName names a message's sender as the thread shows it: "you" for
// the person's own words, else as everywhere else (mail.Sender), a
// window's name with its short id so two windows named alike differ.
func senderName(msg threadMsg) string {
	if mail.FromPerson(msg.asMail()) {
		return "you"
	}
	return clean(mail.Sender(msg.asMail()))
}

// threadLines are the thread's rows: per message a heading, its subject
// and its text fenced, each text line behind a bar.
func (m *Model) threadLines(cols int) []string {
	t := m.inbox.thread
	a := m.opt.ASCIIOnly
	line := func(s string) string { return fitPlain(s, cols, a) }
	bar := "│ "
	if a {
		bar = "| "
	}
	if !t.loaded {
		return []string{line(" reading the thread…")}
	}
	now := m.clock.Now()
	var out []string
	for i, msg := range t.msgs {
		if i > 0 {
			out = append(out, "")
		}
		to := clean(firstOf(msg.ToLabel, msg.To))
		if msg.To == "human" {
			to = "you"
		}
		if to == "" {
			to = "everyone"
		}
		head := fmt.Sprintf(" #%d  %s → %s  %s ago", msg.ID, senderName(msg), to, age(now, msg.SentAt))
		if a {
			head = strings.Replace(head, "→", "->", 1)
		}
		out = append(out, sgrBold+line(head)+sgrReset)
		if s := clean(msg.Subject); s != "" {
			out = append(out, line(" subject: "+s))
		}
		// The person's own words are not fenced: only text from a pane,
		// an agent or another machine is untrusted.
		mine := mail.FromPerson(msg.asMail())
		if !mine {
			out = append(out, sgrMuted+line(" "+mail.FenceBegin(senderName(msg)))+sgrReset)
		}
		for _, l := range strings.Split(strings.ReplaceAll(msg.Text, "\r\n", "\n"), "\n") {
			l = safetext.Escape(strings.ReplaceAll(l, "\t", "    "), false)
			for _, w := range strings.Split(ansi.Wrap(l, max(cols-3, 1), ""), "\n") {
				out = append(out, line(" "+bar+w))
			}
		}
		if !mine {
			out = append(out, sgrMuted+line(" "+mail.FenceEnd)+sgrReset)
		}
	}
	if len(t.msgs) == 0 {
		out = append(out, line(" This thread has no messages left (the ring dropped them)."))
	}
	return out
}

// threadRows draws the open thread under the Inbox's header row.
func (m *Model) threadRows(cols, rows int, out []string) []string {
	in := m.inbox
	t := in.thread
	a := m.opt.ASCIIOnly
	line := func(s string) string { return fitPlain(s, cols, a) }
	title := " Mail from " + clean(firstOf(t.it.Name, "anonymous"))
	if s := clean(t.it.Summary); s != "" {
		title += ": " + s
	}
	out = append(out, sgrBold+line(title)+sgrReset)
	body := max(rows-4, 1)
	lines := m.threadLines(cols)
	top := m.threadTop()
	out = append(out, lines[min(top, len(lines)):min(top+body, len(lines))]...)
	for len(out) < rows-2 {
		out = append(out, "")
	}
	out = out[:max(rows-2, 1)]
	out = append(out, line(" "+in.note))
	keys := strings.Join(m.boundHints(ModeMail, []string{"r reply", m.keys.first(MlDown) + "/" + m.keys.first(MlUp) + " scroll", "enter go to sender", "esc back"}), "  ")
	if in.input != nil {
		keys = "enter send  esc cancel"
	}
	out = append(out, sgrReverse+line(" "+keys)+sgrReset)
	for i, l := range out {
		if l == "" {
			out[i] = strings.Repeat(" ", cols)
		}
	}
	return out
}
