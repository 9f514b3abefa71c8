package vt

import (
	"encoding/base64"
	"strings"
)

// Mode names a terminal mode for Screen.Mode. DEC private modes use their
// number; ANSI modes are offset by ansiModeFlag so both fit one type.
type Mode int

const ansiModeFlag Mode = 1 << 20

// Modes a program can set.
const (
	ModeAppCursorKeys  Mode = 1
	ModeReverseVideo   Mode = 5
	ModeOrigin         Mode = 6
	ModeAutowrap       Mode = 7
	ModeCursorVisible  Mode = 25
	ModeMouseNormal    Mode = 1000
	ModeMouseButton    Mode = 1002
	ModeMouseAny       Mode = 1003
	ModeFocusReporting Mode = 1004
	ModeMouseSGR       Mode = 1006
	ModeAltScreen      Mode = 1049 // true while any alternate screen (47/1047/1049) is active
	ModeBracketedPaste Mode = 2004
	ModeInsert         Mode = ansiModeFlag | 4
	ModeNewline        Mode = ansiModeFlag | 20
)

// Mode reports whether mode m is set.
func (s *Screen) Mode(m Mode) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	switch m {
	case ModeAltScreen:
		return s.altActive
	case ModeInsert:
		return s.modeInsert
	case ModeNewline:
		return s.modeNewline
	}
	return s.decMode(int(m)) == 1
}

// Cell is one grid position as a renderer sees it.
type Cell struct {
	// Content is the grapheme cluster shown, " " for a blank, and "" for
	// the second column of a wide character.
	Content string
	// Width is 1, 2 (wide character), or 0 (second column of one).
	Width int
	Style Style
}

// Size returns the screen size.
func (s *Screen) Size() (cols, rows int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.cols, s.rows
}

// Cell returns the cell at column x, row y of the active screen; out of
// range gives the zero Cell.
func (s *Screen) Cell(x, y int) Cell {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if x < 0 || y < 0 || x >= s.cols || y >= s.rows {
		return Cell{}
	}
	c := s.cur.rows[y].cells[x]
	return Cell{Content: s.cellText(c), Width: c.width(), Style: s.styles[c.st]}
}

// Row returns the cells of row y of the active screen (nil out of range).
func (s *Screen) Row(y int) []Cell {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if y < 0 || y >= s.rows {
		return nil
	}
	cs := s.cur.rows[y].cells
	out := make([]Cell, len(cs))
	for i, c := range cs {
		out[i] = Cell{Content: s.cellText(c), Width: c.width(), Style: s.styles[c.st]}
	}
	return out
}

// Title returns the window title (OSC 0/2).
func (s *Screen) Title() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.title
}

// WorkingDir returns the directory reported by OSC 7, as a path.
func (s *Screen) WorkingDir() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.cwd
}

// Cursor returns the cursor position (0-based) and visibility.
func (s *Screen) Cursor() (x, y int, visible bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.x, s.y, s.modeCursorVisible
}

// AltScreen reports whether the alternate screen is active.
func (s *Screen) AltScreen() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.altActive
}

// ScrollbackLen returns the number of history lines held.
func (s *Screen) ScrollbackLen() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.sb.len()
}

// rowText appends row y's text, right-trimmed of spaces and tabs.
func (s *Screen) rowText(b []byte, y int) []byte {
	start := len(b)
	for _, c := range s.cur.rows[y].cells {
		b = s.appendCellText(b, c)
	}
	return trimRight(b, start)
}

func trimRight(b []byte, start int) []byte {
	for len(b) > start && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// Text returns the active screen: rows joined with "\n", trailing spaces
// trimmed per row, trailing empty rows dropped.
func (s *Screen) Text() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var b []byte
	lastContent := 0
	for y := 0; y < s.rows; y++ {
		if y > 0 {
			b = append(b, '\n')
		}
		b = s.rowText(b, y)
		if len(b) > 0 && b[len(b)-1] != '\n' {
			lastContent = len(b)
		}
	}
	return string(b[:lastContent])
}

// Tail returns up to n non-empty rows of the active screen (never the
// scrollback), top-down, as package detect's screen rules read them: rows
// are walked from the bottom up, right-trimmed of spaces and tabs, empty
// rows are skipped and not counted.
func (s *Screen) Tail(n int) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if n <= 0 {
		return nil
	}
	out := make([]string, 0, n)
	var b []byte
	for y := s.rows - 1; y >= 0 && len(out) < n; y-- {
		b = s.rowText(b[:0], y)
		if len(b) == 0 {
			continue
		}
		out = append(out, string(b))
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// CaptureOptions selects a capture-pane form.
type CaptureOptions struct {
	// Scrollback includes the history above the screen (main screen only;
	// the alternate screen has none).
	Scrollback bool
	// Lines, when positive, keeps only the last Lines lines counted from
	// the last line with content.
	Lines int
	// ANSI renders SGR sequences for styled cells (reset at each line end).
	ANSI bool
	// Join gives each soft-wrapped line whole, as tmux capture-pane -J
	// does: a row the terminal wrapped is followed by the next one on the
	// same line, its written blanks kept. Lines then counts whole lines.
	Join bool
}

// Capture returns screen (and optionally history) text like tmux
// capture-pane -p [-e] [-S -]: lines joined with "\n", trailing spaces
// trimmed, trailing empty lines dropped.
func (s *Screen) Capture(opts CaptureOptions) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var lines [][]byte
	cont := false // the last line goes on in the next row
	add := func(b []byte, wrapped bool) {
		if cont {
			l := append(lines[len(lines)-1], b...)
			if !wrapped && !opts.ANSI {
				l = trimRight(l, 0) // the blanks a joined line ends in
			}
			lines[len(lines)-1] = l
		} else {
			lines = append(lines, b)
		}
		cont = opts.Join && wrapped
	}
	if opts.Scrollback && !s.altActive {
		for i := 0; i < s.sb.len(); i++ {
			l := s.sb.at(i)
			if opts.Join && l.wrapped {
				add(s.sbLineWritten(l, opts.ANSI), true)
				continue
			}
			add(s.sbLineBytes(l, opts.ANSI), false)
		}
	}
	for y := 0; y < s.rows; y++ {
		r := &s.cur.rows[y]
		if opts.Join && r.wrapped && y < s.rows-1 {
			add(s.gridLineWritten(r.cells, opts.ANSI), true)
			continue
		}
		add(s.gridLineBytes(r.cells, opts.ANSI), false)
	}
	end := len(lines)
	for end > 0 && len(lines[end-1]) == 0 {
		end--
	}
	lines = lines[:end]
	if opts.Lines > 0 && len(lines) > opts.Lines {
		lines = lines[len(lines)-opts.Lines:]
	}
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.Write(l)
	}
	return b.String()
}

func (s *Screen) gridLineBytes(cs []cell, ansi bool) []byte {
	var b []byte
	if !ansi {
		for _, c := range cs {
			b = s.appendCellText(b, c)
		}
		return trimRight(b, 0)
	}
	// Trailing blanks in the default rendition are trimmed, written or
	// not, as in the plain form (and tmux capture-pane -e); a blank with
	// a colour is drawn and stays.
	end := len(cs)
	for end > 0 && (cs[end-1].r == 0 || cs[end-1].r == ' ') && cs[end-1].kind == kindNarrow && s.styles[cs[end-1].st] == (Style{}) {
		end--
	}
	return s.gridCellsStyled(cs[:end], true)
}

// gridLineWritten is a wrapped row's text up to its last written cell,
// blanks kept: the row goes on in the next one.
func (s *Screen) gridLineWritten(cs []cell, ansi bool) []byte {
	used := len(cs)
	for used > 0 && cs[used-1].r == 0 && cs[used-1].kind == kindNarrow {
		used--
	}
	return s.gridCellsStyled(cs[:used], ansi)
}

// gridCellsStyled is the text of cells, each change of style behind its
// SGR when ansi, and a reset after a styled end.
func (s *Screen) gridCellsStyled(cs []cell, ansi bool) []byte {
	var b []byte
	var cur Style
	for _, c := range cs {
		if st := s.styles[c.st]; ansi && st != cur {
			b = appendSGR(b, st)
			cur = st
		}
		b = s.appendCellText(b, c)
	}
	if cur != (Style{}) {
		b = append(b, "\x1b[0m"...)
	}
	return b
}

// sbLineWritten is gridLineWritten for a history line.
func (s *Screen) sbLineWritten(l *sbLine, ansi bool) []byte {
	return sbCellsStyled(l, int(l.used), ansi)
}

func (s *Screen) sbLineBytes(l *sbLine, ansi bool) []byte {
	if !ansi || len(l.runs) == 0 {
		return trimRight(append([]byte(nil), l.text...), 0)
	}
	// As on the screen: trailing blanks in the default rendition go.
	keep := 0
	l.forEachCell(func(col int, text string, _ int, st Style) {
		if text != " " || st != (Style{}) {
			keep = col + 1
		}
	})
	return sbCellsStyled(l, keep, true)
}

// sbCellsStyled is gridCellsStyled for a history line's cells before
// column end.
func sbCellsStyled(l *sbLine, end int, ansi bool) []byte {
	var b []byte
	var cur Style
	l.forEachCell(func(col int, text string, _ int, st Style) {
		if col >= end {
			return
		}
		if ansi && st != cur {
			b = appendSGR(b, st)
			cur = st
		}
		b = append(b, text...)
	})
	if cur != (Style{}) {
		b = append(b, "\x1b[0m"...)
	}
	return b
}

func decodeBase64(s string) string {
	s = strings.TrimRight(s, "=")
	b, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return ""
	}
	return string(b)
}

// Grid returns the text of every cell of the active screen, row by row,
// under one read lock: " " for a blank, "" for the second column of a wide
// character. It is the input FindBoxes expects.
func (s *Screen) Grid() [][]string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([][]string, s.rows)
	flat := make([]string, s.rows*s.cols)
	for y := range out {
		row := flat[y*s.cols : (y+1)*s.cols : (y+1)*s.cols]
		for x, c := range s.cur.rows[y].cells {
			row[x] = s.cellText(c)
		}
		out[y] = row
	}
	return out
}
