package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
)

// Popups (tuios popup): a window the layout marks Popup floats over the
// tiles in a frame, a cell wide on every side, with its name in the top
// edge. The daemon places it and names it focused while it is open, so
// keys, pastes, the cursor and the mouse go to it like to any focused
// pane; only the drawing and the pane's offset inside its rectangle
// differ. esc in window mode (after the prefix) closes it.

// paneOffset is where a window's pane starts inside its rectangle: below
// a tile's title bar, or inside a popup's frame.
func paneOffset(w proto.AttachWindow) (dx, dy int) {
	if w.Popup {
		return 1, 1
	}
	return 0, 1
}

// paneArea is the size of a window's pane inside its rectangle.
func paneArea(w proto.AttachWindow) (cols, rows int) {
	if w.Popup {
		return w.Width - 2, w.Height - 2
	}
	return w.Width, w.Height - 1
}

// focusedPopup is the focused window when it is a popup.
func (m *Model) focusedPopup() (proto.AttachWindow, bool) {
	w, ok := m.focused()
	return w, ok && w.Popup
}

// closePopup closes the focused popup (esc in window mode); false when
// the focused window is not one, so esc does what it did before.
func (m *Model) closePopup() bool {
	w, ok := m.focusedPopup()
	if !ok {
		return false
	}
	m.call("close-window", proto.WindowParams{Session: m.session, Window: w.ID}, "")
	return true
}

// drawPopups draws the layout's popups over the area, in layout order
// (the daemon puts the top one last): the frame as text, the pane's rows
// as cells inside it.
func (m *Model) drawPopups(areaX, cols, rows int) {
	f := &m.draw.fr
	for _, w := range m.layout.Windows {
		if !w.Popup || w.X < 0 || w.Y < 0 || w.X >= cols {
			continue
		}
		width := min(w.Width, cols-w.X)
		if width < 2 || w.Height < 2 {
			continue
		}
		inner := width - 2
		p := m.panes[w.ID]
		for r := 0; r < w.Height && w.Y+r < rows; r++ {
			x, y := areaX+w.X, w.Y+r
			f.text(&m.draw.texts, x, y, width, m.popupRow(w, r, width))
			switch {
			case r == 0 || r == w.Height-1:
			case m.scroll != nil && m.scroll.window == w.ID:
				m.scroll.height = max(w.Height-2, 1)
				f.text(&m.draw.texts, x+1, y, inner, m.scrollRow(m.scroll, r-1, inner))
			case p != nil && r-1 < len(p.rows):
				f.putPane(w.ID, r-1, x+1, y, p.rows[r-1], inner)
				m.selectCells(w.ID, r-1, x+1, y, inner) // selection.go
			}
		}
	}
}

// popupRow is row r of a popup width cells wide: the top edge with its
// name, the sides around a blank inside (where drawPopups puts the pane),
// or the bottom edge.
func (m *Model) popupRow(w proto.AttachWindow, r, width int) string {
	a := m.opt.ASCIIOnly
	h, v, tl, tr, bl, br := "─", "│", "┌", "┐", "└", "┘"
	if a {
		h, v, tl, tr, bl, br = "-", "|", "+", "+", "+", "+"
	}
	style := sgrBorder
	if w.ID == m.layout.Focused {
		style = sgrFocusBorder
	}
	inner := width - 2
	switch r {
	case 0:
		title := ""
		if inner >= 4 {
			name := " " + clean(w.Name) + " "
			if w.Exited {
				name = " " + clean(w.Name) + " [exited] "
			}
			title = fitPlain(name, min(inner-2, ansi.StringWidth(name)), a)
		}
		fill := max(inner-1-ansi.StringWidth(title), 0)
		if inner < 1 {
			return style + tl + tr + sgrReset
		}
		if title == "" {
			return style + tl + strings.Repeat(h, inner) + tr + sgrReset
		}
		return style + tl + h + title + strings.Repeat(h, fill) + tr + sgrReset
	case w.Height - 1:
		return style + bl + strings.Repeat(h, max(inner, 0)) + br + sgrReset
	}
	return style + v + sgrReset + strings.Repeat(" ", max(inner, 0)) + style + v + sgrReset
}
