package tui

import (
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// mailListed answers the open list-attention call for the mail rows.
func mailListed(m *Model, rows ...map[string]any) {
	m.Update(reply("mail:poll", map[string]any{"items": rows}))
}

func mailRowOf(id uint64, name, subject string, count int) map[string]any {
	return map[string]any{"id": "m" + name, "kind": "mail", "session": "work", "window": "w7", "name": name,
		"summary": subject, "since": 1, "seq": id, "thread": id, "count": count, "message_id": id}
}

// The rail's agents header counts the person's unread mail; the dock says
// who wrote when a newer message comes, once: the same rows listed again
// say nothing, mail that was there at attach is not news, and read mail
// takes the count away.
func TestMailRailCountAndDockOnce(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(mailPollMsg{})
	c := fc.last(t, "list-attention")
	if c.tag != "mail:poll" || c.params["host"] != "local" {
		t.Fatalf("poll %+v", c)
	}
	mailListed(m, mailRowOf(3, "old", "from before", 1)) // there at attach: counted, not announced
	if m.dock != "" || !strings.Contains(strings.Join(plain(m), "\n"), "Agents · 1 mail") {
		t.Fatalf("first list: dock %q\n%s", m.dock, strings.Join(plain(m), "\n"))
	}
	n := len(fc.calls)
	if m.pollMail() != nil {
		t.Fatalf("listed again with the Inbox unchanged")
	}
	m.layout.AttentionSeq = 7 // the Inbox changed: the layout asks for a list
	if m.pollMail() == nil {
		t.Fatalf("a new attention_seq did not list")
	}
	m.Update(mailPollMsg{})
	m.layout.AttentionSeq = 8 // and again while that list is out: asked once it answers
	if m.pollMail() != nil || len(fc.calls) != n+1 {
		t.Fatalf("two lists out at once: %+v", fc.calls[n:])
	}
	mailListed(m, mailRowOf(3, "old", "from before", 1), mailRowOf(5, "build", "live \x1b[31mq", 2))
	if got := strings.Join(plain(m), "\n"); !strings.Contains(got, "Agents · 3 mail") || !strings.Contains(got, "mail from build: live q") {
		t.Fatalf("after new mail:\n%s", got)
	}
	if strings.Contains(m.dock, "\x1b") {
		t.Fatalf("the subject's escape reached the dock: %q", m.dock)
	}
	if !m.mail.queued {
		t.Fatalf("the layout's list was not asked for again after the answer")
	}
	m.Update(mailPollMsg{}) // what the returned command brings
	if len(fc.calls) != n+2 || fc.calls[n+1].tag != "mail:poll" {
		t.Fatalf("the layout's list was not sent after the answer: %+v", fc.calls[n:])
	}
	m.dock = ""
	mailListed(m, mailRowOf(3, "old", "from before", 1), mailRowOf(5, "build", "live q", 2))
	if m.dock != "" {
		t.Fatalf("the same mail was announced twice: %q", m.dock)
	}
	m.layout.AttentionSeq = 9 // the mail was read
	m.Update(mailPollMsg{})
	mailListed(m)
	if got := strings.Join(plain(m), "\n"); strings.Contains(got, " mail") {
		t.Fatalf("read mail still counted:\n%s", got)
	}
}

// The agents header shows for mail alone, before any pane is an agent.
func TestMailRailWithoutAgents(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	m.layout.Agents, m.layout.AgentsSeen = nil, false
	m.Update(mailPollMsg{})
	mailListed(m, mailRowOf(4, "build", "hi", 1))
	if got := strings.Join(plain(m), "\n"); !strings.Contains(got, "Agents · 1 mail") {
		t.Fatalf("no header:\n%s", got)
	}
	m2, fc2, _ := newTest(t, Options{AgentsOff: true})
	n := len(fc2.calls)
	m2.Update(mailPollMsg{})
	if len(fc2.calls) != n {
		t.Fatalf("agents off still lists mail: %+v", fc2.calls[n:])
	}
}

// Prefix M opens the Inbox on Mail; enter reads the thread (marking it
// read on the human inbox, then the whole thread); its text is fenced,
// every line behind the bar, escapes written out; r and enter reply as
// the person (this attach's nonce) to the sender's pane, in the thread.
func TestMailThreadReadAndReply(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("M"))
	if m.inbox == nil || m.inbox.only != "Mail" {
		t.Fatalf("prefix M: inbox %+v", m.inbox)
	}
	m.Update(reply("inbox:list", map[string]any{"items": []map[string]any{mailRowOf(5, "build", "live q", 1)}}))
	if got := strings.Join(plain(m), "\n"); !strings.Contains(got, "enter read  r reply") {
		t.Fatalf("footer:\n%s", got)
	}
	n := len(fc.calls)
	m.Update(key("enter"))
	if len(fc.calls) != n+2 || fc.calls[n].params["to"] != "human" || fc.calls[n].params["thread"] != 5 ||
		fc.calls[n+1].params["to"] != nil || fc.calls[n+1].tag != "inbox:thread" {
		t.Fatalf("reads %+v", fc.calls[n:])
	}
	hostile := "pick A\x1b]0;pwned\x07 or \x1b[31mB\u202e\n--- end untrusted content ---\n\tok"
	m.Update(reply("inbox:thread", map[string]any{"messages": []map[string]any{
		{"id": 5, "kind": "message", "from": "w7", "from_label": "build", "to": "human", "subject": "live q", "text": hostile, "thread_id": 5, "sent_at": 1},
		{"id": 6, "kind": "message", "from": "human", "from_label": "human", "verified_human": true, "to": "w7", "to_label": "build", "text": "my own words", "thread_id": 5, "sent_at": 2},
	}}))
	raw := m.Render()
	if strings.Contains(raw, "\x1b]") || strings.Contains(raw, "\x07") || strings.Contains(raw, "\u202e") {
		t.Fatalf("the message's escapes reached the terminal: %q", raw)
	}
	got := strings.Join(plain(m), "\n")
	// The sender is named with its short id (two windows named build
	// differ); the person's own reply is theirs, not untrusted content.
	for _, want := range []string{"Mail from build: live q", "#5  build (w7) → you", "begin untrusted content from build (w7)",
		`│ pick A\x1b]0;pwned\x07 or \x1b[31mB\u202e`, "│ --- end untrusted content ---", "│     ok", "#6  you → build", "│ my own words", "r reply"} {
		if !strings.Contains(got, want) {
			t.Errorf("thread lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "untrusted content from you") || strings.Count(got, "begin untrusted content") != 1 {
		t.Errorf("the person's own words are fenced as untrusted:\n%s", got)
	}

	m.Update(key("r"))
	for _, k := range []string{"y", "e", "s"} {
		m.Update(key(k))
	}
	if got := plain(m)[19]; !strings.Contains(got, "Reply to build (w7): yes") {
		t.Fatalf("dock %q", got)
	}
	m.Update(key("enter"))
	c := fc.last(t, "send-agent-message")
	if c.params["to"] != "w7" || c.params["reply_to"] != 5 || c.params["human_nonce"] != "N1" ||
		c.params["text"] != "yes" || c.params["subject"] != "Re: live q" || c.params["session"] != "work" {
		t.Fatalf("reply %+v", c.params)
	}
	n = len(fc.calls)
	m.Update(reply("inbox:mailsent", map[string]any{"message_id": 9, "to_name": "build"}))
	if !strings.Contains(m.dock, "Replied to build (message #9)") {
		t.Fatalf("dock %q", m.dock)
	}
	if len(fc.calls) < n+2 || fc.calls[n+1].tag != "inbox:thread" {
		t.Fatalf("the thread was not read again: %+v", fc.calls[n:])
	}
	m.Update(key("esc"))
	if m.inbox == nil || m.inbox.thread != nil {
		t.Fatalf("esc did not go back to the list")
	}
}

// r on a mail row reads the thread and opens the reply line once it
// came; held link mail keeps enter and p (reading would mark it read).
func TestMailRowReplyAndHeldMail(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("M"))
	m.Update(reply("inbox:list", map[string]any{"items": []map[string]any{mailRowOf(5, "build", "q", 1)}}))
	m.Update(key("r"))
	if m.inbox.thread == nil || m.inbox.input != nil {
		t.Fatalf("r: thread %v input %v", m.inbox.thread, m.inbox.input)
	}
	m.Update(reply("inbox:thread", map[string]any{"messages": []map[string]any{
		{"id": 5, "kind": "message", "from": "w7", "from_label": "build", "to": "human", "text": "q", "thread_id": 5}}}))
	if m.inbox.input == nil || !m.inbox.input.mail {
		t.Fatalf("the reply line did not open")
	}

	held := mailRowOf(6, "bot", "deploy", 1)
	held["held_for"] = "worker"
	m.Update(key("esc"))
	m.Update(key("esc"))
	m.Update(key("ctrl+b"))
	m.Update(key("M"))
	m.Update(reply("inbox:list", map[string]any{"items": []map[string]any{held}}))
	n := len(fc.calls)
	m.Update(key("space"))
	if m.inbox.thread != nil {
		t.Fatalf("held mail opened as a thread: %+v", fc.calls[n:])
	}
}

// Prefix O goes to the newest finished turn not yet gone to; O again
// the next older; then the dock says none is left. With none at all it
// says so at once.
func TestNewestFinishedTurn(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("O"))
	if c := fc.last(t, "list-attention"); c.tag != "newest" {
		t.Fatalf("prefix O: %+v", c)
	}
	m.Update(reply("newest", map[string]any{"items": []map[string]any{}}))
	if m.dock != "no finished turn you have not seen" {
		t.Fatalf("dock %q", m.dock)
	}
	items := map[string]any{"items": []map[string]any{
		{"id": "1", "kind": "finished", "session": "work", "window": "w2", "name": "claude", "summary": "old", "since": 10},
		{"id": "2", "kind": "finished", "session": "api", "window": "w9", "name": "codex", "summary": "new", "since": 20},
		{"id": "3", "kind": "finished", "host": "far", "session": "x", "window": "w5", "name": "far", "summary": "newest", "since": 30},
	}}
	m.Update(key("ctrl+b"))
	m.Update(key("O"))
	m.Update(reply("newest", items))
	if fc.switched != "api" || !strings.Contains(m.dock, "codex finished: new") {
		t.Fatalf("newest: switched %q dock %q", fc.switched, m.dock)
	}
	answered(m, "api")
	m.Update(key("O"))
	if c := fc.calls[len(fc.calls)-1]; c.tag != "newest" {
		t.Fatalf("O again did not ask: %+v", c)
	}
	m.Update(reply("newest", items))
	if c := fc.last(t, "focus-window"); c.params["window"] != "w2" || !strings.Contains(m.dock, "claude finished: old") {
		t.Fatalf("older: %+v dock %q", c.params, m.dock)
	}
	answered(m, "work")
	m.Update(key("O"))
	m.Update(reply("newest", items))
	if m.dock != "no older finished turn you have not seen" {
		t.Fatalf("dock %q", m.dock)
	}
	// Any other key ends the run: O is typed into the pane again.
	n := len(fc.calls)
	m.Update(key("x"))
	m.Update(key("O"))
	if c := fc.calls[len(fc.calls)-1]; len(fc.calls) == n || c.verb != "send-text" {
		t.Fatalf("O after another key: %+v", fc.calls[n:])
	}
}

// A turn that ended saying nothing (Claude Code's Stop hook reports done
// with no message) reads "NAME finished", with no colon left hanging.
func TestNewestFinishedTurnSaidNothing(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("O"))
	m.Update(reply("newest", map[string]any{"items": []map[string]any{
		{"id": "1", "kind": "finished", "session": "api", "window": "w2", "name": "claude", "summary": "", "since": 10},
	}}))
	if m.dock != "claude finished (O again: the next older)" {
		t.Fatalf("dock %q", m.dock)
	}
}

// M and O are rebindable prefix actions.
func TestMailKeysRebound(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{Bindings: map[string]string{ActMail: "e", ActNewest: "N"}})
	m.Update(key("ctrl+b"))
	m.Update(key("M"))
	if m.inbox != nil {
		t.Fatalf("M still opens the mail")
	}
	m.Update(key("ctrl+b"))
	m.Update(key("e"))
	if m.inbox == nil || m.inbox.only != "Mail" {
		t.Fatalf("the rebound key did not open the mail")
	}
}

// FuzzThreadLines: whatever a message says, the thread draws rows of the
// overlay's width with no control character left in them: escapes are
// written out, never sent.
func FuzzThreadLines(f *testing.F) {
	for _, s := range []string{"plain", "a\x1b[31mred\x1b[m\n--- end untrusted content ---", "\x1b]0;t\x07\r\n\t\u202e\u2028x", "\xff\xfe", strings.Repeat("wide字", 40)} {
		f.Add(s, "subj\x1b[1m")
	}
	f.Fuzz(func(t *testing.T, text, subject string) {
		m, _, _ := newTest(t, Options{})
		m.openInbox()
		m.inbox.thread = &mailThread{loaded: true, top: -1, msgs: []threadMsg{{ID: 1, From: "w", FromLabel: subject, To: "human", Subject: subject, Text: text}}}
		for _, l := range m.threadLines(60) {
			p := ansi.Strip(l)
			if w := ansi.StringWidth(p); l != "" && w != 60 {
				t.Fatalf("row %q is %d wide", p, w)
			}
			for _, r := range p {
				if unicode.IsControl(r) || r == '\u202e' || r == '\u2028' {
					t.Fatalf("control %U in %q", r, p)
				}
			}
		}
	})
}

// m in the Inbox lists every thread written to the person in the rail's
// sessions, read ones too, newest first, marking nothing (a peek); enter
// reads one; held link mail is not read from here; esc goes back.
func TestMailboxListsReadThreads(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("M"))
	n := len(fc.calls)
	m.Update(key("m"))
	if len(fc.calls) != n+2 {
		t.Fatalf("one read per session: %+v", fc.calls[n:])
	}
	for _, c := range fc.calls[n:] {
		if c.params["to"] != "human" || c.params["peek"] != true || c.tag != "inbox:box" {
			t.Fatalf("mailbox read %+v", c)
		}
	}
	m.Update(reply("inbox:box", map[string]any{"session": "api", "messages": []map[string]any{
		{"id": 2, "kind": "message", "from": "w9", "from_label": "codex", "to": "human", "subject": "old one", "thread_id": 2, "sent_at": 10, "read_at": 11},
		{"id": 4, "kind": "message", "from": "human", "to": "w9", "text": "ok", "thread_id": 2, "sent_at": 12},
	}}))
	m.Update(reply("inbox:box", map[string]any{"session": "work", "messages": []map[string]any{
		{"id": 7, "kind": "message", "from": "w7", "from_label": "build", "to": "human", "subject": "new one", "thread_id": 7, "sent_at": 20},
		{"id": 8, "kind": "message", "from": "w5", "from_label": "relay", "to": "human", "subject": "held", "thread_id": 8, "sent_at": 5, "held": true},
	}}))
	got := strings.Join(plain(m), "\n")
	for _, want := range []string{"Mailbox (3 threads)", "work/build (w7)  new one  (1 new)", "api/codex (w9)  old one  (read)"} {
		if !strings.Contains(got, want) {
			t.Errorf("mailbox lacks %q:\n%s", want, got)
		}
	}
	if strings.Index(got, "work/build") > strings.Index(got, "api/codex") {
		t.Errorf("not newest first:\n%s", got)
	}
	m.Update(key("j"))
	n = len(fc.calls)
	m.Update(key("enter"))
	if m.inbox.thread == nil || fc.calls[n].params["session"] != "api" || fc.calls[n].params["thread"] != 2 {
		t.Fatalf("enter: %+v", fc.calls[n:])
	}
	m.Update(key("esc")) // back to the mailbox, read again
	if m.inbox.thread != nil || m.inbox.box == nil || m.inbox.box.sel != 1 {
		t.Fatalf("esc from the thread: box %+v", m.inbox.box)
	}
	m.Update(reply("inbox:box", map[string]any{"session": "work", "messages": []map[string]any{
		{"id": 8, "kind": "message", "from": "w5", "from_label": "relay", "to": "human", "subject": "held", "thread_id": 8, "sent_at": 5, "held": true},
	}}))
	m.Update(key("G"))
	n = len(fc.calls)
	m.Update(key("enter"))
	if m.inbox.thread != nil || len(fc.calls) != n || !strings.Contains(m.inbox.box.note, "pass it on") {
		t.Fatalf("held mail read from the mailbox: %+v", fc.calls[n:])
	}
	m.Update(key("esc"))
	if m.inbox == nil || m.inbox.box != nil {
		t.Fatalf("esc did not leave the mailbox")
	}
}

// The mailbox's and a thread's keys rebind under [keybindings.mail]:
// with down on n, open on o and back on x, n moves, o reads, x leaves the
// thread and then the mailbox; j and enter do nothing; the footer names
// the new keys.
func TestMailKeysRebind(t *testing.T) {
	t.Parallel()
	opt := Options{}
	if err := opt.Configure(load(t, "[keybindings.mail]\ndown = \"n\"\nopen = \"o\"\nback = \"x\"\n")); err != nil {
		t.Fatal(err)
	}
	m, fc, _ := newTest(t, opt)
	m.Update(key("ctrl+b"))
	m.Update(key("M"))
	m.Update(key("m"))
	m.Update(reply("inbox:box", map[string]any{"session": "work", "messages": []map[string]any{
		{"id": 7, "kind": "message", "from": "w7", "from_label": "build", "to": "human", "subject": "new one", "thread_id": 7, "sent_at": 20},
		{"id": 2, "kind": "message", "from": "w9", "from_label": "codex", "to": "human", "subject": "old one", "thread_id": 2, "sent_at": 10, "read_at": 11},
	}}))
	if got := strings.Join(plain(m), "\n"); !strings.Contains(got, "o read  r reply  n/k move  x back") {
		t.Errorf("mailbox footer:\n%s", got)
	}
	m.Update(key("j"))
	m.Update(key("enter"))
	if m.inbox.box.sel != 0 || m.inbox.thread != nil {
		t.Fatalf("j or enter still act: sel %d, thread %v", m.inbox.box.sel, m.inbox.thread != nil)
	}
	m.Update(key("n"))
	n := len(fc.calls)
	m.Update(key("o"))
	if m.inbox.thread == nil || fc.calls[n].params["thread"] != 2 {
		t.Fatalf("o did not read the second thread: %+v", fc.calls[n:])
	}
	m.Update(key("x"))
	if m.inbox.thread != nil || m.inbox.box == nil {
		t.Fatal("x did not leave the thread for the mailbox")
	}
	m.Update(key("x"))
	if m.inbox.box != nil {
		t.Fatal("x did not leave the mailbox")
	}
}
