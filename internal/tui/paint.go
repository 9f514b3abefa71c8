package tui

import (
	"bytes"
	"image/color"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/vt"
)

// painter writes the cells of a frame that differ from what the terminal
// shows, and keeps track of what it shows: the cells, where its cursor
// is and which rendition is set. Colours are down-sampled to the
// terminal's profile (truecolor, 256, 16, none) and nothing else is
// changed: every attribute a pane's program set reaches the terminal.
//
// It does the little a multiplexer's client needs and no more: absolute
// cursor moves, one SGR sequence per change of rendition, erase to the
// end of a row that ends blank, and no scrolling tricks (with the rail
// beside the panes no row scrolls whole).
type painter struct {
	prof  colorprofile.Profile
	shown frame     // what the terminal shows
	x, y  int       // the terminal's cursor; x is -1 when not known
	pen   cellStyle // the rendition set on the terminal, down-sampled
	down  map[cellStyle]cellStyle
}

// maxStyles bounds the down-sampled styles kept: a program cycling through
// true colours would otherwise grow the map without end.
const maxStyles = 4096

func newPainter(p colorprofile.Profile) *painter {
	return &painter{prof: p, x: -1, down: map[cellStyle]cellStyle{}}
}

// clear appends what blanks a w×h terminal in the default rendition, and
// notes that it is blank.
func (p *painter) clear(b []byte, w, h int) []byte {
	p.shown.reset(w, h)
	p.pen = cellStyle{}
	p.x, p.y = 0, 0
	return append(b, "\x1b[m\x1b[H\x1b[2J"...)
}

// gapCells is the longest run of unchanged cells written through rather
// than jumped over: a cursor move costs about as many bytes.
const gapCells = 4

// paint appends what turns the terminal from what it shows into f. A
// frame of another size is painted whole on a cleared screen.
func (p *painter) paint(b []byte, f *frame) []byte {
	dirty := f.dirty // after a patch, only these rows may differ (patch.go)
	if f.w != p.shown.w || f.h != p.shown.h {
		b = p.clear(b, f.w, f.h)
		dirty = nil
	}
	w := f.w
	for y := 0; y < f.h; y++ {
		if dirty != nil && !dirty[y] {
			continue
		}
		row, old := f.row(y), p.shown.row(y)
		if sameCells(row, old) {
			continue
		}
		for x := 0; x < w; {
			if row[x] == old[x] {
				x++
				continue
			}
			if row[x].width == 0 && x > 0 {
				x-- // the right half of a wide character: from its left
			}
			if blankFrom(row, x) {
				b = p.move(b, x, y)
				b = p.style(b, cellStyle{})
				b = append(b, "\x1b[K"...)
				copy(old[x:], row[x:])
				break
			}
			b = p.move(b, x, y)
			for x < w {
				if row[x] == old[x] && unchangedRun(row, old, x) >= gapCells {
					break
				}
				c := row[x]
				if c.width == 0 {
					old[x] = c
					x++
					continue
				}
				if c.r != ' ' || p.blankShows(c.st) {
					b = p.style(b, c.st)
				}
				b = appendCellText(b, c.r, f.cl)
				old[x] = c
				if c.width == 2 && x+1 < w {
					old[x+1] = row[x+1]
				}
				x += int(c.width)
				p.x = x
				if c.r < 0 {
					// A cluster of several runes: a terminal that
					// measures it otherwise must not shift what follows.
					p.x = -1
				}
			}
			if p.x >= w {
				p.x = -1 // past the last column: the terminal's wrap is pending
			}
		}
	}
	return b
}

// move appends a cursor move to x,y, unless the cursor is there.
func (p *painter) move(b []byte, x, y int) []byte {
	if p.x == x && p.y == y {
		return b
	}
	p.x, p.y = x, y
	b = append(b, "\x1b["...)
	b = strconv.AppendInt(b, int64(y+1), 10)
	if x > 0 {
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(x+1), 10)
	}
	return append(b, 'H')
}

// cursor appends a move of the terminal's cursor to x,y (where the frame
// wants it shown).
func (p *painter) cursor(b []byte, x, y int) []byte { return p.move(b, x, y) }

// style appends what sets the rendition st, down-sampled, unless it is
// set: only what changes when nothing has to be turned off, else a reset
// and the whole rendition.
func (p *painter) style(b []byte, st cellStyle) []byte {
	d := p.downOf(st)
	if d == p.pen {
		return b
	}
	from := p.pen
	p.pen = d
	switch {
	case d == (cellStyle{}):
		return append(b, "\x1b[m"...)
	case from.attrs&^d.attrs != 0 || from.attrs&underlines != d.attrs&underlines && from.attrs&underlines != 0:
		return appendStyleSGR(b, d) // something to turn off: reset and set
	}
	b = append(b, "\x1b["...)
	start := len(b)
	sep := func() {
		if len(b) > start {
			b = append(b, ';')
		}
	}
	for _, a := range sgrAttrs {
		if d.attrs&a.a != 0 && from.attrs&a.a == 0 {
			sep()
			b = append(b, a.code...)
		}
	}
	for _, c := range [...]struct {
		from, to         vt.Color
		base, bright, ex string
		reset            string
	}{{from.fg, d.fg, "3", "9", "38", "39"}, {from.bg, d.bg, "4", "10", "48", "49"}, {from.ul, d.ul, "", "", "58", "59"}} {
		if c.from == c.to {
			continue
		}
		if c.to.IsDefault() {
			sep()
			b = append(b, c.reset...)
			continue
		}
		n := len(b)
		b = appendSGRColor(b, c.to, c.base, c.bright, c.ex)
		if n == start { // appendSGRColor leads with ';'
			b = append(b[:n], b[n+1:]...)
		}
	}
	return append(b, 'm')
}

// downOf is st down-sampled, remembered.
func (p *painter) downOf(st cellStyle) cellStyle {
	d, ok := p.down[st]
	if !ok {
		d = p.sample(st)
		if len(p.down) >= maxStyles {
			clear(p.down)
		}
		p.down[st] = d
	}
	return d
}

// blankShows reports whether a blank in style st would look any
// different drawn in the pen that is set: only its background shows,
// unless it is reversed or lined. A blank that looks the same is written
// without changing the pen (the gaps between coloured words).
func (p *painter) blankShows(st cellStyle) bool {
	const shows = vt.AttrReverse | vt.AttrStrike | underlines
	d := p.downOf(st)
	return d.bg != p.pen.bg || (d.attrs|p.pen.attrs)&shows != 0
}

// sample is st as the terminal can show it.
func (p *painter) sample(st cellStyle) cellStyle {
	switch p.prof {
	case colorprofile.TrueColor:
		return st
	case colorprofile.ANSI256, colorprofile.ANSI:
		st.fg, st.bg, st.ul = p.color(st.fg), p.color(st.bg), p.color(st.ul)
		return st
	case colorprofile.ASCII:
		st.fg, st.bg, st.ul = 0, 0, 0
		return st
	}
	return cellStyle{} // not a terminal: text only
}

// color is c in the 256 or 16 colours of the profile: the nearest one.
func (p *painter) color(c vt.Color) vt.Color {
	if c.IsDefault() {
		return c
	}
	if i, ok := c.Index(); ok {
		if i < 16 || p.prof == colorprofile.ANSI256 {
			return c
		}
		return vt.IndexColor(uint8(ansi.Convert16(ansi.IndexedColor(i))))
	}
	r, g, bl, _ := c.RGB()
	rgb := color.RGBA{R: r, G: g, B: bl, A: 0xff}
	if p.prof == colorprofile.ANSI256 {
		return vt.IndexColor(uint8(ansi.Convert256(rgb)))
	}
	return vt.IndexColor(uint8(ansi.Convert16(rgb)))
}

// appendCellText appends the text of a cell's rune.
func appendCellText(b []byte, r rune, cl *clusters) []byte {
	switch {
	case r >= ' ' && r < utf8.RuneSelf:
		return append(b, byte(r))
	case r > 0:
		return utf8.AppendRune(b, r)
	}
	return append(b, cl.text(r)...)
}

// sameCells compares two rows as memory: a row unchanged since the last
// frame is skipped at the cost of one comparison. (Equal cells can
// differ in their blank padding only in theory; that would cost a
// needless repaint of the row, never a wrong one.)
func sameCells(a, b []cell) bool {
	if len(a) != len(b) || len(a) == 0 {
		return len(a) == len(b)
	}
	size := int(unsafe.Sizeof(cell{}))
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), len(a)*size),
		unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b)*size))
}

// blankFrom reports whether the row is blank in the default rendition
// from x to its end.
func blankFrom(row []cell, x int) bool {
	for _, c := range row[x:] {
		if c != blank {
			return false
		}
	}
	return true
}

// unchangedRun counts the cells from x on that equal what is shown.
func unchangedRun(row, old []cell, x int) int {
	n := 0
	for x+n < len(row) && row[x+n] == old[x+n] && n < gapCells {
		n++
	}
	if x+n == len(row) {
		return gapCells // up to the end: nothing to write through to
	}
	return n
}
