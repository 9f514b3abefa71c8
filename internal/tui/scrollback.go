package tui

import (
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
)

// Copy mode (prefix [, the action "scrollback"): the focused pane's
// history, fetched once, with a cursor cell, a selection and a search
// prompt, drawn in the pane's tile. Its keys are the copy table of
// bindings.go ([keybindings.copy]); they follow tmux's vi copy mode.
// A page key moves the view a whole page and the cursor with it, every
// time, and the cursor keeps its row on the screen. v (or space) starts
// a selection from the cursor cell, V selects whole lines; y (or enter)
// copies it (paste.go) and leaves. A drag with the mouse over the pane
// selects too, and its release copies and leaves, as in tmux.

// scrollback is copy mode over one pane.
type scrollback struct {
	window  string
	lines   []string // styled
	plain   []string // the same, styles stripped, for search and copy
	top     int      // first line shown
	cur     int      // cursor line
	col     int      // cursor column, in cells
	height  int      // lines shown, set by the view
	width   int      // cells shown, set by the view
	anchor  int      // selection start line, -1 none
	acol    int      // selection start column
	byLine  bool     // the selection is of whole lines (V)
	drag    bool     // a mouse drag is making the selection
	search  *lineInput
	pattern string
	loading bool
}

func (m *Model) openScrollback(window string) {
	m.scroll = &scrollback{window: window, anchor: -1, loading: true}
	m.call("capture-pane", proto.CaptureParams{Session: m.session, Window: window, Scrollback: true, ANSI: true}, "scrollback")
}

func (m *Model) scrollReply(r replyMsg) {
	s := m.scroll
	if s == nil {
		return
	}
	if r.err != nil {
		m.scroll = nil
		m.say("scrollback: %s", r.err.Error())
		return
	}
	var res proto.PaneContent
	json.Unmarshal(r.raw, &res)
	s.loading = false
	s.lines = strings.Split(strings.TrimRight(res.Content, "\n"), "\n")
	s.plain = make([]string, len(s.lines))
	for i, l := range s.lines {
		s.plain[i] = ansi.Strip(l)
	}
	s.cur = len(s.lines) - 1
	s.top = max(0, len(s.lines)-max(s.height, 1))
	s.move(0)
}

// move moves the cursor by d lines and keeps it on screen.
func (s *scrollback) move(d int) {
	s.cur = min(max(s.cur+d, 0), max(len(s.lines)-1, 0))
	h := max(s.height, 1)
	if s.cur < s.top {
		s.top = s.cur
	}
	if s.cur >= s.top+h {
		s.top = s.cur - h + 1
	}
}

// page moves the view by d lines and the cursor with it, so the cursor
// keeps its row on the screen; at an end of the history the view stops
// and the cursor goes on to the first or last line.
func (s *scrollback) page(d int) {
	h := max(s.height, 1)
	top := min(max(s.top+d, 0), max(len(s.lines)-h, 0))
	moved := top - s.top
	s.top = top
	s.cur += moved
	if moved != d {
		s.cur += d - moved
	}
	s.move(0)
}

// setCol puts the cursor in column c of its line, within the tile.
func (s *scrollback) setCol(c int) {
	s.col = min(max(c, 0), max(s.width-1, 0))
}

// lineEnd is the last column of the cursor line's text.
func (s *scrollback) lineEnd() int {
	if s.cur < 0 || s.cur >= len(s.plain) {
		return 0
	}
	return max(ansi.StringWidth(strings.TrimRight(s.plain[s.cur], " "))-1, 0)
}

// word moves the cursor to the start of the next word (dir 1) or of this
// or the previous one (dir -1), across lines.
func (s *scrollback) word(dir int) {
	cells := func(i int) []bool { // true where a cell holds a word's character
		var out []bool
		for _, r := range s.plain[i] {
			w := ansi.StringWidth(string(r))
			for range w {
				out = append(out, r != ' ' && r != '\t')
			}
		}
		return out
	}
	if len(s.plain) == 0 {
		return
	}
	line, col := s.cur, s.col
	c := cells(line)
	at := func(x int) bool { return x >= 0 && x < len(c) && c[x] }
	if dir > 0 {
		for at(col) { // the rest of this word
			col++
		}
		for {
			for col < len(c) && !at(col) {
				col++
			}
			if col < len(c) || line >= len(s.plain)-1 {
				break
			}
			line, col = line+1, 0
			c = cells(line)
		}
		if col >= len(c) {
			col = max(len(c)-1, 0)
		}
	} else {
		col--
		for {
			for col >= 0 && !at(col) {
				col--
			}
			if col >= 0 || line == 0 {
				break
			}
			line--
			c = cells(line)
			col = len(c) - 1
		}
		for col > 0 && at(col-1) {
			col--
		}
		col = max(col, 0)
	}
	s.move(line - s.cur)
	s.setCol(col)
}

// find moves the cursor to the nearest match of the pattern above it
// (dir -1) or below it (dir 1), wrapping round the history.
func (s *scrollback) find(dir int) bool {
	if s.pattern == "" || len(s.plain) == 0 {
		return false
	}
	n := len(s.plain)
	for i := 1; i <= n; i++ {
		j := ((s.cur+dir*i)%n + n) % n
		if at := strings.Index(s.plain[j], s.pattern); at >= 0 {
			s.move(j - s.cur)
			s.setCol(ansi.StringWidth(s.plain[j][:at]))
			return true
		}
	}
	return false
}

// span is the selection in reading order, columns inclusive.
func (s *scrollback) span() (l0, c0, l1, c1 int) {
	l0, c0, l1, c1 = s.anchor, s.acol, s.cur, s.col
	if l1 < l0 || l1 == l0 && c1 < c0 {
		l0, c0, l1, c1 = l1, c1, l0, c0
	}
	if s.byLine {
		c0, c1 = 0, 1<<20
	}
	return
}

// selection is the selected text, trailing blanks of each line dropped.
func (s *scrollback) selection() string {
	l0, c0, l1, c1 := s.span()
	var out []string
	for i := max(l0, 0); i <= l1 && i < len(s.plain); i++ {
		a, b := 0, 1<<20
		if i == l0 {
			a = c0
		}
		if i == l1 {
			b = c1 + 1
		}
		out = append(out, strings.TrimRight(ansi.Cut(s.plain[i], a, b), " "))
	}
	return strings.Join(out, "\n")
}

func (m *Model) scrollKey(k tea.Key, name string) tea.Cmd {
	s := m.scroll
	if s.search != nil {
		switch name {
		case "enter":
			s.pattern = string(s.search.text)
			s.search = nil
			if !s.find(-1) {
				m.say("not found: %s", s.pattern)
			}
		case "esc":
			s.search = nil
		case "backspace":
			if len(s.search.text) > 0 {
				s.search.text = s.search.text[:len(s.search.text)-1]
			}
		default:
			if k.Text != "" && !k.Mod.Contains(tea.ModCtrl) {
				s.search.text = append(s.search.text, []rune(clean(k.Text))...)
			}
		}
		return nil
	}
	h := max(s.height, 1)
	switch m.keys.in(ModeCopy, name) {
	case "copy.exit":
		if s.anchor >= 0 && name == "esc" {
			s.anchor = -1
			return nil
		}
		m.scroll = nil
	case "copy.up":
		s.move(-1)
	case "copy.down":
		s.move(1)
	case "copy.left":
		s.setCol(s.col - 1)
	case "copy.right":
		s.setCol(s.col + 1)
	case "copy.line-start":
		s.setCol(0)
	case "copy.line-end":
		s.setCol(s.lineEnd())
	case "copy.word-next":
		s.word(1)
	case "copy.word-prev":
		s.word(-1)
	case "copy.page-up":
		s.page(-h)
	case "copy.page-down":
		s.page(h)
	case "copy.half-up":
		s.page(-max(h/2, 1))
	case "copy.half-down":
		s.page(max(h/2, 1))
	case "copy.top":
		s.move(-len(s.lines))
		s.setCol(0)
	case "copy.bottom":
		s.move(len(s.lines))
	case "copy.search":
		s.search = &lineInput{label: "search up: "}
	case "copy.next", "copy.prev":
		dir := -1
		if m.keys.in(ModeCopy, name) == "copy.prev" {
			dir = 1
		}
		if !s.find(dir) && s.pattern != "" {
			m.say("not found: %s", s.pattern)
		}
	case "copy.select", "copy.select-line":
		line := m.keys.in(ModeCopy, name) == "copy.select-line"
		if s.anchor >= 0 && s.byLine == line {
			s.anchor = -1
		} else {
			if s.anchor < 0 {
				s.anchor, s.acol = s.cur, s.col
			}
			s.byLine = line
		}
	case "copy.copy":
		if s.anchor < 0 {
			m.say("nothing selected: %s starts a selection", m.keys.first("copy.select"))
			return nil
		}
		text := s.selection()
		m.scroll = nil
		return m.copied(text)
	}
	return nil
}

// scrollRow is row r of copy mode's tile, w cells wide: the history line
// with the selection, or the cursor cell, in reverse video.
func (m *Model) scrollRow(s *scrollback, r, w int) string {
	s.width = w
	i := s.top + r
	if s.loading && r == 0 {
		return fitPlain(" reading the history…", w, m.opt.ASCIIOnly)
	}
	if i < 0 || i >= len(s.lines) {
		return strings.Repeat(" ", w)
	}
	row := fit(s.lines[i], w)
	if s.anchor < 0 {
		if i == s.cur {
			return reverseCells(row, s.col, s.col+1, w)
		}
		return row
	}
	l0, c0, l1, c1 := s.span()
	if i < l0 || i > l1 {
		return row
	}
	a, b := 0, w
	if i == l0 {
		a = c0
	}
	if i == l1 {
		b = c1 + 1
	}
	return reverseCells(row, a, b, w)
}

// copyMouse is the mouse over copy mode's pane: a left press puts the
// cursor there and starts a selection, a drag extends it, and the
// release copies and leaves (a press and release on one cell only moves
// the cursor). ok is false for events it does not take.
func (m *Model) copyMouse(x, y int, inPane bool, kind mouseKind, left bool) (tea.Cmd, bool) {
	s := m.scroll
	if s == nil || s.loading {
		return nil, false
	}
	h := max(s.height, 1)
	place := func() {
		if y < 0 {
			s.page(-1) // dragging above the pane scrolls it
			y = 0
		} else if y >= h {
			s.page(1)
			y = h - 1
		}
		s.cur = min(max(s.top+y, 0), max(len(s.lines)-1, 0))
		s.setCol(x)
	}
	switch {
	case kind == mouseClick && left && inPane:
		place()
		s.anchor, s.acol, s.byLine, s.drag = s.cur, s.col, false, true
		return nil, true
	case s.drag && kind == mouseMotion:
		place()
		return nil, true
	case s.drag && kind == mouseRelease:
		place()
		s.drag = false
		if s.anchor == s.cur && s.acol == s.col {
			s.anchor = -1
			return nil, true
		}
		text := s.selection()
		m.scroll = nil
		return m.copied(text), true
	}
	return nil, false
}

// copyMouseAt routes a mouse event to copy mode when it is open: events
// over its pane, and the drag that started there wherever it goes.
func (m *Model) copyMouseAt(ms tea.Mouse, kind mouseKind) (tea.Cmd, bool) {
	s := m.scroll
	if s == nil || kind == mouseWheel {
		return nil, false
	}
	w, ok := m.windowByID(s.window)
	if !ok {
		return nil, false
	}
	areaX, _, _, _ := m.geometry()
	dx, dy := paneOffset(w)
	pc, pr := paneArea(w)
	x, y := ms.X-areaX-w.X-dx, ms.Y-w.Y-dy
	in := x >= 0 && y >= 0 && x < pc && y < pr
	return m.copyMouse(x, y, in, kind, ms.Button == tea.MouseLeft)
}
