package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// askingLayout is newTest's layout with w1 asking a question.
func askingLayout(m *Model, asking bool) proto.AttachLayout {
	l := m.layout
	l.Windows = append([]proto.AttachWindow(nil), l.Windows...)
	l.Windows[0].Asking = asking
	return l
}

// A question from the pane on screen opens the Inbox on it and drops keys
// for a moment; the pane draws ▲ needs input while it asks; a person who
// was typing into that pane is not interrupted.
func TestAnAskFromThePaneOnScreenOpensTheInbox(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	m.Update(askingLayout(m, true))
	if m.inbox == nil || m.inbox.want != "w1" {
		t.Fatalf("the Inbox did not open on the question: %+v", m.inbox)
	}
	m.Update(reply("inbox:list", map[string]any{"items": []map[string]any{
		askItem("5", "w9", "other"), askItem("7", "w1", "shell")}}))
	if it, _ := m.inbox.selected(); it.ID != "7" {
		t.Fatalf("selected %+v, want the asking pane's question", it)
	}
	// Keys are dropped for 400 ms: a keystroke meant for the pane answers
	// nothing.
	before := len(fc.calls)
	m.Update(key("1"))
	clk.t = clk.t.Add(300 * time.Millisecond)
	m.Update(key("1"))
	if len(fc.calls) != before {
		t.Fatalf("a dropped key made calls: %+v", fc.calls[before:])
	}

	// The question closes; another one comes while the person types.
	clk.t = clk.t.Add(200 * time.Millisecond)
	m.Update(key("esc"))
	if m.inbox != nil {
		t.Fatal("esc after the drop did not close the Inbox")
	}
	m.Update(askingLayout(m, false))
	clk.t = clk.t.Add(time.Second)
	m.Update(key("x")) // typed into w1
	clk.t = clk.t.Add(200 * time.Millisecond)
	m.Update(askingLayout(m, true))
	if m.inbox != nil {
		t.Fatal("the Inbox opened over a person typing into the pane")
	}
	if row := plain(m)[0]; !strings.Contains(row, "▲ 0:shell  needs input") {
		t.Errorf("the asking pane's title: %q", row)
	}
	// ... and opens once they stopped typing for the dwell, not never.
	clk.t = clk.t.Add(300 * time.Millisecond)
	m.Update(askDueMsg{})
	if m.inbox != nil {
		t.Fatal("the Inbox opened before the dwell ended")
	}
	clk.t = clk.t.Add(100 * time.Millisecond)
	m.Update(askDueMsg{})
	if m.inbox == nil || m.inbox.want != "w1" {
		t.Fatal("the Inbox did not open on the question once the person stopped typing")
	}
	// Closed, that question does not open it again; a new one does.
	clk.t = clk.t.Add(time.Second)
	m.Update(key("esc"))
	l := askingLayout(m, true)
	m.Update(l)
	if m.inbox != nil {
		t.Fatal("the question the person closed opened the Inbox again")
	}
	l.Windows[0].AskID = "ask-2"
	m.Update(l)
	if m.inbox == nil || m.inbox.want != "w1" {
		t.Fatal("a new question from the same pane did not open the Inbox")
	}
}

// A done pane draws ■ until the daemon says its turn was seen, then ○.
func TestADonePaneDrawsSeenOnceSeen(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	l := m.layout
	l.Windows = append([]proto.AttachWindow(nil), l.Windows...)
	l.Windows[1].State = "done"
	m.Update(l)
	if row := plain(m)[0]; !strings.Contains(row, "■ 1:claude  done") {
		t.Fatalf("unseen: %q", row)
	}
	l.Windows[1].Seen = true
	m.Update(l)
	if row := plain(m)[0]; !strings.Contains(row, "○ 1:claude  done") {
		t.Fatalf("seen: %q", row)
	}
}
