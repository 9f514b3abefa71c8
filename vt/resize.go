package vt

import "unicode/utf8"

// Resize changes the screen size. The main screen is reflowed when the
// width changes: soft-wrapped rows (and history lines) are joined into
// their logical lines and wrapped again at the new width, the cursor
// following its place in the text (see the package doc, Resize). The
// alternate screen is cut or padded, never reflowed; while it is shown the
// main screen keeps its old size and is reflowed when the program leaves
// it, as in tmux. A size above MaxCols or MaxRows is clamped to it; a zero
// or negative size means "unknown" and changes nothing.
func (s *Screen) Resize(cols, rows int) {
	if cols < 1 || rows < 1 {
		return
	}
	cols = min(cols, MaxCols)
	rows = min(rows, MaxRows)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if cols == s.cols && rows == s.rows {
		return
	}
	s.cols, s.rows = cols, rows
	if s.altActive {
		s.x, s.y = s.resizeGrid(s.alt, cols, rows, s.x, s.y)
		s.alt.saved.x = min(s.alt.saved.x, cols-1)
		s.alt.saved.y = min(s.alt.saved.y, rows-1)
		s.x = min(s.x, cols-1)
		s.y = min(max(s.y, 0), rows-1)
		s.pendingWrap = false
	} else {
		if s.alt != nil {
			s.altSaved = s.alt.saved
			s.alt = nil // blank anyway; allocated again on entry
		}
		s.fitMain()
	}
	s.top, s.bot = 0, rows-1
	old := s.tabs
	s.tabs = make([]bool, cols)
	copy(s.tabs, old)
	for i := len(old); i < cols; i++ {
		s.tabs[i] = i%8 == 0
	}
}

// fitMain brings the main grid, shown now, to the screen's size: first
// its height at its own width (rows below the cursor go first, then rows
// from the top into the history; history comes back down when it grows),
// then its width by reflow. tmux resizes in the same order.
func (s *Screen) fitMain() {
	g := s.main
	oldCols, oldRows := len(g.rows[0].cells), len(g.rows)
	if oldCols == s.cols && oldRows == s.rows {
		return
	}
	s.x = min(s.x, oldCols-1)
	s.y = min(max(s.y, 0), oldRows-1)
	if oldRows != s.rows {
		y0 := s.y
		s.x, s.y = s.resizeGrid(g, oldCols, s.rows, s.x, s.y)
		// What moved the cursor's row moved every row.
		d := s.y - y0
		if sv := &g.saved; sv.set {
			sv.y = min(max(sv.y+d, 0), s.rows-1)
		}
		if m := &s.mark133; m.set {
			m.y += d
			m.set = m.y >= 0 && m.y < s.rows
		}
	}
	if oldCols != s.cols {
		s.reflow(s.cols)
	}
	s.x = min(s.x, s.cols-1)
	s.y = min(max(s.y, 0), s.rows-1)
	if sv := &g.saved; sv.set {
		sv.x = min(sv.x, s.cols-1)
		sv.y = min(sv.y, s.rows-1)
	}
}

// resizeGrid changes g's height to rows and cuts or pads its rows to cols,
// returning the cursor moved with its line. Only the main grid feeds and
// takes from the history.
func (s *Screen) resizeGrid(g *grid, cols, rows, cx, cy int) (int, int) {
	isMain := g == s.main
	list := g.rows
	// Shrink as tmux does: rows below the cursor go first, then rows from
	// the top move into the history, so the cursor's line stays.
	if below := len(list) - 1 - cy; below > 0 && len(list) > rows {
		list = list[:len(list)-min(below, len(list)-rows)]
	}
	for len(list) > rows {
		if isMain {
			if l := s.sb.next(); l != nil {
				s.pack(l, list[0].cells, list[0].wrapped)
			}
		}
		list = list[1:]
		cy--
	}
	backing := make([]cell, cols*rows)
	nr := make([]row, rows)
	pulled := 0
	if isMain && len(list) < rows {
		// Grow: bring back history lines above the screen.
		pulled = min(rows-len(list), s.sb.len())
	}
	for i := range nr {
		nr[i].cells = backing[i*cols : (i+1)*cols : (i+1)*cols]
	}
	for i := pulled - 1; i >= 0; i-- {
		l, _ := s.sb.popNewest()
		s.unpack(nr[i].cells, &l)
		nr[i].wrapped = l.wrapped
	}
	for i, r := range list {
		dst := nr[pulled+i].cells
		n := copy(dst, r.cells)
		if n > 0 && n < len(r.cells) {
			if last := dst[n-1]; last.kind == kindWide || last.kind == kindWideGrapheme {
				dst[n-1] = cell{st: last.st}
			}
		}
		nr[pulled+i].wrapped = r.wrapped && len(r.cells) <= cols
	}
	g.rows = nr
	return cx, cy + pulled
}

func rowBlank(cs []cell) bool {
	for _, c := range cs {
		if c.r != 0 || c.kind != kindNarrow || c.st != 0 {
			return false
		}
	}
	return true
}

// unpack writes a history line back into cells. Blanks up to the line's
// written width come back as written spaces, the rest as erased cells, so
// a later reflow sees the line as it was.
func (s *Screen) unpack(dst []cell, l *sbLine) {
	used := int(l.used)
	var w cellWalk
	w.reset(l)
	for {
		col := w.col
		text, width, ok := w.next()
		if !ok || col+width > len(dst) {
			return
		}
		si := uint16(0)
		if w.st != (Style{}) {
			si = s.styleIndex(w.st)
		}
		var c cell
		r, size := utf8.DecodeRune(text)
		switch {
		case size != len(text):
			// A map index with string(text) does not allocate; only a
			// cluster new to the table is copied.
			g, ok := s.graphemeIdx[string(text)]
			if !ok {
				g = s.internGrapheme(string(text))
			}
			c = cell{r: rune(g), st: si, kind: kindGrapheme}
			if width == 2 {
				c.kind = kindWideGrapheme
			}
		case width == 2:
			c = cell{r: r, st: si, kind: kindWide}
		default:
			if r == ' ' && col >= used {
				r = 0
			}
			c = cell{r: r, st: si}
		}
		dst[col] = c
		if width == 2 {
			dst[col+1] = cell{st: si, kind: kindCont}
		}
	}
}
