package tui

import "github.com/tuios/tuios/internal/proto"

// maxPaneCells bounds what one pane's rows may take: the daemon caps a
// session's area at 1000x1000.
const maxPaneCells = 1000 * 1000

// apply takes a screen message: the rows it carries are turned into
// cells now, once, so drawing a frame only copies them.
func (p *pane) apply(s proto.AttachScreen, cl *clusters) {
	cols, rows := max(s.Cols, 0), max(s.Rows, 0)
	if cols*rows > maxPaneCells {
		cols, rows = 0, 0
	}
	switch {
	case cols != p.cols || rows != len(p.rows):
		p.resize(cols, rows)
	case s.Full && len(s.Lines) < rows:
		for _, row := range p.rows {
			for i := range row {
				row[i] = blank
			}
		}
	}
	for _, l := range s.Lines {
		if l.Y < 0 || l.Y >= len(p.rows) {
			continue
		}
		row := p.rows[l.Y]
		n, end := drawStyled(row, l.Text, cellStyle{}, cl)
		fill := cell{r: ' ', st: end, width: 1}
		for i := n; i < len(row); i++ {
			row[i] = fill
		}
	}
	p.cursor, p.modes, p.title = s.Cursor, s.Modes, s.Title
}

// resize makes the pane cols×rows and blank, in one allocation.
func (p *pane) resize(cols, rows int) {
	p.cols = cols
	all := make([]cell, cols*rows)
	for i := range all {
		all[i] = blank
	}
	p.rows = make([][]cell, rows)
	for y := range p.rows {
		p.rows[y] = all[y*cols : (y+1)*cols : (y+1)*cols]
	}
}

// text is the plain text of row y's cells from column a up to b (a wide
// character counts where it starts).
func (p *pane) text(y, a, b int, cl *clusters) string {
	if y < 0 || y >= len(p.rows) {
		return ""
	}
	var out []byte
	for x, c := range p.rows[y] {
		if x < a || x >= b || c.width == 0 {
			continue
		}
		out = appendCellText(out, c.r, cl)
	}
	return string(out)
}
