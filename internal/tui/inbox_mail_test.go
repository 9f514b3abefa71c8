package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// X8 in the client: held link mail reads "[held for worker, p passes
// on]"; p, once the row has been read, releases it as the person (the
// nonce of this attach); the dock says where it went and the Inbox lists
// again, so the row closes; a refusal stays on the note row.
func TestHeldMailRowPassesOnWithP(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	since := clk.t.Add(-20 * time.Second).UnixNano()
	m.Update(key("ctrl+b"))
	m.Update(key("i"))
	heldRow := map[string]any{"id": "5", "kind": "mail", "session": "api", "window": "build-bot", "name": "build-bot",
		"summary": "deploy at 5", "since": since, "seq": 7, "thread": 12, "count": 1, "held_for": "worker", "message_id": 12}
	m.Update(reply("inbox:list", map[string]any{"items": []map[string]any{heldRow}, "counts": map[string]int{"mail": 1}}))
	joined := strings.Join(plain(m), "\n")
	for _, want := range []string{"Mail (1)", "api/build-bot  deploy at 5  [held for worker, p passes on]", "p pass on"} {
		if !strings.Contains(joined, want) {
			t.Errorf("inbox lacks %q:\n%s", want, joined)
		}
	}
	n := len(fc.calls)
	m.Update(key("p")) // before the dwell: nothing goes out
	if len(fc.calls) != n || !strings.Contains(m.inbox.note, "read it first") {
		t.Fatalf("p acted before the row was read: %+v note %q", fc.calls[n:], m.inbox.note)
	}
	clk.t = clk.t.Add(time.Second)
	m.Update(key("p"))
	c := fc.last(t, "release-agent-message")
	if c.params["session"] != "api" || c.params["id"] != 12 || c.params["human_nonce"] != "N1" {
		t.Fatalf("release params %v", c.params)
	}
	n = len(fc.calls)
	m.Update(reply("inbox:release", map[string]any{"type": "agent_message_released", "held_id": 12, "message_id": 13, "to": "w7", "to_name": "worker"}))
	if got := plain(m)[19]; !strings.Contains(got, "Passed the mail from build-bot on to worker (message #13)") {
		t.Errorf("dock: %q", got)
	}
	if len(fc.calls) == n || fc.calls[len(fc.calls)-1].verb != "list-attention" {
		t.Fatalf("the Inbox was not listed again: %+v", fc.calls[n:])
	}
	m.Update(reply("inbox:list", map[string]any{"items": []map[string]any{}}))
	if joined := strings.Join(plain(m), "\n"); strings.Contains(joined, "held for") || !strings.Contains(joined, "Nothing waits for you.") {
		t.Errorf("the held row did not close:\n%s", joined)
	}

	// A second release (another client passed it on) is refused: said.
	m.Update(reply("inbox:list", map[string]any{"items": []map[string]any{heldRow}}))
	clk.t = clk.t.Add(time.Second)
	m.Update(key("p"))
	m.Update(replyMsg{tag: "inbox:release", verb: "release-agent-message",
		err: proto.Errorf(proto.CodeInvalidParams, "message 12 was released already, as message 13")})
	if got := strings.Join(plain(m), "\n"); !strings.Contains(got, "not passed on: ") || !strings.Contains(got, "released already") {
		t.Errorf("refusal not shown:\n%s", got)
	}
}

// p acts on held mail only: ordinary mail and a linked host's held mail
// (passed on over there) send nothing, and show no tag.
func TestPIgnoresOtherRows(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("i"))
	m.Update(reply("inbox:list", map[string]any{"items": []map[string]any{
		{"id": "1", "kind": "mail", "session": "api", "name": "lead", "summary": "hi", "since": 1, "seq": 1, "message_id": 3},
		{"id": "far:2", "kind": "mail", "host": "far", "session": "api", "name": "bot", "summary": "yo", "since": 1, "seq": 2, "held_for": "w", "message_id": 4},
	}}))
	clk.t = clk.t.Add(time.Second)
	n := len(fc.calls)
	m.Update(key("p"))
	m.Update(key("j"))
	clk.t = clk.t.Add(time.Second)
	m.Update(key("p"))
	if len(fc.calls) != n {
		t.Fatalf("p sent %+v", fc.calls[n:])
	}
	if joined := strings.Join(plain(m), "\n"); strings.Contains(joined, "p passes on") {
		t.Errorf("tag on a row p cannot pass on:\n%s", joined)
	}
}

// X5 in the client: mail for a machine whose link is down waits under
// "Waiting to send"; the row names the machine; d dismisses it (the
// daemon discards the mail); a refusal shows its reason. Prefix o does
// not ask for outbox rows, and the rail's host header says "2 queued"
// beside "seen 3m ago" without raising an alert.
func TestOutboxRowsAndRail(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{Bell: true, Notify: true})
	since := clk.t.Add(-2 * time.Minute).UnixNano()
	m.Update(key("ctrl+b"))
	m.Update(key("i"))
	m.Update(reply("inbox:list", map[string]any{"items": []map[string]any{
		{"id": "8", "kind": "outbox", "name": "build", "for_host": "build", "count": 2, "summary": "2 messages wait for the link to build", "since": since, "seq": 3},
		{"id": "9", "kind": "outbox", "name": "gpu", "for_host": "gpu", "summary": "refused by gpu: window_not_found (to api): no window \"worker\"", "since": since, "seq": 4},
	}, "counts": map[string]int{"outbox": 2}}))
	joined := strings.Join(plain(m), "\n")
	for _, want := range []string{"Waiting to send (2)", "2m  build  2 messages wait for the link to build",
		"gpu  refused by gpu: window_not_found (to api)", "d dismiss"} {
		if !strings.Contains(joined, want) {
			t.Errorf("inbox lacks %q:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "z snooze") || strings.Contains(joined, "enter go") {
		t.Errorf("an outbox row offers keys that do nothing:\n%s", joined)
	}
	m.Update(key("j"))
	m.Update(key("d"))
	if c := fc.last(t, "dismiss-attention"); c.params["id"] != "9" || c.params["human_nonce"] != "N1" {
		t.Errorf("dismiss %v", c.params)
	}
	m.Update(key("q"))

	m.Update(key("ctrl+b"))
	m.Update(key("o"))
	kinds, _ := fc.last(t, "list-attention").params["kinds"].([]string)
	if len(kinds) == 0 || slices.Contains(kinds, "outbox") {
		t.Errorf("prefix o asks for %v", kinds)
	}

	dock := plain(m)[19]
	l := m.layout
	l.Hosts = []proto.AttachHost{{Host: "build", Stale: true, SeenAt: clk.t.Add(-3 * time.Minute).UnixMilli(), Queued: 2}, {Host: "ci", Mail: 1, Items: 1, Queued: 1}}
	m.Update(l)
	rail := plain(m)
	joinedRail := strings.Join(rail, "\n")
	for _, want := range []string{"build  seen 3m ago", "    2 queued", "ci  1 mail  1 queued"} {
		if !strings.Contains(joinedRail, want) {
			t.Errorf("rail lacks %q:\n%s", want, joinedRail)
		}
	}
	if rail[19] != dock {
		t.Errorf("queued mail changed the dock: %q", rail[19])
	}
}

// The rail header's badges: side by side when they fit, else the count
// on a row of its own.
func TestWithQueued(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		badge         string
		queued, used  int
		want, wantRow string
	}{
		{"", 0, 9, "", ""},
		{"seen 3m ago", 0, 9, "seen 3m ago", ""},
		{"", 2, 9, "2 queued", ""},
		{"1 mail", 1, 6, "1 mail  1 queued", ""},
		{"1 waiting", 1, 7, "1 waiting", "1 queued"},
		{"seen 3m ago", 2, 9, "seen 3m ago", "2 queued"},
		{"✕", 2, 9, "✕  2 queued", ""},
	} {
		got, row := withQueued(tt.badge, tt.queued, tt.used, 23)
		if got != tt.want || row != tt.wantRow {
			t.Errorf("withQueued(%q, %d, %d) = %q, %q; want %q, %q", tt.badge, tt.queued, tt.used, got, row, tt.want, tt.wantRow)
		}
	}
}
