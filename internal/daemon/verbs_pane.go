package daemon

import (
	"context"
	"errors"
	"time"

	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// typeTimeout is how long typing into a pane waits, by default, for the
// program to read what is already queued before it gives up.
const typeTimeout = 30 * time.Second

// typeInto queues b on the pane's input, in order after everything queued
// before it, waiting (without any lock) for room while the program reads.
// A program that reads nothing for the timeout (0: typeTimeout) gets what
// fit; the rest is not typed, and the caller is told how much was.
func (s *Server) typeInto(cn *conn, w *Window, b []byte, timeout time.Duration) *proto.Error {
	if timeout <= 0 {
		timeout = typeTimeout
	}
	ctx, cancel := context.WithTimeout(cn.ctx, timeout)
	defer cancel()
	w.typedAt.Store(time.Now().UnixNano()) // its echo is drawn at once (attach_stream.go)
	n, err := w.in.Send(ctx, b)
	switch {
	case err == nil:
		s.active(cn.peer, w.session) // attach_size.go: the client typed into is the latest
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return proto.Errorf(proto.CodeTimeout, "the pane did not read its input for %v: %d of %d bytes were queued, the rest was not typed", timeout, n, len(b)).
			WithHint(proto.Hint{Command: "tuios capture-pane -w " + w.ID[:8], Detail: "the program in the pane is not reading its input"})
	case cn.ctx.Err() != nil:
		return proto.Errorf(proto.CodeTimeout, "the caller hung up: %d of %d bytes were queued", n, len(b))
	}
	return proto.Errorf(proto.CodeCommandFailed, "typing into the pane: %v", err)
}

type captureParams struct {
	Session    string `json:"session" desc:"the session"`
	Window     string `json:"window" desc:"the window (default: the caller's pane, else the focused one)"`
	Scrollback bool   `json:"scrollback" desc:"include history that scrolled off"`
	Lines      int    `json:"lines" desc:"only the last N lines, counted from the last line with content" min:"1" max:"100000"`
	ANSI       bool   `json:"ansi" desc:"keep colours and styles as SGR sequences"`
}

type sendTextParams struct {
	Session string `json:"session" desc:"the session"`
	Window  string `json:"window" desc:"the window (default: the caller's pane, else the focused one)"`
	Text    string `json:"text" req:"true" desc:"bytes to write to the pane, verbatim; a trailing newline is the Enter that runs it"`
	Timeout int    `json:"timeout" desc:"ms to wait for a program that is not reading its input before giving up on the rest" min:"1" max:"86400000" default:"30000"`
}

type sendKeysParams struct {
	Session string `json:"session" desc:"the session"`
	Window  string `json:"window" desc:"the window (default: the caller's pane, else the focused one)"`
	Keys    string `json:"keys" req:"true" desc:"keys split on spaces and commas: Enter, Escape, Up, ctrl+c, alt+x…; other tokens are typed as written" maxlen:"65536"`
	Timeout int    `json:"timeout" desc:"ms to wait for a program that is not reading its input before giving up on the rest" min:"1" max:"86400000" default:"30000"`
}

func (s *Server) paneVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *captureParams) (any, *proto.Error) {
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
		return map[string]any{"type": "pane_content", "window_id": w.ID, "source": source, "styled": p.ANSI, "content": content}, nil
	})
	add("capture-pane", "Read a pane's text: the visible screen, or with scrollback its last N lines", "pane_content",
		`{"verb":"capture-pane","params":{"window":"build","scrollback":true,"lines":40}}`, p, h)

	p, h = handler(func(cn *conn, p *sendTextParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, err := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if err := s.typeInto(cn, w, []byte(p.Text), time.Duration(p.Timeout)*time.Millisecond); err != nil {
			return nil, err
		}
		w.pane.Typed()
		return map[string]any{"type": "text_sent", "window_id": w.ID, "bytes": len(p.Text)}, nil
	})
	add("send-text", "Write text to a pane's PTY exactly as given", "text_sent", `{"verb":"send-text","params":{"window":"build","text":"go test ./...\n"}}`, p, h)

	p, h = handler(func(cn *conn, p *sendKeysParams) (any, *proto.Error) {
		s.mu.Lock()
		_, w, err := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if handed, err := s.handChord(w, p.Keys); err != nil { // leader_keys.go
			return nil, err
		} else if handed {
			return map[string]any{"type": "keys_sent", "window_id": w.ID, "bytes": 0, "to_client": true}, nil
		}
		b := KeyBytes(p.Keys)
		if err := s.typeInto(cn, w, b, time.Duration(p.Timeout)*time.Millisecond); err != nil {
			return nil, err
		}
		w.pane.Typed()
		return map[string]any{"type": "keys_sent", "window_id": w.ID, "bytes": len(b)}, nil
	})
	add("send-keys", "Press keys in a pane (named keys and ctrl/alt combinations; not for text)", "keys_sent", `{"verb":"send-keys","params":{"window":"build","keys":"ctrl+c"}}`, p, h)

	s.screenshotVerbs(add) // screenshot.go
}
