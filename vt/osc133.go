package vt

import (
	"net/url"
	"strconv"
	"strings"
)

// OSC 133 (FinalTerm / shell integration) marks as typed events. A shell
// that speaks it sends A where its prompt starts, B where the prompt ends
// and the person's typing begins, C when the typed command starts to run
// and D;<exit> when it finished. The screen turns each into an
// EventPromptMark whose Mark field says which one, the exit code of a D,
// and, on a C, the command line: from the option kitty and others send
// (C;cmdline_url=... or C;cmdline=...) when there is one, else read back
// from the screen between where B left the cursor and where C found it.
// Reading it back is a best effort: a command typed at the bottom row that
// wrapped and scrolled may be read from its last row only.

// PromptMarkKind is one OSC 133 mark letter.
type PromptMarkKind byte

// The marks.
const (
	MarkPromptStart  PromptMarkKind = 'A' // the prompt starts
	MarkCommandStart PromptMarkKind = 'B' // the prompt ends: typing starts
	MarkOutputStart  PromptMarkKind = 'C' // the command runs
	MarkCommandEnd   PromptMarkKind = 'D' // the command finished
)

// PromptMark is a parsed OSC 133 mark.
type PromptMark struct {
	Kind PromptMarkKind
	// Exit is D's exit code, valid when HasExit (a D sent without one, as
	// after an empty line, has none).
	Exit    int
	HasExit bool
	// Cmdline is the command a C starts, one line; "" when not known.
	Cmdline string
}

// maxCmdline bounds the command line kept with a C mark.
const maxCmdline = 1024

// ParsePromptMark reads an OSC 133 payload ("A", "D;1", "C;cmdline=ls").
// Unknown letters are refused.
func ParsePromptMark(payload string) (PromptMark, bool) {
	if payload == "" {
		return PromptMark{}, false
	}
	m := PromptMark{Kind: PromptMarkKind(payload[0])}
	switch m.Kind {
	case MarkPromptStart, MarkCommandStart, MarkOutputStart, MarkCommandEnd:
	default:
		return PromptMark{}, false
	}
	if len(payload) > 1 && payload[1] != ';' {
		return PromptMark{}, false
	}
	opts := ""
	if len(payload) > 2 {
		opts = payload[2:]
	}
	if m.Kind == MarkCommandEnd && opts != "" {
		code, _, _ := strings.Cut(opts, ";")
		if n, err := strconv.Atoi(code); err == nil {
			m.Exit, m.HasExit = n, true
		}
	}
	if m.Kind == MarkOutputStart {
		for opt := range strings.SplitSeq(opts, ";") {
			switch {
			case strings.HasPrefix(opt, "cmdline_url="):
				if v, err := url.QueryUnescape(strings.TrimPrefix(opt, "cmdline_url=")); err == nil {
					m.Cmdline = oneLine(v)
				}
			case strings.HasPrefix(opt, "cmdline="):
				m.Cmdline = oneLine(strings.TrimPrefix(opt, "cmdline="))
			}
		}
	}
	return m, true
}

// oneLine keeps a command line printable and bounded: control characters
// become spaces, runs of space collapse, the ends are trimmed.
func oneLine(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == ' ' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if b.Len()+len(string(r)) > maxCmdline {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// markPos is where the last B mark left the cursor on the main screen.
type markPos struct {
	x, y int
	set  bool
}

// osc133 handles one OSC 133 payload. Called while the stream is parsed,
// so the cursor is where the mark arrived.
func (s *Screen) osc133(payload string) {
	if len(payload) > oscDataMaxMark {
		payload = payload[:oscDataMaxMark]
	}
	m, ok := ParsePromptMark(payload)
	if !ok {
		return
	}
	switch m.Kind {
	case MarkCommandStart:
		s.mark133 = markPos{x: s.x, y: s.y, set: !s.altActive}
	case MarkOutputStart:
		if m.Cmdline == "" && s.mark133.set && !s.altActive {
			m.Cmdline = s.typedSinceMark()
		}
		s.mark133.set = false
	case MarkPromptStart:
		s.mark133.set = false
	}
	// Text keeps the letter and, for D, the exit code, as it always did:
	// the detector reads "A".
	text := payload[:1]
	if m.Kind == MarkCommandEnd {
		text = payload
		if len(text) > 16 {
			text = text[:16]
		}
	}
	s.emit(Event{Kind: EventPromptMark, Text: text, Mark: m})
}

// oscDataMaxMark bounds the payload an OSC 133 mark is read from.
const oscDataMaxMark = 4096

// typedSinceMark reads the command line between the B mark and the
// cursor. The command usually ends with the Enter that moved the cursor
// to the next row; at the bottom row that Enter scrolled the screen, so
// the command is then read from the row above the cursor.
func (s *Screen) typedSinceMark() string {
	bx, by := s.mark133.x, s.mark133.y
	if by >= s.rows {
		return ""
	}
	var b []byte
	switch {
	case s.y == by && s.x > bx: // C arrived on the same row, before any newline
		b = s.rowSpan(b, by, bx, s.x)
	case s.y > by:
		for y := by; y < s.y; y++ {
			from := 0
			if y == by {
				from = bx
			}
			b = s.rowSpan(b, y, from, s.cols)
		}
	case s.y > 0: // scrolled: the command's row is the one above the cursor
		b = s.rowSpan(b, s.y-1, min(bx, s.cols), s.cols)
	}
	return oneLine(string(b))
}

// rowSpan appends row y's text from column x0 up to x1.
func (s *Screen) rowSpan(b []byte, y, x0, x1 int) []byte {
	cells := s.cur.rows[y].cells
	x1 = min(x1, len(cells))
	for x := x0; x < x1; x++ {
		b = s.appendCellText(b, cells[x])
	}
	return append(b, ' ')
}
