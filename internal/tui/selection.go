package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
)

// Mouse selection. A press of the left button on a pane's text and a
// drag select the text between, drawn in reverse video; the release
// copies it (paste.go) and leaves it drawn until the next key or click.
// A pane whose program asked for the mouse gets its drags as before,
// unless shift is held: shift+drag selects over any program, as in tmux
// and most terminals. In copy mode a drag over its pane selects in the
// history instead and the release copies and leaves (scrollback.go).

// mouseSel is a selection over a pane's screen, in pane cells: from the
// press (x0, y0) to where the pointer is (x1, y1), both included.
type mouseSel struct {
	window         string
	x0, y0, x1, y1 int
	dragging       bool
}

// span is the selection in reading order.
func (s *mouseSel) span() (y0, x0, y1, x1 int) {
	if s.y1 < s.y0 || s.y1 == s.y0 && s.x1 < s.x0 {
		return s.y1, s.x1, s.y0, s.x0
	}
	return s.y0, s.x0, s.y1, s.x1
}

// covers reports whether the selection is over row r of window id's
// pane (a nil selection covers nothing).
func (s *mouseSel) covers(id string, r int) bool {
	if s == nil || s.window != id {
		return false
	}
	y0, _, y1, _ := s.span()
	return r >= y0 && r <= y1
}

// paneAt is the window whose pane holds area cell (ax, ay) and the
// cell's place in that pane; popups are over the tiles.
func (m *Model) paneAt(ax, ay int) (w proto.AttachWindow, x, y int, ok bool) {
	for _, t := range m.layout.Windows {
		if t.Minimized || t.Width <= 0 || t.Height <= 0 {
			continue
		}
		if ax >= t.X && ax < t.X+t.Width && ay >= t.Y && ay < t.Y+t.Height {
			w, ok = t, true // later ones are drawn over earlier ones
		}
	}
	if !ok {
		return w, 0, 0, false
	}
	dx, dy := paneOffset(w)
	x, y = ax-w.X-dx, ay-w.Y-dy
	pc, pr := paneArea(w)
	return w, x, y, x >= 0 && y >= 0 && x < pc && y < pr
}

// mouseSelect takes the mouse events that select: a left press on a
// pane's text that the pane's program does not take (it asked for no
// mouse, or shift is held), and the drag and release after it. ok is
// false for every other event, which goes on as before.
func (m *Model) mouseSelect(ms tea.Mouse, kind mouseKind) (tea.Cmd, bool) {
	areaX, _, _, _ := m.geometry()
	sel := m.keyUI.sel
	if sel != nil && sel.dragging {
		w, found := m.windowByID(sel.window)
		if !found {
			m.keyUI.sel = nil
			return nil, false
		}
		switch kind {
		case mouseMotion, mouseRelease:
			dx, dy := paneOffset(w)
			pc, pr := paneArea(w)
			sel.x1 = min(max(ms.X-areaX-w.X-dx, 0), max(pc-1, 0))
			sel.y1 = min(max(ms.Y-w.Y-dy, 0), max(pr-1, 0))
			if kind == mouseMotion {
				return nil, true
			}
			sel.dragging = false
			if sel.x0 == sel.x1 && sel.y0 == sel.y1 {
				m.keyUI.sel = nil // a click, not a drag
				return nil, true
			}
			return m.copied(m.selectedText(sel)), true
		}
		m.keyUI.sel = nil // another button or the wheel ends it
		return nil, false
	}
	if kind == mouseClick {
		m.keyUI.sel = nil
	}
	if kind != mouseClick || ms.Button != tea.MouseLeft || m.keyUI.help != nil || m.agentsUI.palette != nil || m.agentsUI.page != nil {
		return nil, false
	}
	w, x, y, ok := m.paneAt(ms.X-areaX, ms.Y)
	if !ok || ms.X < areaX {
		return nil, false
	}
	if p := m.panes[w.ID]; p != nil && p.modes.Mouse != "" && !ms.Mod.Contains(tea.ModShift) {
		return nil, false // the program's own mouse
	}
	if w.ID != m.layout.Focused {
		m.focusWindow(w.ID)
	}
	m.keyUI.sel = &mouseSel{window: w.ID, x0: x, y0: y, x1: x, y1: y, dragging: true}
	return nil, true
}

// selectedText is the text under a selection, each row's trailing blanks
// dropped, rows joined by newlines.
func (m *Model) selectedText(s *mouseSel) string {
	p := m.panes[s.window]
	if p == nil {
		return ""
	}
	y0, x0, y1, x1 := s.span()
	var rows []string
	for y := y0; y <= y1 && y < len(p.rows); y++ {
		a, b := 0, 1<<20
		if y == y0 {
			a = x0
		}
		if y == y1 {
			b = x1 + 1
		}
		rows = append(rows, strings.TrimRight(p.text(y, a, b, &m.draw.cl), " "))
	}
	return strings.Join(rows, "\n")
}

// selectCells draws the mouse selection over row r of window id's pane,
// whose cells are at x,y of the frame, w wide: the selected cells in the
// theme's selection (reverse video, their own colours dropped, so it
// reads the same in any theme and in monochrome).
func (m *Model) selectCells(id string, r, x, y, w int) {
	s := m.keyUI.sel
	if !s.covers(id, r) {
		return
	}
	y0, x0, y1, x1 := s.span()
	a, b := 0, w
	if r == y0 {
		a = x0
	}
	if r == y1 {
		b = x1 + 1
	}
	row := m.draw.fr.row(y)
	for i := max(a, 0); i < min(b, w) && x+i < len(row); i++ {
		row[x+i].st = selectStyle()
	}
}

// reverseCells draws cells [a, b) of a row w cells wide as a selection
// (theme.go: reverse video, their own colours dropped, so it reads the
// same in any theme and in monochrome); the cells around keep their
// styles.
func reverseCells(row string, a, b, w int) string {
	a, b = max(a, 0), min(b, w)
	if a >= b {
		return row
	}
	left := ansi.Truncate(row, a, "")
	if n := ansi.StringWidth(left); n < a {
		left += strings.Repeat(" ", a-n)
	}
	mid := ansi.Strip(ansi.Cut(row, a, b))
	if n := ansi.StringWidth(mid); n < b-a {
		mid += strings.Repeat(" ", b-a-n)
	}
	right := ""
	if b < w {
		right = ansi.TruncateLeft(row, b, "")
		if n := ansi.StringWidth(right); n < w-b {
			right = strings.Repeat(" ", w-b-n) + right
		}
	}
	return left + sgrReset + sgrSelect + mid + sgrReset + right + sgrReset
}
