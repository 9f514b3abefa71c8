package daemon

import (
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

type captureParams struct {
	Session    string `json:"session" desc:"the session"`
	Window     string `json:"window" desc:"the window (default: the caller's pane, else the focused one)"`
	Scrollback bool   `json:"scrollback" desc:"include history that scrolled off"`
	Lines      int    `json:"lines" desc:"only the last N lines, counted from the last line with content"`
	ANSI       bool   `json:"ansi" desc:"keep colours and styles as SGR sequences"`
}

type sendTextParams struct {
	Session string `json:"session" desc:"the session"`
	Window  string `json:"window" desc:"the window (default: the caller's pane, else the focused one)"`
	Text    string `json:"text" req:"true" desc:"bytes to write to the pane, verbatim; a trailing newline is the Enter that runs it"`
}

type sendKeysParams struct {
	Session string `json:"session" desc:"the session"`
	Window  string `json:"window" desc:"the window (default: the caller's pane, else the focused one)"`
	Keys    string `json:"keys" req:"true" desc:"keys split on spaces and commas: Enter, Escape, Up, ctrl+c, alt+x…; other tokens are typed as written"`
}

func (s *Server) paneVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *captureParams) (any, *proto.Error) {
		if p.Lines < 0 {
			return nil, proto.Errorf(proto.CodeInvalidParams, "lines must be positive").WithHint(proto.Hint{Param: "lines"})
		}
		s.mu.Lock()
		_, w, err := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		content := w.pane.Screen().Capture(vt.CaptureOptions{Scrollback: p.Scrollback, Lines: p.Lines, ANSI: p.ANSI})
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
		if _, werr := w.proc.Write([]byte(p.Text)); werr != nil {
			return nil, proto.Errorf(proto.CodeCommandFailed, "writing to the pane: %v", werr)
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
		b := KeyBytes(p.Keys)
		if _, werr := w.proc.Write(b); werr != nil {
			return nil, proto.Errorf(proto.CodeCommandFailed, "writing to the pane: %v", werr)
		}
		w.pane.Typed()
		return map[string]any{"type": "keys_sent", "window_id": w.ID, "bytes": len(b)}, nil
	})
	add("send-keys", "Press keys in a pane (named keys and ctrl/alt combinations; not for text)", "keys_sent", `{"verb":"send-keys","params":{"window":"build","keys":"ctrl+c"}}`, p, h)
}
