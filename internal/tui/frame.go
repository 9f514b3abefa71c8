package tui

import (
	"strconv"

	"github.com/tuios/tuios/vt"
)

// frame is one picture of the whole outer terminal, as cells.
type frame struct {
	w, h  int
	cells []cell    // row by row
	cl    *clusters // what the cells' clusters are

	// holes are where the compose that drew the frame put pane rows, by
	// frame row, so that a change of those rows alone is patched in
	// (patch.go); recording is true while a compose draws.
	holes     [][]hole
	recording bool
	// dirty says which rows the last patch changed; nil after a full
	// compose, when any row may have.
	dirty []bool
}

// hole is one pane row as the frame's compose put it: the put's own
// arguments, and whether anything drawn after it covered any of it.
type hole struct {
	id      string // the window
	r       int    // the pane row
	x, w    int
	covered bool
}

// reset makes f w×h and blank.
func (f *frame) reset(w, h int) {
	w, h = max(w, 0), max(h, 0)
	f.w, f.h = w, h
	f.dirty = nil
	if cap(f.holes) < h {
		f.holes = make([][]hole, h)
	}
	f.holes = f.holes[:h]
	for y := range f.holes {
		f.holes[y] = f.holes[y][:0]
	}
	if cap(f.cells) < w*h {
		f.cells = make([]cell, w*h)
	}
	f.cells = f.cells[:w*h]
	if len(f.cells) == 0 {
		return
	}
	// One blank, then doubling copies: memory speed, not a loop of stores.
	f.cells[0] = blank
	for n := 1; n < len(f.cells); n *= 2 {
		copy(f.cells[n:], f.cells[:n])
	}
}

// row is row y's cells (nil when out of range).
func (f *frame) row(y int) []cell {
	if y < 0 || y >= f.h {
		return nil
	}
	return f.cells[y*f.w : (y+1)*f.w]
}

// put copies src into row y from column x, at most w cells, and fills the
// rest of the w with blanks in style pad. A wide character cut by the
// right edge becomes a blank, so nothing spills past x+w.
func (f *frame) put(x, y int, src []cell, w int, pad cellStyle) {
	r := f.row(y)
	if r == nil || x >= f.w || w <= 0 {
		return
	}
	if x < 0 {
		w += x
		if -x < len(src) {
			src = src[-x:]
		} else {
			src = nil
		}
		x = 0
	}
	w = min(w, f.w-x)
	if w <= 0 {
		return
	}
	dst := r[x : x+w]
	n := copy(dst, src)
	if n > 0 && dst[0].width == 0 { // the right half of a wide character cut by the left edge
		dst[0] = cell{r: ' ', st: dst[0].st, width: 1}
	}
	if n > 0 && dst[n-1].width == 2 {
		dst[n-1] = cell{r: ' ', st: dst[n-1].st, width: 1}
	}
	fill := cell{r: ' ', st: pad, width: 1}
	for i := n; i < w; i++ {
		dst[i] = fill
	}
	lo, hi := x, x+w // the cells this put changed
	// A wide character just left of x lost its right half.
	if x > 0 && r[x-1].width == 2 {
		r[x-1] = cell{r: ' ', st: r[x-1].st, width: 1}
		lo--
	}
	// And one whose left half this overwrote left an orphan.
	if end := x + w; end < f.w && r[end].width == 0 {
		r[end] = cell{r: ' ', st: r[end].st, width: 1}
		hi++
	}
	if f.recording {
		f.cover(y, lo, hi)
	}
}

// cover notes that cells [lo, hi) of row y were drawn over: a pane row
// put there before is no longer what shows.
func (f *frame) cover(y, lo, hi int) {
	if y >= len(f.holes) {
		return
	}
	for i := range f.holes[y] {
		h := &f.holes[y][i]
		if h.x < hi && lo < h.x+h.w {
			h.covered = true
		}
	}
}

// putPane is put for row r of window id's pane, recorded as a hole when
// a compose draws (patch.go).
func (f *frame) putPane(id string, r, x, y int, src []cell, w int) {
	f.put(x, y, src, w, cellStyle{})
	if f.recording && y >= 0 && y < len(f.holes) {
		f.holes[y] = append(f.holes[y], hole{id: id, r: r, x: x, w: w})
	}
}

// String is the frame as text with SGR sequences, one line per row, each
// styled row ending with a reset: what the old string renderer drew, so
// tests read frames as text.
func (f *frame) String() string {
	var b []byte
	for y := 0; y < f.h; y++ {
		if y > 0 {
			b = append(b, '\n')
		}
		b = appendCellsSGR(b, f.row(y), f.cl)
	}
	return string(b)
}

// appendCellsSGR appends cells as text with SGR sequences.
func appendCellsSGR(b []byte, cs []cell, cl *clusters) []byte {
	var cur cellStyle
	for _, c := range cs {
		if c.width == 0 {
			continue
		}
		if c.st != cur {
			b = appendStyleSGR(b, c.st)
			cur = c.st
		}
		b = append(b, cl.text(c.r)...)
	}
	if cur != (cellStyle{}) {
		b = append(b, "\x1b[m"...)
	}
	return b
}

// appendStyleSGR appends the SGR sequence that sets st from the default.
func appendStyleSGR(b []byte, st cellStyle) []byte {
	b = append(b, "\x1b[0"...)
	for _, a := range sgrAttrs {
		if st.attrs&a.a != 0 {
			b = append(b, ';')
			b = append(b, a.code...)
		}
	}
	b = appendSGRColor(b, st.fg, "3", "9", "38")
	b = appendSGRColor(b, st.bg, "4", "10", "48")
	b = appendSGRColor(b, st.ul, "", "", "58")
	return append(b, 'm')
}

var sgrAttrs = [...]struct {
	a    vt.Attr
	code string
}{
	{vt.AttrBold, "1"}, {vt.AttrDim, "2"}, {vt.AttrItalic, "3"}, {vt.AttrUnderline, "4"},
	{vt.AttrBlink, "5"}, {vt.AttrReverse, "7"}, {vt.AttrInvisible, "8"}, {vt.AttrStrike, "9"},
	{vt.AttrDoubleUnderline, "4:2"}, {vt.AttrCurlyUnderline, "4:3"}, {vt.AttrDottedUnderline, "4:4"}, {vt.AttrDashedUnderline, "4:5"},
}

func appendSGRColor(b []byte, c vt.Color, base, bright, ext string) []byte {
	if c.IsDefault() {
		return b
	}
	b = append(b, ';')
	if i, ok := c.Index(); ok {
		switch {
		case i < 8 && base != "":
			return strconv.AppendInt(append(b, base...), int64(i), 10)
		case i < 16 && bright != "":
			return strconv.AppendInt(append(b, bright...), int64(i-8), 10)
		}
		return strconv.AppendInt(append(b, ext+";5;"...), int64(i), 10)
	}
	r, g, bl, _ := c.RGB()
	b = append(b, ext+";2;"...)
	b = strconv.AppendInt(b, int64(r), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(g), 10)
	b = append(b, ';')
	return strconv.AppendInt(b, int64(bl), 10)
}

// parsed is one styled string as cells, and the style in effect at its
// end (what padding after it is drawn in).
type parsed struct {
	cells []cell
	end   cellStyle
}

// textCache keeps the cells of the styled strings drawn in the last two
// frames: the chrome is built as text every frame but mostly the same
// text, so each distinct row is parsed once.
type textCache struct {
	cur, prev map[string]parsed
	cl        *clusters
}

// turn starts a frame: what the frame before last drew and this one has
// not is dropped.
func (c *textCache) turn() {
	if c.cur == nil {
		c.cur, c.prev = map[string]parsed{}, map[string]parsed{}
	}
	c.prev, c.cur = c.cur, c.prev
	clear(c.cur)
}

// maxTextCells bounds the cells parsed from one string: no row is wider
// than the widest terminal the client takes.
const maxTextCells = 2048

func (c *textCache) get(s string) parsed {
	if p, ok := c.cur[s]; ok {
		return p
	}
	p, ok := c.prev[s]
	if !ok {
		buf := make([]cell, min(len(s), maxTextCells))
		n, end := drawStyled(buf, s, cellStyle{}, c.cl)
		p = parsed{cells: buf[:n:n], end: end}
	}
	if c.cur == nil {
		c.turn()
	}
	c.cur[s] = p
	return p
}

// text draws the styled string s in row y from column x, exactly w cells:
// cut, or padded in the style s ends in.
func (f *frame) text(c *textCache, x, y, w int, s string) {
	p := c.get(s)
	f.put(x, y, p.cells, w, p.end)
}
