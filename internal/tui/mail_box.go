package tui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// The whole mailbox: m in the Inbox lists every thread written to the
// person in the sessions on the rail, read ones too (an Inbox row closes
// once its mail is read; the mail stays in the session's ring). Listing
// marks nothing (a peek); enter reads a thread in the mail overlay, and
// esc there comes back here.

// mailbox is the listed threads.
type mailbox struct {
	threads []boxThread
	waiting int // sessions whose read has not answered yet
	sel     int
	note    string // a session whose mail could not be read
}

// boxThread is one thread of the mailbox: its newest message to the
// person and how many of its messages to them are unread.
type boxThread struct {
	session string
	newest  threadMsg
	unread  int
}

// openBox reads the person's mail in every session on the rail.
func (m *Model) openBox() {
	in := m.inbox
	sel := 0
	if in.box != nil {
		sel = in.box.sel // read again on the way back from a thread: the cursor stays
	}
	in.box = &mailbox{sel: sel}
	for _, s := range m.layout.Sessions {
		in.box.waiting++
		m.call("read-agent-messages", proto.ReadMessagesParams{Session: s.Name, To: "human", Peek: true, Limit: 256}, "inbox:box")
	}
}

// boxReply adds one session's mail to the mailbox.
func (m *Model) boxReply(r replyMsg) {
	b := m.inbox.box
	if b == nil {
		return
	}
	b.waiting = max(b.waiting-1, 0)
	if r.err != nil {
		b.note = "not all mail was read: " + clean(r.err.Error())
		return
	}
	var res proto.MessagesRead
	json.Unmarshal(r.raw, &res)
	byThread := map[uint64]int{}
	for i, t := range b.threads {
		if t.session == res.Session {
			byThread[t.newest.ThreadID] = i
		}
	}
	for _, msg := range res.Messages {
		if msg.To != "human" {
			continue
		}
		i, ok := byThread[msg.ThreadID]
		if !ok {
			i = len(b.threads)
			byThread[msg.ThreadID] = i
			b.threads = append(b.threads, boxThread{session: res.Session, newest: threadMsgOf(msg)})
		}
		t := &b.threads[i]
		if msg.ID >= t.newest.ID {
			t.newest = threadMsgOf(msg)
		}
		if msg.ReadAt == 0 && msg.Kind == "message" {
			t.unread++
		}
	}
	sort.SliceStable(b.threads, func(i, j int) bool { return b.threads[i].newest.SentAt > b.threads[j].newest.SentAt })
	b.sel = min(b.sel, max(len(b.threads)-1, 0))
}

// boxKey takes a key while the mailbox is shown.
func (m *Model) boxKey(name string) {
	in := m.inbox
	b := in.box
	act := m.keys.in(ModeMail, name)
	switch act {
	case MlDown:
		b.sel = min(b.sel+1, max(len(b.threads)-1, 0))
	case MlUp:
		b.sel = max(b.sel-1, 0)
	case MlPageDown:
		b.sel = min(b.sel+10, max(len(b.threads)-1, 0))
	case MlPageUp:
		b.sel = max(b.sel-10, 0)
	case MlTop:
		b.sel = 0
	case MlBottom:
		b.sel = max(len(b.threads)-1, 0)
	case MlOpen, mlSpace, MlReply:
		if b.sel < len(b.threads) {
			t := b.threads[b.sel]
			if t.newest.Held {
				b.note = "held link mail: read it and pass it on from its Inbox row (p)"
				return
			}
			m.openThread(item{Kind: "mail", Session: t.session, Window: t.newest.From, Name: senderName(t.newest),
				Summary: firstOf(t.newest.Subject, t.newest.Text), MessageID: t.newest.ThreadID}, act == MlReply)
		}
	case MlBack:
		in.box = nil
		m.refreshInbox()
	}
}

// boxRows draws the mailbox under the Inbox's header row.
func (m *Model) boxRows(cols, rows int, out []string) []string {
	in := m.inbox
	b := in.box
	a := m.opt.ASCIIOnly
	line := func(s string) string { return fitPlain(s, cols, a) }
	count := fmt.Sprintf("%d threads", len(b.threads))
	if len(b.threads) == 1 {
		count = "1 thread"
	}
	out = append(out, sgrBold+line(" Mailbox ("+count+")")+sgrReset)
	now := m.clock.Now()
	var list []string
	for i, t := range b.threads {
		mark := "  "
		if i == b.sel {
			mark = "> "
		}
		state := "read"
		if t.unread > 0 {
			state = fmt.Sprintf("%d new", t.unread)
		}
		row := line(fmt.Sprintf(" %s%5s  %s/%s  %s  (%s)", mark, age(now, t.newest.SentAt), clean(t.session),
			senderName(t.newest), clean(firstOf(t.newest.Subject, t.newest.Text)), state))
		if i == b.sel {
			row = sgrSelect + row + sgrReset
		}
		list = append(list, row)
	}
	switch {
	case b.waiting > 0 && len(list) == 0:
		list = append(list, line(" reading…"))
	case len(list) == 0:
		list = append(list, line(" Nobody has written to you in these sessions."))
	}
	body := max(rows-4, 1)
	start := max(0, b.sel-body+1)
	out = append(out, list[min(start, len(list)):min(start+body, len(list))]...)
	for len(out) < rows-2 {
		out = append(out, "")
	}
	out = out[:max(rows-2, 1)]
	out = append(out, line(" "+b.note))
	out = append(out, sgrReverse+line(" "+strings.Join(m.boundHints(ModeMail, []string{"enter read", "r reply", m.keys.first(MlDown) + "/" + m.keys.first(MlUp) + " move", "esc back"}), "  "))+sgrReset)
	for i, l := range out {
		if l == "" {
			out[i] = strings.Repeat(" ", cols)
		}
	}
	return out
}
