package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

func TestChordKeySpellings(t *testing.T) {
	t.Parallel()
	for tok, want := range map[string]string{
		"ctrl+b": "ctrl+b", "C-b": "ctrl+b", "^b": "ctrl+b", "ctrl+B": "ctrl+b", "ctrl-a": "ctrl+a",
		"n": "n", "G": "G", "3": "3", "Up": "up", "LEFT": "left", "Enter": "enter", "space": "space", "F5": "f5",
		"alt+x": "alt+x", "M-x": "alt+x",
	} {
		k, ok := chordKey(tok)
		if !ok || keyName(k) != want {
			t.Errorf("chordKey(%q) = %q %v, want %q", tok, keyName(k), ok, want)
		}
	}
	for _, tok := range []string{"hello", "", "ctrl+", "nn"} {
		if _, ok := chordKey(tok); ok {
			t.Errorf("chordKey(%q) is a key", tok)
		}
	}
}

// A handed chord focuses the pane it was sent to, then runs its binding;
// a binding that would take the person's next keys is not run.
func TestHandedChord(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(proto.AttachKeys{Type: "keys", Window: "w2", Keys: []string{"ctrl+b", "n"}})
	if f := fc.last(t, "focus-window"); f.params["window"] != "w2" {
		t.Fatalf("focus first: %+v", f)
	}
	if rc := fc.last(t, "run-command"); rc.params["command"] != "FocusNext" || fc.calls[len(fc.calls)-1].verb != "run-command" {
		t.Fatalf("then the binding: %+v", fc.calls)
	}
	m.Update(proto.AttachKeys{Type: "keys", Window: "w2", Keys: []string{"C-b", "2"}})
	if sw := fc.last(t, "select-workspace"); sw.params["workspace"] != 2 {
		t.Fatalf("prefix 2: %+v", sw)
	}
	n := len(fc.calls)
	for _, k := range []string{"i", "x", "[", "o", "q"} {
		m.Update(proto.AttachKeys{Type: "keys", Window: "w2", Keys: []string{"ctrl+b", k}})
		if m.inbox != nil || m.confirmClose != "" || m.scroll != nil || m.railOn || len(fc.calls) != n {
			t.Fatalf("ctrl+b %s from a program ran: inbox %v close %q calls %+v", k, m.inbox != nil, m.confirmClose, fc.calls[n:])
		}
		if !strings.Contains(m.dock, "ctrl+b "+k) || !strings.Contains(m.dock, "not run") && !strings.Contains(m.dock, "only you") {
			t.Fatalf("ctrl+b %s: the dock says %q", k, m.dock)
		}
	}
	// Not this client's prefix: nothing.
	m.Update(proto.AttachKeys{Type: "keys", Window: "w1", Keys: []string{"ctrl+a", "n"}})
	if len(fc.calls) != n {
		t.Fatalf("another prefix ran: %+v", fc.calls[n:])
	}
	// Something open for the person: the chord waits for nobody.
	m.Update(tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl})
	m.Update(proto.AttachKeys{Type: "keys", Window: "w1", Keys: []string{"ctrl+b", "n"}})
	if len(fc.calls) != n || !m.prefix {
		t.Fatalf("a chord cut into the person's prefix: %+v", fc.calls[n:])
	}
}

// FuzzChordKey: a token from the stream never panics, and a key it
// accepts has a name a binding can hold.
func FuzzChordKey(f *testing.F) {
	for _, s := range []string{"ctrl+b", "C-b", "^b", "M-x", "alt+ctrl+x", "F12", "n", "é", "\xff", "ctrl+\xff", "meta+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		if k, ok := chordKey(tok); ok && keyName(k) == "" {
			t.Fatalf("chordKey(%q) accepted a key with no name: %+v", tok, k)
		}
	})
}
