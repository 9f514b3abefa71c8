package mux

import (
	"time"

	drpc "github.com/tuios/tuios/internal/daemon/rpc"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// PaneVerbs adds a pane's reads and writes to the verb table:
// capture-pane, send-text and send-keys.
func (s *Table) PaneVerbs(add AddFunc) {
	p, h := handler(func(cn Call, p *proto.CaptureParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, err := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		sc := w.pane.Screen()
		content := sc.Capture(vt.CaptureOptions{Scrollback: p.Scrollback, Lines: p.Lines, ANSI: p.ANSI})
		if !p.Scrollback && p.Lines == 0 { // the visible screen is every row (capture_rows.go)
			_, rows := sc.Size()
			content = fullHeight(content, rows)
		}
		source := "visible"
		if p.Scrollback {
			source = "recent"
		}
		return proto.PaneContent{Type: "pane_content", WindowID: w.ID, Source: source, Styled: p.ANSI, Content: content}, nil
	})
	add("capture-pane", drpc.Reads, "Read a pane's text: the visible screen, or with scrollback its last N lines", "pane_content",
		`{"verb":"capture-pane","params":{"window":"build","scrollback":true,"lines":40}}`, p, h)

	p, h = handler(func(cn Call, p *proto.SendTextParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, err := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if err := s.d.TypeInto(cn, w, []byte(p.Text), time.Duration(p.Timeout)*time.Millisecond); err != nil {
			return nil, err
		}
		w.pane.Typed()
		s.d.PersonTyped(cn, w.ID) // daemon's person_typed.go: the person at an attached client holds pushes
		return proto.TextSent{Type: "text_sent", WindowID: w.ID, Bytes: len(p.Text)}, nil
	})
	add("send-text", drpc.Types, "Write text to a pane's PTY exactly as given", "text_sent", `{"verb":"send-text","params":{"window":"build","text":"go test ./...\n"}}`, p, h)

	p, h = handler(func(cn Call, p *proto.SendKeysParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, err := s.target(cn, p.Session, p.Window)
		if err == nil && p.Window == "" && w == s.callerWindow(cn) {
			// From a pane, keys with no window go to the focused pane, as
			// the person's would (the agents page), pinned here: the
			// caller names its own pane with -w.
			w, err = s.focusedLocked(cn, w.session)
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		keys := p.Keys
		if c, known := admitted(cn); known && c.Inside { // a pane never types through the person's client
			if err := s.d.RefusePrefix(w, keys); err != nil {
				return nil, err
			}
		} else {
			keys = s.d.SpellPrefix(keys) // daemon's leader_keys.go: the word PREFIX
			if handed, err := s.d.HandChord(w, keys); err != nil {
				return nil, err
			} else if handed {
				return proto.KeysSent{Type: "keys_sent", WindowID: w.ID, ToClient: true}, nil
			}
		}
		b := KeyBytes(keys)
		if err := s.d.TypeInto(cn, w, b, time.Duration(p.Timeout)*time.Millisecond); err != nil {
			return nil, err
		}
		w.pane.Typed()
		return proto.KeysSent{Type: "keys_sent", WindowID: w.ID, Bytes: len(b)}, nil
	})
	add("send-keys", drpc.Types, "Press keys in a pane (named keys and ctrl/alt combinations; not for text)", "keys_sent", `{"verb":"send-keys","params":{"window":"build","keys":"ctrl+c"}}`, p, h)

}

// focusedLocked is ss's focused window, past the target check (target.go).
// Called with s.mu held.
func (s *Table) focusedLocked(cn Call, ss *Session) (*Window, *proto.Error) {
	w := ss.focused
	if w == nil {
		return nil, proto.Errorf(proto.CodeNoWindows, "session %q has no focused window", ss.Name).
			WithHint(proto.Hint{Command: "tuios focus-window -s " + ss.Name + " -w WINDOW"})
	}
	if err := s.gateTargetLocked(cn, ss, w); err != nil {
		return nil, err
	}
	return w, nil
}
