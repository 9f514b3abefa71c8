package vt

import (
	"unicode/utf8"
)

// cell is one grid position, 8 bytes. The zero value is a blank cell in the
// default style, so a freshly allocated or cleared row needs no fill.
//
// r holds the character itself when the cell is a single rune, or an index
// into Screen.graphemes when kind is kindGrapheme/kindWideGrapheme; a zero r
// is a blank.
type cell struct {
	r    rune
	st   uint16 // index into Screen.styles
	kind uint8
	_    uint8
}

const (
	kindNarrow       uint8 = iota // one column, r is the rune (0 = blank)
	kindWide                      // first column of a two-column character
	kindCont                      // second column of a wide character; r unused
	kindGrapheme                  // one column, r indexes Screen.graphemes
	kindWideGrapheme              // two columns, r indexes Screen.graphemes
)

func (c cell) width() int {
	switch c.kind {
	case kindWide, kindWideGrapheme:
		return 2
	case kindCont:
		return 0
	}
	return 1
}

func (c cell) isGrapheme() bool { return c.kind == kindGrapheme || c.kind == kindWideGrapheme }

// row is one line of a grid. wrapped marks a line that the cursor left by
// autowrap, so the next one continues it: a reflow joins the two.
type row struct {
	cells   []cell
	wrapped bool
}

// grid is one screen buffer (main or alternate).
type grid struct {
	rows []row
	// saved cursor for DECSC/DECRC, per buffer as in xterm.
	saved savedCursor
}

func newGrid(cols, rows int) *grid {
	g := &grid{rows: make([]row, rows)}
	// One backing array for all rows: one allocation per grid instead of
	// one per line.
	backing := make([]cell, cols*rows)
	for i := range g.rows {
		g.rows[i].cells = backing[i*cols : (i+1)*cols : (i+1)*cols]
	}
	return g
}

func clearCells(cs []cell, st uint16) {
	if st == 0 {
		clear(cs)
		return
	}
	for i := range cs {
		cs[i] = cell{st: st}
	}
}

// sbLine is a line of scrollback, packed: the text of its cells, per-cell
// metadata only when some cell is not a plain one-column rune, and style runs
// only when some cell is styled. Trailing blank cells are dropped.
type sbLine struct {
	text []byte
	// meta, when non-nil, has one byte per stored cell: the cell's content
	// length in bytes (<<2) | its width. A wide character's second column is
	// not stored.
	meta []uint8
	runs []styleRun
	// used is the columns up to the last written cell; the stored cells
	// after it (up to width) are erased ones that kept a background. A
	// reflow joins a wrapped line's written columns only, so a blank a
	// program erased or skipped at the end of a row does not push text.
	used, width uint16
	wrapped     bool
}

// styleRun says that cells from col on have style st. The style is stored
// by value, not as a table index, so the style table can be compacted
// without walking the history.
type styleRun struct {
	col uint16
	st  Style
}

// scrollback is a bounded ring of packed lines. Evicted lines give their
// buffers to the next line pushed, so a full scrollback allocates nothing.
type scrollback struct {
	lines []sbLine
	start int // index of the oldest line
	n     int
	max   int
}

func (sb *scrollback) len() int { return sb.n }

func (sb *scrollback) at(i int) *sbLine {
	return &sb.lines[(sb.start+i)%len(sb.lines)]
}

// next returns the slot for a new line, reusing the oldest when full.
func (sb *scrollback) next() *sbLine {
	if sb.max <= 0 {
		return nil
	}
	if sb.n < sb.max {
		if sb.n == len(sb.lines) {
			// Grow geometrically up to max, unrolling the ring first.
			nl := make([]sbLine, min(sb.max, max(64, 2*len(sb.lines))))
			for i := 0; i < sb.n; i++ {
				nl[i] = *sb.at(i)
			}
			sb.lines = nl
			sb.start = 0
		}
		l := &sb.lines[(sb.start+sb.n)%len(sb.lines)]
		sb.n++
		return l
	}
	l := &sb.lines[sb.start]
	sb.start = (sb.start + 1) % len(sb.lines)
	return l
}

func (sb *scrollback) reset() {
	sb.lines = nil
	sb.start, sb.n = 0, 0
}

// popNewest removes and returns the newest line (used when a resize grows
// the screen and pulls history back down).
func (sb *scrollback) popNewest() (sbLine, bool) {
	if sb.n == 0 {
		return sbLine{}, false
	}
	l := sb.at(sb.n - 1)
	out := *l
	*l = sbLine{}
	sb.n--
	return out, true
}

// pack stores cells into l, reusing l's buffers.
func (s *Screen) pack(l *sbLine, cs []cell, wrapped bool) {
	end := packedEnd(cs)
	minCap := 0
	if s.sb.n == s.sb.max {
		// A slot reused once the scrollback is full gets room for a whole
		// ASCII row, so a full scrollback stops allocating; until then a
		// slot gets only what its line needs, so short lines stay small.
		minCap = s.cols
	}
	s.packCells(l, cs[:end], wrapped, minCap)
}

// packedEnd is the number of cells a packed row keeps: trailing blanks that
// were never written nor styled are dropped.
func packedEnd(cs []cell) int {
	end := len(cs)
	for end > 0 && cs[end-1].r == 0 && cs[end-1].kind == kindNarrow && cs[end-1].st == 0 {
		end--
	}
	return end
}

// packCells packs cs (already cut at packedEnd) into l; l.text gets room
// for at least minCap bytes when it has to grow.
func (s *Screen) packCells(l *sbLine, cs []cell, wrapped bool, minCap int) {
	end := len(cs)
	used := end
	for used > 0 && cs[used-1].r == 0 && cs[used-1].kind == kindNarrow {
		used-- // erased cells that kept a background colour
	}
	l.used, l.width = uint16(used), uint16(end)
	if cap(l.text) < minCap || cap(l.text) < end {
		l.text = make([]byte, 0, (max(end, minCap)+31)&^31)
	}
	text := l.text[:0]
	l.meta = l.meta[:0]
	l.runs = l.runs[:0]
	l.wrapped = wrapped
	simple := true
	cur := uint16(0)
	for i, c := range cs {
		if simple && c.st == cur && c.kind == kindNarrow && c.r < 0x80 {
			// The common cell: plain ASCII in the current style.
			b := byte(c.r)
			if b == 0 {
				b = ' '
			}
			text = append(text, b)
			continue
		}
		if c.st != cur {
			l.runs = append(l.runs, styleRun{col: uint16(i), st: s.styles[c.st]})
			cur = c.st
		}
		if c.kind != kindNarrow && simple {
			simple = false
			// Back-fill metadata for the plain cells stored so far.
			for _, r := range string(text) {
				l.meta = append(l.meta, uint8(utf8.RuneLen(r))<<2|1)
			}
		}
		before := len(text)
		switch c.kind {
		case kindCont:
			continue
		case kindGrapheme, kindWideGrapheme:
			text = append(text, s.graphemes[c.r]...)
		default:
			if c.r == 0 {
				text = append(text, ' ')
			} else {
				text = utf8.AppendRune(text, c.r)
			}
		}
		if !simple {
			n := len(text) - before
			if n > 63 {
				// Clusters this long do not occur in real text; keep the
				// first rune so the per-cell length fits in six bits.
				_, sz := utf8.DecodeRune(text[before:])
				text = text[:before+sz]
				n = sz
			}
			l.meta = append(l.meta, uint8(n)<<2|uint8(c.width()))
		}
	}
	l.text = text
	if simple {
		l.meta = l.meta[:0]
	}
	if len(l.runs) == 0 {
		l.runs = l.runs[:0]
	}
}

// forEachCell calls f for each stored cell of a packed line with its text,
// width, and style.
func (l *sbLine) forEachCell(f func(col int, text string, width int, st Style)) {
	col := 0
	ri := 0
	var st Style
	off := 0
	i := 0
	for off < len(l.text) {
		var n, w int
		if len(l.meta) > 0 {
			n, w = int(l.meta[i]>>2), int(l.meta[i]&3)
		} else {
			_, n = utf8.DecodeRune(l.text[off:])
			w = 1
		}
		for ri < len(l.runs) && int(l.runs[ri].col) <= col {
			st = l.runs[ri].st
			ri++
		}
		f(col, string(l.text[off:off+n]), w, st)
		off += n
		col += w
		i++
	}
}
