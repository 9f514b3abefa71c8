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
	m.call("close-window", map[string]any{"session": m.session, "window": w.ID}, "")
	return true
}

// drawPopups draws the layout's popups over the area's rows, in layout
// order (the daemon puts the top one last).
func (m *Model) drawPopups(out []string, cols, rows int) {
	for _, w := range m.layout.Windows {
		if !w.Popup || w.X < 0 || w.Y < 0 || w.X >= cols {
			continue
		}
		width := min(w.Width, cols-w.X)
		if width < 2 || w.Height < 2 {
			continue
		}
		for r := 0; r < w.Height && w.Y+r < rows; r++ {
			out[w.Y+r] = splice(out[w.Y+r], w.X, width, cols, m.popupRow(w, r, width))
		}
	}
}

// popupRow is row r of a popup width cells wide: the top edge with its
// name, a pane row between the sides, or the bottom edge.
func (m *Model) popupRow(w proto.AttachWindow, r, width int) string {
	a := m.opt.ASCIIOnly
	h, v, tl, tr, bl, br := "─", "│", "┌", "┐", "└", "┘"
	if a {
		h, v, tl, tr, bl, br = "-", "|", "+", "+", "+", "+"
	}
	style := "\x1b[2m"
	if w.ID == m.layout.Focused {
		style = sgrBold
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
	body := strings.Repeat(" ", max(inner, 0))
	if s := m.scroll; s != nil && s.window == w.ID {
		s.height = max(w.Height-2, 1)
		body = m.scrollRow(s, r-1, inner)
	} else if p := m.panes[w.ID]; p != nil && r-1 < len(p.lines) {
		if line := p.lines[r-1]; p.cols == inner && line != "" {
			body = line + sgrReset
		} else {
			body = fit(line, inner)
		}
		body = m.selectRow(w.ID, r-1, body, inner) // selection.go
	}
	return style + v + sgrReset + body + style + v + sgrReset
}

// splice puts mid (w cells) over the cells x to x+w of a row cols cells
// wide: what is left and right of it keeps its styles, and a wide
// character cut by an edge becomes spaces, so the row stays cols wide.
func splice(row string, x, w, cols int, mid string) string {
	left := ansi.Truncate(row, x, "")
	if n := ansi.StringWidth(left); n < x {
		left += strings.Repeat(" ", x-n)
	}
	right := ""
	if rest := cols - x - w; rest > 0 {
		right = ansi.TruncateLeft(row, x+w, "")
		if n := ansi.StringWidth(right); n < rest {
			right = strings.Repeat(" ", rest-n) + right
		} else if n > rest {
			right = ansi.Truncate(right, rest, "")
		}
	}
	return left + sgrReset + mid + sgrReset + right
}
