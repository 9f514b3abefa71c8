package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tuios/tuios/internal/proto"
)

// Keys pressed the moment the client starts, before the daemon's first
// layout says which window is focused, are typed once it does, in order:
// a person who types as soon as they attach loses nothing.
func TestKeysBeforeTheFirstLayoutAreTypedOnceItComes(t *testing.T) {
	t.Parallel()
	fc := &fakeCalls{}
	m := NewModel(Options{Clock: &fakeClock{t: time.Unix(1_800_000_000, 0)}}, fc, 104, 20)
	m.Update(attachedMsg{nonce: "N1", session: "work"})
	m.Update(key("l"))
	m.Update(key("s"))
	m.Update(tea.PasteMsg{Content: " -la"})
	for _, c := range fc.calls {
		if c.verb == "send-text" {
			t.Fatalf("typed with no window known: %+v", c)
		}
	}
	m.Update(proto.AttachLayout{Type: "layout", Session: "work", Workspace: 1, Focused: "w1", Cols: 80, Rows: 19,
		Windows: []proto.AttachWindow{{ID: "w1", Index: 0, Name: "shell", Width: 80, Height: 19}}})
	var typed string
	for _, c := range fc.calls {
		if c.verb == "send-text" && c.params["window"] == "w1" {
			typed += c.params["text"].(string)
		}
	}
	if typed != "ls -la" {
		t.Fatalf("typed %q after the first layout, want %q", typed, "ls -la")
	}
}
