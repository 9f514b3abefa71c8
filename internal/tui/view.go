package tui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// View draws the whole outer terminal: rail, tiles (or an overlay) and
// the dock line, with the mouse mode and the cursor. The screen diffs it
// against the last frame, so only the cells that changed are written.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	if w, ok := m.focused(); ok {
		if p := m.panes[w.ID]; p != nil && p.modes.Mouse == "any" {
			v.MouseMode = tea.MouseModeAllMotion
		}
	}
	v.Cursor = m.cursor()
	return v
}

// cursor is where the outer terminal's cursor goes: the focused pane's,
// or the dock's prompt.
func (m *Model) cursor() *tea.Cursor {
	if m.rename != nil {
		return tea.NewCursor(min(len(m.rename.label)+len(m.rename.text), m.width-1), m.height-1)
	}
	if m.scroll != nil && m.scroll.search != nil {
		return tea.NewCursor(min(len(m.scroll.search.label)+len(m.scroll.search.text), m.width-1), m.height-1)
	}
	if m.inbox != nil || m.scroll != nil || m.confirmClose != "" {
		return nil
	}
	w, ok := m.focused()
	if !ok {
		return nil
	}
	p := m.panes[w.ID]
	if p == nil || !p.cursor.Visible {
		return nil
	}
	areaX, _, _, _ := m.geometry()
	x, y := p.cursor.X, p.cursor.Y
	if x >= w.Width || y >= w.Height-1 || x < 0 || y < 0 {
		return nil
	}
	return tea.NewCursor(areaX+w.X+x, w.Y+1+y)
}

// Render is the frame as text with SGR sequences, one line per terminal
// row.
func (m *Model) Render() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	areaX, cols, rows, rail := m.geometry()
	area := m.area(cols, rows)
	var railRows []string
	if rail {
		railRows = m.rail(rows)
	}
	var b strings.Builder
	for y := 0; y < rows && y < m.height-1; y++ {
		if rail && areaX > 0 {
			b.WriteString(railRows[y])
		}
		b.WriteString(area[y])
		if rail && areaX == 0 {
			b.WriteString(railRows[y])
		}
		b.WriteByte('\n')
	}
	b.WriteString(m.dockLine())
	return b.String()
}

// area draws the tiles, or the overlay that covers them.
func (m *Model) area(cols, rows int) []string {
	if m.inbox != nil {
		return padRows(m.inboxRows(cols, rows), cols, rows)
	}
	out := make([]string, rows)
	tiles := make([]proto.AttachWindow, 0, len(m.layout.Windows))
	for _, w := range m.layout.Windows {
		if !w.Minimized && w.Width > 0 && w.Height > 0 {
			tiles = append(tiles, w)
		}
	}
	sort.SliceStable(tiles, func(i, j int) bool { return tiles[i].X < tiles[j].X })
	var b strings.Builder
	for y := range rows {
		b.Reset()
		x := 0
		for _, t := range tiles {
			if y < t.Y || y >= t.Y+t.Height || t.X < x {
				continue
			}
			w := min(t.Width, cols-t.X)
			if w <= 0 {
				continue
			}
			if t.X > x {
				b.WriteString(strings.Repeat(" ", t.X-x))
			}
			b.WriteString(m.tileRow(t, y-t.Y, w))
			x = t.X + w
		}
		if x < cols {
			b.WriteString(strings.Repeat(" ", cols-x))
		}
		out[y] = b.String()
	}
	if len(tiles) == 0 && rows > 0 {
		msg := "no windows here: prefix c opens one"
		if !m.haveLayout {
			msg = "attaching…"
		}
		out[rows/2] = fitPlain(strings.Repeat(" ", max(0, (cols-len(msg))/2))+msg, cols, m.opt.ASCIIOnly)
	}
	return out
}

// tileRow is row r of a tile, w cells wide: the title bar, a pane row, or
// a scrollback line.
func (m *Model) tileRow(t proto.AttachWindow, r, w int) string {
	if r == 0 {
		return m.titleBar(t, w)
	}
	r--
	if s := m.scroll; s != nil && s.window == t.ID {
		s.height = t.Height - 1
		return m.scrollRow(s, r, w)
	}
	p := m.panes[t.ID]
	if p == nil || r >= len(p.lines) {
		return strings.Repeat(" ", w)
	}
	line := p.lines[r]
	if p.cols == w && line != "" {
		return line + sgrReset
	}
	return fit(line, w)
}

// titleBar is a tile's first row: glyph, name and state; reverse video
// when focused, so a monochrome screen still shows which one is.
func (m *Model) titleBar(t proto.AttachWindow, w int) string {
	var s strings.Builder
	s.WriteByte(' ')
	if m.agentsShown() {
		if g := glyph(t.State, m.opt.ASCIIOnly); g != "" {
			s.WriteString(g + " ")
		}
	}
	s.WriteString(strconv.Itoa(t.Index) + ":" + clean(t.Name))
	if m.agentsShown() && stateWord(t.State) != "" {
		s.WriteString("  " + stateWord(t.State))
	}
	if t.Exited {
		s.WriteString("  [exited]")
	}
	if m.scroll != nil && m.scroll.window == t.ID {
		s.WriteString("  [scrollback]")
	}
	if m.layout.Zoomed && t.ID == m.layout.Focused {
		s.WriteString("  [zoom]")
	}
	text := fitPlain(s.String(), w, m.opt.ASCIIOnly)
	if t.ID == m.layout.Focused {
		return sgrReverse + sgrBold + text + sgrReset
	}
	return sgrReverse + "\x1b[2m" + text + sgrReset
}

func (m *Model) scrollRow(s *scrollback, r, w int) string {
	i := s.top + r
	if s.loading && r == 0 {
		return fitPlain(" reading the history…", w, m.opt.ASCIIOnly)
	}
	if i < 0 || i >= len(s.lines) {
		return strings.Repeat(" ", w)
	}
	lo, hi := s.cur, s.cur
	if s.anchor >= 0 {
		lo, hi = min(s.anchor, s.cur), max(s.anchor, s.cur)
	}
	if i >= lo && i <= hi {
		return sgrReverse + fitPlain(s.plain[i], w, m.opt.ASCIIOnly) + sgrReset
	}
	return fit(s.lines[i], w)
}

// rail is the rail's rows, each railWidth cells: sessions, then agents.
func (m *Model) rail(rows int) []string {
	inner := railWidth - 1
	sep := "│"
	if m.opt.ASCIIOnly {
		sep = "|"
	}
	var lines []string
	lines = append(lines, sgrBold+fitPlain(" Sessions", inner, m.opt.ASCIIOnly)+sgrReset)
	agents := m.agentsShown()
	for _, s := range m.layout.Sessions {
		mark := " "
		if s.Current || s.Name == m.session {
			mark = ">"
		}
		g := " "
		if agents {
			if gl := glyph(s.State, m.opt.ASCIIOnly); gl != "" {
				g = gl
			}
		}
		row := fitPlain(fmt.Sprintf("%s%s %s %d", mark, g, clean(s.Name), s.Windows), inner, m.opt.ASCIIOnly)
		if mark == ">" {
			row = sgrBold + row + sgrReset
		}
		lines = append(lines, row)
	}
	if agents && len(m.layout.Agents) > 0 {
		lines = append(lines, "", sgrBold+fitPlain(" Agents", inner, m.opt.ASCIIOnly)+sgrReset)
		for _, a := range m.layout.Agents {
			text := " " + glyph(a.State, m.opt.ASCIIOnly) + " " + clean(a.Name)
			if msg := clean(a.Message); msg != "" {
				text += " " + msg
			}
			lines = append(lines, fitPlain(text, inner, m.opt.ASCIIOnly))
		}
	}
	out := make([]string, rows)
	for i := range out {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		if l == "" {
			l = strings.Repeat(" ", inner)
		}
		if m.opt.RailRight {
			out[i] = sep + l
		} else {
			out[i] = l + sep
		}
	}
	return out
}

// dockLine is the bottom row: a prompt, or the session, its workspaces
// and the last notice.
func (m *Model) dockLine() string {
	switch {
	case m.rename != nil:
		return fitPlain(m.rename.label+string(m.rename.text), m.width, m.opt.ASCIIOnly)
	case m.scroll != nil && m.scroll.search != nil:
		return fitPlain(m.scroll.search.label+string(m.scroll.search.text), m.width, m.opt.ASCIIOnly)
	case m.confirmClose != "":
		name := m.confirmClose
		if w, ok := m.windowByID(name); ok {
			name = clean(w.Name)
		}
		return sgrReverse + fitPlain(fmt.Sprintf("close window %s? (y/n)", name), m.width, m.opt.ASCIIOnly) + sgrReset
	}
	var s strings.Builder
	s.WriteString("[" + clean(m.session) + "]")
	for _, ws := range m.layout.Workspaces {
		if ws.Windows == 0 && ws.N != m.layout.Workspace {
			continue
		}
		s.WriteString(" " + strconv.Itoa(ws.N))
		if ws.N == m.layout.Workspace {
			s.WriteString("*")
		}
	}
	if m.prefix {
		s.WriteString("  [prefix]")
	}
	if m.scroll != nil {
		s.WriteString("  scrollback: arrows/PgUp/PgDn, / search, v select, y copy, q leave")
	} else if m.dock != "" {
		s.WriteString("  " + m.dock)
	}
	return sgrReverse + fitPlain(s.String(), m.width, m.opt.ASCIIOnly) + sgrReset
}

func padRows(lines []string, cols, rows int) []string {
	out := make([]string, rows)
	for i := range out {
		if i < len(lines) {
			out[i] = lines[i]
		} else {
			out[i] = strings.Repeat(" ", cols)
		}
	}
	return out
}

// inboxRows draws the Inbox overlay: the groups with their rows, or the
// peek of one prompt, and a footer of the keys that act.
func (m *Model) inboxRows(cols, rows int) []string {
	in := m.inbox
	a := m.opt.ASCIIOnly
	line := func(s string) string { return fitPlain(s, cols, a) }
	var out []string
	total := len(in.items)
	out = append(out, sgrReverse+line(fmt.Sprintf(" Inbox  %d waiting", total))+sgrReset)
	if in.peek != nil {
		return m.peekRows(cols, rows, out)
	}
	if !in.loaded {
		out = append(out, line(" reading…"))
	} else if total == 0 {
		out = append(out, line(" Nothing waits for you."))
	}
	now := m.clock.Now()
	kind := ""
	for i, it := range in.items {
		if it.Kind != kind {
			kind = it.Kind
			n := in.counts[kind]
			if n == 0 {
				n = countKind(in.items, kind)
			}
			out = append(out, sgrBold+line(fmt.Sprintf(" %s (%d)", kindTitle(kind), n))+sgrReset)
		}
		mark := "  "
		if i == in.sel {
			mark = "> "
		}
		who := clean(it.Session) + "/" + clean(it.Name)
		summary := clean(it.Summary)
		if len(it.Risk) > 0 {
			summary = "risky: " + summary
		}
		row := line(fmt.Sprintf(" %s%5s  %s  %s", mark, age(now, it.Since), who, summary))
		if i == in.sel {
			row = sgrReverse + row + sgrReset
		}
		out = append(out, row)
	}
	if len(out) > rows-2 && in.sel >= 0 {
		// Keep the selected row in view: drop rows from the top.
		drop := min(len(out)-(rows-2), max(0, in.sel+3-(rows-2)))
		out = append(out[:1], out[1+drop:]...)
	}
	for len(out) < rows-2 {
		out = append(out, "")
	}
	out = out[:max(rows-2, 1)]
	if in.note != "" {
		out = append(out, line(" "+in.note))
	} else {
		out = append(out, "")
	}
	out = append(out, sgrReverse+line(" enter go  space peek  d dismiss  z snooze  u undo  j/k move  q close")+sgrReset)
	for i, l := range out {
		if l == "" {
			out[i] = strings.Repeat(" ", cols)
		}
	}
	return out
}

func (m *Model) peekRows(cols, rows int, out []string) []string {
	pk := m.inbox.peek
	a := m.opt.ASCIIOnly
	line := func(s string) string { return fitPlain(s, cols, a) }
	out = append(out, sgrBold+line(fmt.Sprintf(" %s (%s) %s", clean(pk.Name), clean(pk.Session), stateWord(pk.State)))+sgrReset)
	if pk.Message != "" {
		out = append(out, line(" "+clean(pk.Message)))
	}
	if !pk.Answerable && pk.Reason != "" {
		out = append(out, line(" "+clean(pk.Reason)))
	}
	out = append(out, "")
	for _, l := range pk.Lines {
		out = append(out, line(" | "+clean(l)))
	}
	if len(pk.Options) > 0 {
		out = append(out, "")
	}
	for _, o := range pk.Options {
		out = append(out, line(fmt.Sprintf("   %d. %s", o.N, clean(o.Label))))
	}
	if len(pk.Risk) > 0 {
		out = append(out, "", line(" risky: "+strings.Join(cleanAll(pk.Risk), ", ")))
	}
	for len(out) < rows-2 {
		out = append(out, "")
	}
	out = out[:max(rows-2, 1)]
	note := m.inbox.note
	if ok, _ := m.ready(); !ok && note == "" {
		note = "reading…"
	}
	out = append(out, line(" "+note))
	keys := " 1-9 choose  a approve  A always  d deny  enter go to pane  r read again  esc back"
	out = append(out, sgrReverse+line(keys)+sgrReset)
	for i, l := range out {
		if l == "" {
			out[i] = strings.Repeat(" ", cols)
		}
	}
	return out
}

func countKind(items []item, kind string) int {
	n := 0
	for _, it := range items {
		if it.Kind == kind {
			n++
		}
	}
	return n
}

// age is how long ago a unix-ns time was, in one short unit.
func age(now time.Time, ns int64) string {
	if ns <= 0 {
		return ""
	}
	d := now.Sub(time.Unix(0, ns))
	switch {
	case d < time.Minute:
		return strconv.Itoa(max(0, int(d.Seconds()))) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d.Minutes())) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d.Hours())) + "h"
	}
	return strconv.Itoa(int(d.Hours()/24)) + "d"
}
