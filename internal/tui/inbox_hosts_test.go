package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// A linked host's rows carry its name; a stale one is muted and says when
// the host was seen; keys that would answer it say where it is answered
// instead; dismiss still acts (here only). The rail has a header per
// host: what waits there, or "seen 3m ago" while its link is down.
func TestHostRowsInTheInboxAndRail(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	since := clk.t.Add(-40 * time.Second).UnixNano()
	seen := clk.t.Add(-3 * time.Minute).UnixNano()
	m.Update(key("ctrl+b"))
	m.Update(key("i"))
	m.Update(reply("inbox:list", map[string]any{
		"items": []map[string]any{
			{"id": "far:7", "kind": "approval", "host": "far", "session": "api", "window": "w3", "name": "claude", "summary": "approve Bash: deploy", "since": since, "seq": 9, "held_id": "r1"},
			{"id": "gpu:2", "kind": "errored", "host": "gpu", "session": "train", "window": "w1", "name": "codex", "summary": "boom", "since": since, "seq": 10, "stale": true, "seen_at": seen},
		},
		"counts": map[string]int{"approval": 1}}))
	joined := strings.Join(plain(m), "\n")
	for _, want := range []string{"far:api/claude  approve Bash: deploy", "gpu:train/codex  (seen 3m ago) boom"} {
		if !strings.Contains(joined, want) {
			t.Errorf("inbox lacks %q:\n%s", want, joined)
		}
	}
	muted := false
	for y, row := range strings.Split(ansi.Strip(m.Render()), "\n") {
		if strings.Contains(row, "gpu:train/codex") {
			muted = hasAttrs(m, y, "gpu:train/codex", vt.AttrDim)
		}
	}
	if !muted {
		t.Error("the stale row is not muted")
	}
	n := len(fc.calls)
	for _, k := range []string{"1", "space", "enter"} {
		m.Update(key(k))
	}
	if len(fc.calls) != n {
		t.Fatalf("a key answered or went to another machine's item: %+v", fc.calls[n:])
	}
	if !strings.Contains(m.inbox.note, "tuios attach --host far api") {
		t.Errorf("enter note: %q", m.inbox.note)
	}
	m.Update(key("1"))
	if !strings.Contains(m.inbox.note, "tuios respond -w far:api:w3") {
		t.Errorf("answer note: %q", m.inbox.note)
	}
	m.Update(key("d"))
	if c := fc.last(t, "dismiss-attention"); c.params["id"] != "far:7" {
		t.Errorf("dismiss %v", c.params)
	}

	// The rail.
	m.Update(key("q"))
	l := m.layout
	l.Hosts = []proto.AttachHost{{Host: "far", Items: 2, Rev: 3}, {Host: "gpu", Stale: true, SeenAt: clk.t.Add(-3 * time.Minute).UnixMilli()}}
	m.Update(l)
	rail := strings.Join(plain(m), "\n")
	for _, want := range []string{"Hosts", "far  2 waiting", "gpu  seen 3m ago"} {
		if !strings.Contains(rail, want) {
			t.Errorf("rail lacks %q:\n%s", want, rail)
		}
	}
}

// Prefix o skips a stale host's rows, and names a fresh one's place
// without leaving this machine.
func TestOldestSkipsStaleHostRows(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("o"))
	fc.last(t, "list-attention")
	m.Update(reply("oldest", map[string]any{"items": []map[string]any{
		{"id": "gpu:2", "kind": "errored", "host": "gpu", "session": "train", "window": "w1", "name": "codex", "summary": "boom", "since": 1, "stale": true, "seen_at": 1},
		{"id": "far:7", "kind": "question", "host": "far", "session": "api", "window": "w3", "name": "claude", "summary": "which?", "since": clk.t.UnixNano()},
	}}))
	if fc.switched != "" {
		t.Fatalf("o switched to %q", fc.switched)
	}
	if dock := plain(m)[19]; !strings.Contains(dock, "far: claude: which?") {
		t.Errorf("dock: %q", dock)
	}
}
