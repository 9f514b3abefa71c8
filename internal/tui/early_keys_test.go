package tui

import (
	"errors"
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

// Keys pressed the moment a switch to another session (or host) shows,
// before that stream's first layout, wait for it too: typed at the old
// layout's focused window they would go to a window the new session does
// not have, and be lost.
func TestKeysDuringASwitchAreTypedIntoTheNewSession(t *testing.T) {
	t.Parallel()
	fc := &fakeCalls{}
	m := NewModel(Options{Clock: &fakeClock{t: time.Unix(1_800_000_000, 0)}}, fc, 104, 20)
	m.Update(proto.AttachLayout{Type: "layout", Session: "home", Workspace: 1, Focused: "h1", Cols: 80, Rows: 19,
		Windows: []proto.AttachWindow{{ID: "h1", Index: 0, Name: "shell", Width: 80, Height: 19}}})
	m.Update(attachedMsg{nonce: "N2", session: "api"}) // the rail switched to far:api
	m.Update(key("p"))
	m.Update(key("w"))
	m.Update(key("d"))
	for _, c := range fc.calls {
		if c.verb == "send-text" {
			t.Fatalf("typed before the new session's layout: %+v", c)
		}
	}
	m.Update(proto.AttachLayout{Type: "layout", Session: "api", Workspace: 1, Focused: "a1", Cols: 80, Rows: 19,
		Windows: []proto.AttachWindow{{ID: "a1", Index: 0, Name: "shell", Width: 80, Height: 19}}})
	var typed string
	for _, c := range fc.calls {
		if c.verb != "send-text" {
			continue
		}
		if c.params["window"] != "a1" || c.params["session"] != "api" {
			t.Fatalf("typed into %v of %v, want a1 of api", c.params["window"], c.params["session"])
		}
		typed += c.params["text"].(string)
	}
	if typed != "pwd" {
		t.Fatalf("typed %q into the new session, want %q", typed, "pwd")
	}
	// From then on keys go at once.
	m.Update(key("x"))
	if c := fc.calls[len(fc.calls)-1]; c.verb != "send-text" || c.params["text"] != "x" {
		t.Fatalf("a key after the layout: %+v", c)
	}
}

// Keys typed after a switch is asked for, before the other session has
// even answered, are not typed into the pane being left: they wait for
// the new session's layout. A switch that fails types them where the
// person still is.
func TestKeysAfterASwitchIsAskedWaitForItsAnswer(t *testing.T) {
	t.Parallel()
	fc := &fakeCalls{}
	m := NewModel(Options{Clock: &fakeClock{t: time.Unix(1_800_000_000, 0)}}, fc, 104, 20)
	home := proto.AttachLayout{Type: "layout", Session: "home", Workspace: 1, Focused: "h1", Cols: 80, Rows: 19,
		Windows: []proto.AttachWindow{{ID: "h1", Index: 0, Name: "shell", Width: 80, Height: 19}}}
	m.Update(home)
	typed := func() (into map[string]string) {
		into = map[string]string{}
		for _, c := range fc.calls {
			if c.verb == "send-text" {
				into[c.params["session"].(string)+"/"+c.params["window"].(string)] += c.params["text"].(string)
			}
		}
		return into
	}

	m.switchSession("api") // enter on a rail row
	if fc.switched != "api" {
		t.Fatalf("switched to %q", fc.switched)
	}
	m.Update(key("l"))
	m.Update(key("s"))
	if got := typed(); len(got) != 0 {
		t.Fatalf("typed into the session being left: %v", got)
	}
	m.Update(attachedMsg{nonce: "N2", session: "api"})
	m.Update(proto.AttachLayout{Type: "layout", Session: "api", Workspace: 1, Focused: "a1", Cols: 80, Rows: 19,
		Windows: []proto.AttachWindow{{ID: "a1", Index: 0, Name: "shell", Width: 80, Height: 19}}})
	if got := typed(); len(got) != 1 || got["api/a1"] != "ls" {
		t.Fatalf("typed %v, want ls into api/a1", got)
	}

	// A switch that fails: the keys go where the person still is.
	fc.calls = nil
	m.switchSession("gone")
	m.Update(key("p"))
	m.Update(replyMsg{verb: "attach", err: errors.New("session_not_found: no session gone")})
	if got := typed(); len(got) != 1 || got["api/a1"] != "p" {
		t.Fatalf("after a failed switch typed %v, want p into api/a1", got)
	}
}
