package tui

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// agentRowsLayout is newTest's layout with a third agent: pb in work,
// done two minutes ago with two replies queued. The rail's agent rows
// are claude (w2, needs input), codex (w9 in api) and pb (w3).
func agentRowsLayout(m *Model, clk *fakeClock) {
	l := m.layout
	l.Agents = append(l.Agents, proto.AttachAgent{Session: "work", Window: "w3", Name: "pb", State: "done",
		Message: "pb done", Queued: 2, SinceMS: clk.t.Add(-2 * time.Minute).UnixMilli()})
	m.Update(l)
}

// railTo opens the rail and moves the cursor down n rows from the
// current session (work, the second stop).
func railTo(m *Model, n int) {
	m.Update(key("ctrl+b"))
	m.Update(key("s"))
	for i := 0; i < n; i++ {
		m.Update(key("j"))
	}
}

func railDock(m *Model) string {
	rows := plain(m)
	return rows[len(rows)-1]
}

func railReplyTo(m *Model, tag, verb, raw string, err error) {
	m.Update(replyMsg{tag: tag, verb: verb, raw: json.RawMessage(raw), err: err})
}

// The cursor moves over the sessions, then on to the agent rows (past
// the blank line and the Agents heading); the row under it is drawn
// reversed and the dock names the keys that act on it; it stops at the
// last row and comes back up.
func TestRailCursorMovesOverSessionsAndAgentRows(t *testing.T) {
	t.Parallel()
	m, _, clk := newTest(t, Options{})
	agentRowsLayout(m, clk)
	railTo(m, 0)
	if !strings.Contains(railDock(m), "rail: up/down move, enter attaches") {
		t.Fatalf("dock on a session row: %q", railDock(m))
	}
	m.Update(key("j"))
	if !hasAttrs(m, 5, " ▲ claude", vt.AttrReverse) {
		t.Fatalf("the claude row is not under the cursor: %q", strings.Split(m.Render(), "\n")[5])
	}
	if !strings.Contains(railDock(m), "claude: enter go  r reply  u unread  z snooze  v review  esc leave") {
		t.Errorf("dock on claude: %q", railDock(m))
	}
	for i := 0; i < 5; i++ { // past the end: stays on pb
		m.Update(key("j"))
	}
	if !hasAttrs(m, 7, "pb 2 queued", vt.AttrReverse) {
		t.Fatalf("the pb row is not under the cursor: %q", strings.Split(m.Render(), "\n")[7])
	}
	if !strings.Contains(railDock(m), "pb: enter go  r reply  u unread  z snooze  x drop newest queued  v review") {
		t.Errorf("dock on pb (x offered for its queue): %q", railDock(m))
	}
	for i := 0; i < 3; i++ {
		m.Update(key("k"))
	}
	if !hasAttrs(m, 2, ">", vt.AttrReverse) || !strings.Contains(railDock(m), "rail: up/down") {
		t.Errorf("back on work: %q, dock %q", strings.Split(m.Render(), "\n")[2], railDock(m))
	}
}

// enter on an agent row goes to its pane: in this session it is
// focused; in another the client switches there and focuses it.
func TestRailAgentEnterGoesToThePane(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	agentRowsLayout(m, clk)
	railTo(m, 3) // pb
	m.Update(key("enter"))
	if c := fc.last(t, "focus-window"); c.params["window"] != "w3" || c.params["session"] != "work" || m.railOn {
		t.Fatalf("enter on pb: %+v, rail on %v", c.params, m.railOn)
	}
	railTo(m, 2) // codex, in api
	m.Update(key("enter"))
	if c := fc.last(t, "focus-window"); fc.switched != "api" || c.params["window"] != "w9" || c.params["session"] != "api" {
		t.Fatalf("enter on codex: switched %q, %+v", fc.switched, c.params)
	}
}

// u marks the row's finished turn unread, as the person; the dock says
// so, or says why the daemon would not.
func TestRailAgentUnread(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	agentRowsLayout(m, clk)
	railTo(m, 3)
	m.Update(key("u"))
	c := fc.last(t, "mark-attention")
	if c.params["action"] != "unread" || c.params["window"] != "w3" || c.params["session"] != "work" || c.params["human_nonce"] != "N1" {
		t.Fatalf("u: %+v", c.params)
	}
	railReplyTo(m, c.tag, "mark-attention", `{"type":"attention_marked","action":"unread","id":"9"}`, nil)
	if !strings.Contains(railDock(m), "pb's finished turn is unread again") || !m.railOn {
		t.Errorf("dock after u: %q (rail on %v)", railDock(m), m.railOn)
	}
	m.Update(key("u"))
	railReplyTo(m, "rail:unread", "mark-attention", "", errors.New("the pane has no finished turn"))
	if !strings.Contains(railDock(m), "unread pb: the pane has no finished turn") {
		t.Errorf("dock after a refused u: %q", railDock(m))
	}
	// Nothing on a session row.
	n := len(fc.calls)
	m.Update(key("k"))
	m.Update(key("k"))
	m.Update(key("k"))
	m.Update(key("u"))
	if len(fc.calls) != n {
		t.Errorf("u on a session row called %+v", fc.calls[n:])
	}
}

// x drops the newest queued message that can still be dropped; u within
// 10 s queues the same text again (once), after that u is unread again.
func TestRailAgentDropNewestAndQueueAgain(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	agentRowsLayout(m, clk)
	railTo(m, 3)
	m.Update(key("x"))
	c := fc.last(t, "list-queued")
	if c.params["window"] != "w3" || c.params["session"] != "work" || c.params["human_nonce"] != "N1" {
		t.Fatalf("x listed %+v (the person's nonce gets each message whole)", c.params)
	}
	railReplyTo(m, c.tag, "list-queued", `{"entries":[
		{"id":"q1","session":"work","window":"w3","preview":"first","state":"waiting"},
		{"id":"q2","session":"work","window":"w3","preview":"make the backoff jitter configurable","text":"make the backoff jitter configurable\nand log each attempt","state":"waiting"},
		{"id":"q3","session":"work","window":"w3","preview":"typing","state":"delivering"}]}`, nil)
	c = fc.last(t, "cancel-queued")
	if c.params["id"] != "q2" || c.params["human_nonce"] != "N1" {
		t.Fatalf("x dropped %+v, want q2 (q3 is being typed)", c.params)
	}
	railReplyTo(m, c.tag, "cancel-queued", `{"type":"queue_cancelled","cancelled":["q2"],"queued":2}`, nil)
	if !strings.Contains(railDock(m), "Dropped q2 for pb (u within 10s queues it again)") {
		t.Fatalf("dock after x: %q", railDock(m))
	}
	if m.railKey("j"); !strings.Contains(railDock(m), "u queue it again") {
		t.Errorf("the hint does not offer u: %q", railDock(m))
	}
	clk.t = clk.t.Add(9 * time.Second)
	m.Update(key("u"))
	c = fc.last(t, "queue-prompt")
	if c.params["text"] != "make the backoff jitter configurable\nand log each attempt" || c.params["window"] != "w3" || c.params["human_nonce"] != "N1" {
		t.Fatalf("u queued %+v", c.params)
	}
	railReplyTo(m, c.tag, "queue-prompt", `{"position":2}`, nil)
	if !strings.Contains(railDock(m), "Queued for pb: typed when it is ready (2 in line)") {
		t.Errorf("dock after u: %q", railDock(m))
	}
	n := len(fc.calls)
	m.Update(key("u")) // once only: now it marks unread
	if c := fc.last(t, "mark-attention"); len(fc.calls) != n+1 || c.params["action"] != "unread" {
		t.Errorf("a second u: %+v", fc.calls[n:])
	}

	// After 10 s, u is unread.
	m.Update(key("x"))
	railReplyTo(m, "rail:list", "list-queued", `{"entries":[{"id":"q4","session":"work","window":"w3","preview":"again","state":"waiting"}]}`, nil)
	railReplyTo(m, "rail:drop", "cancel-queued", `{"cancelled":["q4"]}`, nil)
	clk.t = clk.t.Add(10 * time.Second)
	n = len(fc.calls)
	m.Update(key("u"))
	if c := fc.last(t, "mark-attention"); len(fc.calls) != n+1 || c.params["action"] != "unread" {
		t.Errorf("u 10 s after x: %+v", fc.calls[n:])
	}
}

// A message whose preview was cut is dropped but not offered again: the
// cut text would be a different message.
func TestRailAgentDropOfACutMessageIsNotQueuedAgain(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	agentRowsLayout(m, clk)
	railTo(m, 3)
	m.Update(key("x"))
	railReplyTo(m, "rail:list", "list-queued", `{"entries":[{"id":"q1","session":"work","window":"w3","preview":"a long one…","state":"waiting"}]}`, nil)
	railReplyTo(m, "rail:drop", "cancel-queued", `{"cancelled":["q1"]}`, nil)
	if d := railDock(m); !strings.Contains(d, "Dropped q1 for pb") || strings.Contains(d, "u within") {
		t.Fatalf("dock: %q", d)
	}
	m.Update(key("u"))
	if c := fc.last(t, "mark-attention"); c.params["action"] != "unread" {
		t.Errorf("u after a cut drop: %+v", c.params)
	}
	// x where nothing is queued says so without a call.
	m.Update(key("k"))
	n := len(fc.calls)
	m.Update(key("x"))
	if len(fc.calls) != n || !strings.Contains(railDock(m), "codex has no queued message") {
		t.Errorf("x on codex: %+v, dock %q", fc.calls[n:], railDock(m))
	}
}

// r opens a reply line on the dock: typed and pasted text goes to it,
// not to the pane; enter queues it for the row's agent as the person.
// An agent waiting on a prompt gets no reply line; esc closes it.
func TestRailAgentReplyLine(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	agentRowsLayout(m, clk)
	railTo(m, 1) // claude waits on a prompt
	m.Update(key("r"))
	if m.railKeys.reply != nil || !strings.Contains(railDock(m), "claude is waiting on a prompt") {
		t.Fatalf("r on claude: %q", railDock(m))
	}
	m.Update(key("j"))
	m.Update(key("j"))
	m.Update(key("r"))
	if !strings.HasPrefix(railDock(m), "Reply to pb (done 2m): ") {
		t.Fatalf("r on pb: %q", railDock(m))
	}
	for _, k := range []string{"t", "r", "y", "space", "j", "k"} {
		m.Update(key(k))
	}
	m.Update(tea.PasteMsg{Content: "\x1b[31mx\ny"})
	if !strings.HasPrefix(railDock(m), "Reply to pb (done 2m): try jkx y") {
		t.Fatalf("the reply line: %q", railDock(m))
	}
	for _, c := range fc.calls {
		if c.verb == "send-text" {
			t.Fatalf("a key was typed into a pane: %+v", c)
		}
	}
	m.Update(key("enter"))
	c := fc.last(t, "queue-prompt")
	if c.params["text"] != "try jkx y" || c.params["window"] != "w3" || c.params["session"] != "work" || c.params["human_nonce"] != "N1" {
		t.Fatalf("enter queued %+v", c.params)
	}
	if m.railKeys.reply != nil || !m.railOn {
		t.Errorf("after enter: reply %v, rail on %v", m.railKeys.reply, m.railOn)
	}
	railReplyTo(m, c.tag, "queue-prompt", `{"position":1}`, nil)
	if !strings.Contains(railDock(m), "Queued for pb: typed when it is ready (1 in line)") {
		t.Errorf("dock: %q", railDock(m))
	}
	m.Update(key("r"))
	m.Update(key("a"))
	m.Update(key("esc"))
	n := len(fc.calls)
	if m.railKeys.reply != nil || !m.railOn || !strings.Contains(railDock(m), "pb: enter go") {
		t.Errorf("esc: reply %v, rail on %v, dock %q", m.railKeys.reply, m.railOn, railDock(m))
	}
	if len(fc.calls) != n {
		t.Errorf("esc sent %+v", fc.calls[n:])
	}
}

// z opens the Inbox; once its list comes the row's item is selected (one
// that can be snoozed before the pane's question) and z's question is
// open: a digit snoozes it.
func TestRailAgentZOpensTheInboxOnItsItemToSnooze(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	agentRowsLayout(m, clk)
	railTo(m, 3)
	m.Update(key("z"))
	if m.inbox == nil || m.railOn {
		t.Fatalf("z: inbox %v, rail on %v", m.inbox != nil, m.railOn)
	}
	c := fc.last(t, "list-attention")
	railReplyTo(m, c.tag, "list-attention", `{"items":[
		{"id":"5","kind":"question","session":"work","window":"w2","name":"claude","summary":"which?"},
		{"id":"6","kind":"ask","session":"work","window":"w3","name":"pb","summary":"deploy?"},
		{"id":"7","kind":"finished","session":"work","window":"w3","name":"pb","summary":"pb done"}],"counts":{}}`, nil)
	it, _ := m.inbox.selected()
	if it.ID != "7" || m.inbox.snoozing == nil || m.inbox.snoozing.ID != "7" {
		t.Fatalf("selected %+v, snoozing %+v", it, m.inbox.snoozing)
	}
	if !strings.Contains(strings.Join(plain(m), "\n"), "for how long?") {
		t.Errorf("the snooze question is not shown:\n%s", strings.Join(plain(m), "\n"))
	}
	m.Update(key("2"))
	c = fc.last(t, "mark-attention")
	if c.params["action"] != "snooze" || c.params["id"] != "7" || c.params["for_ms"] != time.Hour.Milliseconds() {
		t.Errorf("2 snoozed %+v", c.params)
	}
	// Only once: a later list does not ask again.
	m.inbox.snoozing = nil
	m.refreshInbox()
	railReplyTo(m, "inbox:list", "list-attention", `{"items":[{"id":"7","kind":"finished","session":"work","window":"w3"}]}`, nil)
	if m.inbox.snoozing != nil {
		t.Error("a later list asked again")
	}
}

// z on an agent with nothing in the Inbox says so there.
func TestRailAgentZWithNothingToSnooze(t *testing.T) {
	t.Parallel()
	m, _, clk := newTest(t, Options{})
	agentRowsLayout(m, clk)
	railTo(m, 2)
	m.Update(key("z"))
	railReplyTo(m, "inbox:list", "list-attention", `{"items":[{"id":"7","kind":"finished","session":"work","window":"w3"}]}`, nil)
	if m.inbox.snoozing != nil || !strings.Contains(m.inbox.note, "codex has nothing in the Inbox to snooze") {
		t.Errorf("snoozing %+v, note %q", m.inbox.snoozing, m.inbox.note)
	}
}

// v reviews the row's pane; esc comes back to the rail.
func TestRailAgentReview(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	agentRowsLayout(m, clk)
	railTo(m, 2)
	m.Update(key("v"))
	if m.review == nil || m.review.window != "w9" || m.review.session != "api" {
		t.Fatalf("v: %+v", m.review)
	}
	if c := fc.last(t, "review-diff"); c.params["window"] != "w9" {
		t.Errorf("review-diff %+v", c.params)
	}
	m.Update(key("esc"))
	if m.review != nil || !m.railOn || !strings.Contains(railDock(m), "codex: enter go") {
		t.Errorf("esc: review %v, rail on %v, dock %q", m.review != nil, m.railOn, railDock(m))
	}
}

// newestDroppable skips other panes' entries and one being typed.
func TestNewestDroppable(t *testing.T) {
	t.Parallel()
	es := []queuedEntry{{ID: "q1", Window: "w3"}, {ID: "q2", Window: "w4"}, {ID: "q3", Window: "w3", State: "delivering"}}
	if e, ok := newestDroppable(es, "w3"); !ok || e.ID != "q1" {
		t.Errorf("got %+v %v", e, ok)
	}
	if _, ok := newestDroppable(es[2:], "w3"); ok {
		t.Error("an entry being typed is droppable")
	}
}

// The daemon's answers to x are read as data: whatever list-queued and
// cancel-queued send, the client neither panics nor puts a control byte
// in the dock, and only cancel-queued for the row's own pane is called.
func FuzzRailDropReply(f *testing.F) {
	f.Add(`{"entries":[{"id":"q1","session":"work","window":"w3","preview":"first","state":"waiting"}]}`, `{"cancelled":["q1"]}`)
	f.Add(`{"entries":[{"id":"q\u001b[31m1","window":"w3","preview":"a…","text":"x\ny"}]}`, `null`)
	f.Add(`{"entries":null}`, `{`)
	f.Fuzz(func(t *testing.T, list, drop string) {
		m, fc, clk := newTest(t, Options{})
		agentRowsLayout(m, clk)
		railTo(m, 3)
		m.Update(key("x"))
		railReplyTo(m, "rail:list", "list-queued", list, nil)
		railReplyTo(m, "rail:drop", "cancel-queued", drop, nil)
		m.Update(key("u"))
		for _, c := range fc.calls {
			if c.verb == "cancel-queued" && c.params["window"] != "w3" {
				t.Fatalf("dropped on another pane: %+v", c.params)
			}
		}
		if d := m.dock; strings.ContainsAny(d, "\x1b\x07\n\r") {
			t.Fatalf("a control byte in the dock: %q", d)
		}
	})
}

// The daemon lists agents by what they need, so rows move when a state
// changes: the cursor stays on the agent it was put on, and a key acts on
// that agent, not on the one that moved under it.
func TestRailCursorFollowsItsAgentWhenRowsMove(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	agentRowsLayout(m, clk)
	railTo(m, 3) // pb, the third agent row
	l := m.layout
	l.Agents = []proto.AttachAgent{l.Agents[2], l.Agents[0], l.Agents[1]} // pb now first
	m.Update(l)
	if !hasAttrs(m, 5, "pb", vt.AttrReverse) {
		raw := strings.Split(m.Render(), "\n")
		t.Fatalf("the cursor did not follow pb: %q / %q", raw[5], raw[7])
	}
	m.Update(key("u"))
	if c := fc.last(t, "mark-attention"); c.params["window"] != "w3" {
		t.Fatalf("u acted on %+v", c.params)
	}
	m.Update(key("j")) // moves from where pb is now
	if a, _ := m.railAgent(); a.Window != "w2" {
		t.Errorf("j from pb went to %+v", a)
	}
}
