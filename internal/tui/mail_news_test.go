package tui

import (
	"encoding/json"
	"strings"
	"testing"
)

// The first list of the person's mail primes the dock: mail already there
// when the client attached is not news, but mail that came after the
// attach is, even when that first answer comes after it (a busy daemon,
// a slow first list).
func TestMailAfterTheAttachIsNewsBeforeTheFirstList(t *testing.T) {
	for _, c := range []struct {
		name  string
		since int64 // the mail item's since, against an attach at 1000
		news  bool
	}{
		{"there before the attach", 999, false},
		{"came after the attach", 1001, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := NewModel(Options{}, nil, 80, 24)
			m.mail.from = 1000
			m.dock = ""
			raw, _ := json.Marshal(map[string]any{"items": []map[string]any{{
				"kind": "mail", "name": "tester", "summary": "live q", "count": 1, "message_id": 7, "since": c.since,
			}}})
			m.mailPolled(replyMsg{tag: "mail:poll", verb: "list-attention", raw: raw})
			if m.mail.unread != 1 {
				t.Fatalf("unread %d, want 1", m.mail.unread)
			}
			if got := strings.Contains(m.dock, "mail from tester: live q"); got != c.news {
				t.Fatalf("the dock says %q: news %v, want %v", m.dock, got, c.news)
			}
			// Mail after the first answer is news whatever its item's since.
			raw, _ = json.Marshal(map[string]any{"items": []map[string]any{
				{"kind": "mail", "name": "tester", "summary": "live q", "count": 1, "message_id": 7, "since": c.since},
				{"kind": "mail", "name": "other", "summary": "second", "count": 1, "message_id": 8, "since": 1},
			}})
			m.mailPolled(replyMsg{tag: "mail:poll", verb: "list-attention", raw: raw})
			if !strings.Contains(m.dock, "mail from other: second") {
				t.Fatalf("later mail is not news: %q", m.dock)
			}
		})
	}
}
