package vt

import (
	"sort"
	"unicode/utf8"
)

// Reflow of the main screen on a width change.
//
// The history lines and the screen's rows are one sequence of packed lines
// (the screen's rows are packed first). A logical line is a run of them in
// which every one but the last is marked wrapped; its text is the written
// columns of each (sbLine.used), so a blank a program skipped or a wide
// character's spacer at a row's end does not push the text. Logical lines
// are laid out again at the new width newest first, and the work stops
// once the screen and the history are full: a reflow costs what the new
// screen and history hold.
//
// The screen is the bottom of the result, with one exception: a screen
// that ended in blank rows keeps its top row (the blank rows take what the
// text gains or gives back), so a short screen after a clear is not pushed
// into the history by a narrower window, and comes back as it was.

// reflowPoint is a position carried through a reflow: the cursor, the main
// screen's saved cursor, the OSC 133 B mark.
type reflowPoint struct {
	ok     bool
	cursor bool
	src    int // source line (history lines, then screen rows)
	x      int // column in it; a pending wrap is one past the last column
	blank  int // > 0: in the blank rows below the text, that many rows down
	off    int // column in its logical line
	// Where it landed: rev is the new row counted from the bottom of the
	// text (0 = the last row), -1 when it was dropped.
	rev     int
	col     int
	pending bool
}

// reflower is one reflow's state.
type reflower struct {
	s       *Screen
	cols    int // new width
	oldCols int
	hist    int // history lines at the start of the source sequence
	scratch []sbLine
	limit   int // rows worth keeping, counted from the bottom

	rev []sbLine // the new text, last row first

	// The logical line being laid out: its last rows, in a ring (rows
	// that could only be evicted are dropped as the line goes on), with
	// the column of the line where each starts.
	crow   []sbLine
	cstart []int
	chead  int // ring index of the oldest row kept
	cn     int // rows kept
	cdrop  int // rows dropped
	keep   int // rows of this line worth keeping
	off    int // columns of the line laid out so far

	b   rowBuilder
	pts [3]reflowPoint

	// The kept rows are copied into these. Once the history is full, each
	// line gets the room its slot had: a whole ASCII row of text, and the
	// metadata and style runs the old lines had room for, so output after
	// a resize allocates no more than before it.
	textCap, metaCap, runsCap int
	text                      arena[byte]
	meta                      arena[uint8]
	runs                      arena[styleRun]
}

func (f *reflower) src(i int) *sbLine {
	if i < f.hist {
		return f.s.sb.at(i)
	}
	return &f.scratch[i-f.hist]
}

// reflow lays the main grid (shown, its cursor in s.x/s.y) and the history
// out again at cols columns, keeping the grid's height.
func (s *Screen) reflow(cols int) {
	g := s.main
	rows := len(g.rows)
	f := &reflower{s: s, cols: cols, oldCols: len(g.rows[0].cells), hist: s.sb.len(), limit: rows + s.sb.max}
	if s.sb.n == s.sb.max && s.sb.n > 0 {
		text := 0
		for i := 0; i < s.sb.n; i++ {
			l := s.sb.at(i)
			text += cap(l.text)
			f.runsCap = max(f.runsCap, min(cap(l.runs), 8))
			if cap(l.meta) > 0 {
				f.metaCap = cols
			}
		}
		// The bytes a column took on average, at the new width: a
		// history of wide characters gets room for them.
		f.textCap = max(cols, text/s.sb.n*cols/f.oldCols)
	}
	f.text.chunk, f.meta.chunk, f.runs.chunk = 64<<10, 8<<10, 1<<10
	// The text ends at the cursor's row or the last row that is not blank.
	last := s.y
	for y := rows - 1; y > last; y-- {
		if !rowBlank(g.rows[y].cells) {
			last = y
			break
		}
	}
	blank := rows - 1 - last
	f.scratch = make([]sbLine, last+1)
	rowCap := (f.oldCols + 31) &^ 31
	text := make([]byte, rowCap*len(f.scratch)) // an ASCII row each; others grow
	for y := range f.scratch {
		cs := g.rows[y].cells
		f.scratch[y].text = text[y*rowCap : y*rowCap : (y+1)*rowCap]
		s.packCells(&f.scratch[y], cs[:packedEnd(cs)], g.rows[y].wrapped, 0)
	}
	total := f.hist + last + 1
	f.rev = make([]sbLine, 0, min(f.limit, total+total*f.oldCols/cols))

	x := s.x
	if s.pendingWrap {
		x = f.oldCols
	}
	f.pts[0] = reflowPoint{ok: true, cursor: true, src: f.hist + s.y, x: x, rev: -1}
	f.pts[1] = reflowPoint{ok: g.saved.set, src: f.hist + g.saved.y, x: g.saved.x, rev: -1}
	f.pts[2] = reflowPoint{ok: s.mark133.set, src: f.hist + s.mark133.y, x: s.mark133.x, rev: -1}
	for i := 1; i < len(f.pts); i++ {
		if p := &f.pts[i]; p.ok && p.src-f.hist > last {
			p.blank = p.src - f.hist - last
		}
	}

	// Lay the logical lines out, newest first.
	topRev := -1 // the new row of the old top row
	for k := total - 1; k >= 0 && len(f.rev) < f.limit; {
		j := k
		for j > 0 && f.src(j-1).wrapped {
			j--
		}
		topOff := -1
		if j <= f.hist && f.hist <= k {
			topOff = f.startOf(j, f.hist)
		}
		base := len(f.rev)
		f.layout(j, k)
		if topOff >= 0 {
			if r := f.rowOf(topOff); r >= 0 {
				topRev = base + f.cn - 1 - r
			}
		}
		f.appendRows()
		k = j - 1
	}

	// The rows of text the screen shows: the last ones, or, below a screen
	// that ended in blank rows, those from its old top row on if they fit.
	shown := min(rows, len(f.rev))
	if blank > 0 && topRev >= 0 && topRev < rows {
		shown = topRev + 1
	}
	// The new grid is in place before cells are interned into the tables,
	// so a compaction remaps what is already written.
	backing := make([]cell, cols*rows)
	nr := make([]row, rows)
	for i := range nr {
		nr[i].cells = backing[i*cols : (i+1)*cols : (i+1)*cols]
	}
	g.rows = nr
	for y := 0; y < shown; y++ {
		l := &f.rev[shown-1-y]
		s.unpack(nr[y].cells, l)
		nr[y].wrapped = l.wrapped
	}
	// The history: what is above the screen, oldest first.
	nh := min(len(f.rev)-shown, s.sb.max)
	lines := s.sb.lines
	if len(lines) < nh {
		lines = make([]sbLine, min(s.sb.max, max(64, nh)))
	}
	// The slots past the new history keep the buffers of the old lines
	// that were there: the history filling up again reuses them.
	for i := 0; i < nh; i++ {
		lines[i] = f.rev[shown+nh-1-i]
	}
	s.sb.lines, s.sb.start, s.sb.n = lines, 0, nh

	// The points, placed.
	place := func(p *reflowPoint) (x, y int, on bool) {
		switch {
		case !p.ok:
			return 0, 0, false
		case p.blank > 0:
			return min(p.x, cols-1), min(shown-1+p.blank, rows-1), true
		case p.rev < 0 || p.rev >= shown:
			return 0, 0, false // into the history, or dropped
		}
		return p.col, shown - 1 - p.rev, true
	}
	if x, y, on := place(&f.pts[0]); on {
		s.x, s.y, s.pendingWrap = x, y, f.pts[0].pending && s.modeAutowrap
	} else {
		// The text below the cursor fills the screen: the cursor goes to
		// the top left, as in tmux.
		s.x, s.y, s.pendingWrap = 0, 0, false
	}
	if g.saved.set {
		g.saved.x, g.saved.y, _ = place(&f.pts[1])
	}
	if s.mark133.set {
		s.mark133.x, s.mark133.y, s.mark133.set = place(&f.pts[2])
	}
}

// startOf is the column, in the logical line starting at source j, where
// source i starts.
func (f *reflower) startOf(j, i int) int {
	off := 0
	for k := j; k < i; k++ {
		off += int(f.src(k).used)
	}
	return off
}

// layout lays out the logical line made of sources j..k into the ring and
// places the points that are in it.
func (f *reflower) layout(j, k int) {
	f.chead, f.cn, f.cdrop, f.off = 0, 0, 0, 0
	f.keep = f.limit - len(f.rev)

	// Where the points are in the line; the cursor right of the text pads
	// the line up to it.
	end := f.startOf(j, k) + int(f.src(k).used)
	pad := end
	for i := range f.pts {
		p := &f.pts[i]
		if p.ok && p.blank == 0 && p.src >= j && p.src <= k {
			p.off = f.startOf(j, p.src) + p.x
			if p.cursor && p.src == k {
				pad = max(pad, p.off)
			}
		}
	}

	f.newRow()
	var w cellWalk
	for i := j; i <= k; i++ {
		l := f.src(i)
		w.reset(l)
		f.copyCells(&w, int(l.used))
		if i < k {
			continue
		}
		if pad > end {
			// What lies between the text and the cursor (erased cells,
			// then blanks) becomes part of the line.
			f.copyCells(&w, min(int(l.width), int(l.used)+pad-end))
			for f.off < pad {
				f.fit(1)
				f.b.put(spaceText, 1, Style{}, true)
				f.off++
			}
		}
		f.tail(&w, l)
	}
	f.endRow(false)

	base := len(f.rev)
	for i := range f.pts {
		p := &f.pts[i]
		if !p.ok || p.blank > 0 || p.src < j || p.src > k {
			continue
		}
		r := f.rowOf(p.off)
		if r < 0 {
			continue // its row was dropped
		}
		p.rev = base + f.cn - 1 - r
		p.col = p.off - f.cstart[(f.chead+r)%len(f.cstart)]
		p.pending = false
		if p.col >= f.cols {
			// Past the end of a full last row: for the cursor, a pending
			// wrap, as after printing up to the edge.
			p.col = f.cols - 1
			p.pending = p.cursor
		}
	}
}

// appendRows copies the laid-out line's rows to f.rev, last first; the
// ring keeps its buffers for the next line.
func (f *reflower) appendRows() {
	n := len(f.crow)
	for i := f.cn - 1; i >= 0; i-- {
		r := &f.crow[(f.chead+i)%n]
		f.rev = append(f.rev, sbLine{
			text: f.text.copy(r.text, (max(len(r.text), f.textCap)+31)&^31),
			meta: f.meta.copy(r.meta, f.metaCap),
			runs: f.runs.copy(r.runs, f.runsCap),
			used: r.used, width: r.width, wrapped: r.wrapped,
		})
	}
	f.cn = 0
}

// arena hands out slices of large chunks, so the rows of a reflow cost a
// few allocations rather than three each.
type arena[T any] struct {
	buf   []T
	chunk int
}

// copy returns a copy of src with room for want elements.
func (a *arena[T]) copy(src []T, want int) []T {
	want = max(want, len(src))
	if want == 0 {
		return nil
	}
	if cap(a.buf)-len(a.buf) < want {
		a.buf = make([]T, 0, max(want, a.chunk))
	}
	start := len(a.buf)
	a.buf = append(a.buf, src...)
	a.buf = a.buf[:start+want]
	return a.buf[start : start+len(src) : start+want]
}

// rowOf is the kept row (0 = the oldest kept) holding column off of the
// line, -1 when that row was dropped.
func (f *reflower) rowOf(off int) int {
	n := len(f.cstart)
	r := sort.Search(f.cn, func(i int) bool { return f.cstart[(f.chead+i)%n] > off }) - 1
	if r < 0 && f.cdrop == 0 && f.cn > 0 {
		r = 0
	}
	return r
}

var spaceText = []byte{' '}

// copyCells lays out the written cells of w's line up to column to,
// starting rows as they fill.
func (f *reflower) copyCells(w *cellWalk, to int) {
	l := w.l
	for w.col < to {
		if w.ascii {
			// Plain ASCII: spans up to the row's end or the next style
			// change at a time.
			w.style()
			n := min(to-w.col, f.cols-f.b.col)
			if n == 0 {
				f.fit(1)
				continue
			}
			if w.ri < len(l.runs) {
				n = min(n, int(l.runs[w.ri].col)-w.col)
			}
			f.b.putASCII(l.text[w.off:w.off+n], w.st)
			w.off += n
			w.col += n
			f.off += n
			continue
		}
		text, width, ok := w.next()
		if !ok {
			return
		}
		if width > f.cols {
			// A wide character cannot be shown one column wide (printing
			// one there drops it too).
			f.off += width
			continue
		}
		f.fit(width)
		f.b.put(text, width, w.st, true)
		f.off += width
	}
}

// tail adds the erased cells after the line's last written one (they kept
// a background colour) as far as they fit in the last row; a tail that
// reached the old right edge reaches the new one, as an erase to the end
// of the line would have.
func (f *reflower) tail(w *cellWalk, l *sbLine) {
	if w.col >= int(l.width) {
		return
	}
	var st Style
	for w.col < int(l.width) {
		text, width, ok := w.next()
		if !ok || f.b.col+width > f.cols {
			break
		}
		st = w.st
		f.b.put(text, width, st, false)
	}
	if int(l.width) == f.oldCols && st != (Style{}) {
		for f.b.col < f.cols {
			f.b.put(spaceText, 1, st, false)
		}
	}
}

// fit starts a new row when width more columns do not fit in this one.
func (f *reflower) fit(width int) {
	if f.b.col+width <= f.cols {
		return
	}
	f.endRow(true)
	f.newRow()
}

// newRow starts a row at the current column of the line, in the next
// slot of the ring; once keep rows are held the oldest, which could only
// be evicted, is dropped.
func (f *reflower) newRow() {
	if f.cn == f.keep {
		f.chead = (f.chead + 1) % len(f.crow)
		f.cn--
		f.cdrop++
	}
	n := len(f.crow)
	if f.cn == n {
		// Grow the ring, unrolling it.
		m := min(max(2*n, 8), f.keep)
		nr := make([]sbLine, m)
		ns := make([]int, m)
		for i := 0; i < n; i++ {
			nr[i] = f.crow[(f.chead+i)%n]
			ns[i] = f.cstart[(f.chead+i)%n]
		}
		f.crow, f.cstart, f.chead, n = nr, ns, 0, m
	}
	i := (f.chead + f.cn) % n
	f.cstart[i] = f.off
	f.b.begin(&f.crow[i], f.cols)
}

// endRow files the row being built.
func (f *reflower) endRow(wrapped bool) {
	f.b.finish(wrapped)
	f.cn++
}

// cellWalk walks the stored cells of a packed line.
type cellWalk struct {
	l     *sbLine
	ascii bool // one byte per cell, no metadata
	off   int  // byte offset of the next cell
	i     int  // index of the next cell
	col   int  // column of the next cell
	ri    int  // next style run
	st    Style
}

func (w *cellWalk) reset(l *sbLine) {
	*w = cellWalk{l: l, ascii: len(l.meta) == 0 && len(l.text) == int(l.width)}
}

// style brings w.st up to the cell at w.col.
func (w *cellWalk) style() {
	for w.ri < len(w.l.runs) && int(w.l.runs[w.ri].col) <= w.col {
		w.st = w.l.runs[w.ri].st
		w.ri++
	}
}

// next returns the next cell's text and width (its style is then w.st).
func (w *cellWalk) next() (text []byte, width int, ok bool) {
	l := w.l
	if w.off >= len(l.text) {
		return nil, 0, false
	}
	var n int
	switch {
	case len(l.meta) > 0:
		n, width = int(l.meta[w.i]>>2), int(l.meta[w.i]&3)
	case l.text[w.off] < utf8.RuneSelf:
		n, width = 1, 1
	default:
		_, n = utf8.DecodeRune(l.text[w.off:])
		width = 1
	}
	w.style()
	text = l.text[w.off : w.off+n]
	w.off += n
	w.i++
	w.col += width
	return text, width, true
}

// rowBuilder packs a row cell by cell, in the format pack produces, into
// a line's buffers.
type rowBuilder struct {
	l      *sbLine
	col    int
	used   int
	simple bool // no metadata needed so far
	st     Style
}

func (b *rowBuilder) begin(l *sbLine, cols int) {
	if cap(l.text) < cols {
		l.text = make([]byte, 0, (cols+31)&^31)
	}
	l.text, l.meta, l.runs = l.text[:0], l.meta[:0], l.runs[:0]
	*b = rowBuilder{l: l, simple: true}
}

func (b *rowBuilder) setStyle(st Style) {
	if st != b.st {
		b.l.runs = append(b.l.runs, styleRun{col: uint16(b.col), st: st})
		b.st = st
	}
}

// put adds one cell; written is false for erased cells after the text.
func (b *rowBuilder) put(text []byte, width int, st Style, written bool) {
	b.setStyle(st)
	plain := width == 1 && (len(text) == 1 || utf8.RuneLen(firstRune(text)) == len(text))
	if b.simple && !plain {
		b.simple = false
		if cap(b.l.meta) < cap(b.l.text) {
			b.l.meta = make([]uint8, 0, cap(b.l.text))
		}
		for _, r := range string(b.l.text) {
			b.l.meta = append(b.l.meta, uint8(utf8.RuneLen(r))<<2|1)
		}
	}
	b.l.text = append(b.l.text, text...)
	if !b.simple {
		b.l.meta = append(b.l.meta, uint8(len(text))<<2|uint8(width))
	}
	b.col += width
	if written {
		b.used = b.col
	}
}

// putASCII adds written one-byte cells in one style.
func (b *rowBuilder) putASCII(text []byte, st Style) {
	b.setStyle(st)
	b.l.text = append(b.l.text, text...)
	if !b.simple {
		for range text {
			b.l.meta = append(b.l.meta, 1<<2|1)
		}
	}
	b.col += len(text)
	b.used = b.col
}

func (b *rowBuilder) finish(wrapped bool) {
	l := b.l
	if b.simple {
		l.meta = l.meta[:0]
	}
	l.used, l.width, l.wrapped = uint16(b.used), uint16(b.col), wrapped
	b.l = nil
}
