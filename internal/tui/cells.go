package tui

import (
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
	"github.com/clipperhouse/uax29/v2/graphemes"
	"github.com/tuios/tuios/vt"
)

// The client composes each frame as cells, not as text: a pane's rows are
// turned into cells once, when they arrive, and copied into the frame;
// the chrome (title bars, rail, dock, overlays) is drawn as styled text
// and turned into cells once per distinct row (frame.go). The screen
// then writes only the cells that differ from the last frame.

// cellStyle is a cell's rendition: every SGR attribute a pane's program
// can set, colours packed as vt packs them (default, palette index, or
// RGB). It is comparable, so two cells compare with ==.
type cellStyle struct {
	fg, bg, ul vt.Color // ul: the underline colour
	attrs      vt.Attr
}

// cell is one column of a row. A wide character fills its own cell
// (width 2) and the next (width 0). A cell holds no pointer, so frames
// are copied and compared as plain memory and the collector never looks
// into them.
type cell struct {
	r     rune // the character, or a cluster of several (clusters)
	st    cellStyle
	width uint8
}

// blank is an empty cell in the default rendition.
var blank = cell{r: ' ', width: 1}

// clusters numbers the grapheme clusters of more than one rune (an
// accented letter written as two, an emoji sequence) that cells hold: a
// cell's r is -(n+1) for cluster n. The table only grows, up to
// maxClusters; past that a new cluster is drawn as its first rune.
type clusters struct {
	ids  map[string]rune
	strs []string
}

// maxClusters bounds the table: a pane printing endless distinct
// sequences cannot grow the client without end.
const maxClusters = 1 << 16

// rune is the cell rune for cluster s.
func (c *clusters) rune(s string) rune {
	r, size := utf8.DecodeRuneInString(s)
	if size == len(s) || c == nil {
		return r
	}
	if id, ok := c.ids[s]; ok {
		return id
	}
	if len(c.strs) >= maxClusters {
		return r
	}
	if c.ids == nil {
		c.ids = map[string]rune{}
	}
	id := -rune(len(c.strs)) - 1
	c.ids[s] = id
	c.strs = append(c.strs, s)
	return id
}

// asciiText holds the printable ASCII characters, so a cell's text is a
// slice of it rather than a new string.
const asciiText = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"

// text is the text of a cell's rune r.
func (c *clusters) text(r rune) string {
	switch {
	case r >= ' ' && r <= '~':
		return asciiText[r-' ' : r-' '+1]
	case r < 0:
		if c != nil && int(-r-1) < len(c.strs) {
			return c.strs[-r-1]
		}
		return " "
	case r == 0:
		return ""
	}
	return string(r)
}

// widthOpts measure a cluster as package vt does (East Asian ambiguous
// characters one cell wide), so a pane's row takes exactly the columns
// the daemon's screen gave it.
var widthOpts = displaywidth.Options{EastAsianWidth: false}

// drawStyled draws s, text with SGR sequences, into dst from its first
// cell, starting in style st, and returns the cells it filled and the
// style in effect where it stopped (at the end of s when it all fit). Text past
// the end of dst is dropped; a wide character that does not fit in the
// last cell leaves a blank there. Escape sequences other than SGR and
// control characters are dropped: pane text cannot move the cursor or
// change a mode through here.
func drawStyled(dst []cell, s string, st cellStyle, cls *clusters) (int, cellStyle) {
	n := 0
	for i := 0; i < len(s); {
		if n == len(dst) && s[i] != 0x1b {
			break
		}
		b := s[i]
		switch {
		case b == 0x1b:
			i = escape(s, i, &st)
		case b < 0x20 || b == 0x7f:
			i++
		case b < 0x80:
			dst[n] = cell{r: rune(b), st: st, width: 1}
			n++
			i++
		default:
			cl := graphemes.FromString(s[i:]).First()
			if cl == "" { // not valid UTF-8: one byte, drawn as nothing
				_, size := utf8.DecodeRuneInString(s[i:])
				i += max(size, 1)
				continue
			}
			i += len(cl)
			w := widthOpts.String(cl)
			switch {
			case w <= 0:
				continue // a lone mark or a format character takes no cell
			case w == 1:
				dst[n] = cell{r: cls.rune(cl), st: st, width: 1}
				n++
			case n+1 < len(dst):
				dst[n] = cell{r: cls.rune(cl), st: st, width: 2}
				dst[n+1] = cell{st: st}
				n += 2
			default:
				dst[n] = cell{r: ' ', st: st, width: 1}
				n++
			}
		}
	}
	return n, st
}

// escape skips the escape sequence at s[i] (an ESC), applying it to st
// when it is an SGR, and returns the index after it.
func escape(s string, i int, st *cellStyle) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch s[i+1] {
	case '[':
		j := i + 2
		for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
			j++
		}
		if j >= len(s) {
			return len(s)
		}
		if s[j] == 'm' {
			st.apply(s[i+2 : j])
		}
		return j + 1
	case ']', 'P', '_', '^', 'X':
		// A string: up to BEL or ST.
		for j := i + 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return i + 2
}

// maxSGRParams bounds the parameters read from one SGR sequence; more
// than a real program sends are ignored.
const maxSGRParams = 32

// apply updates st from the parameters of one SGR sequence ("1;38:5:208").
func (st *cellStyle) apply(params string) {
	var p [maxSGRParams]int
	var sub [maxSGRParams]bool // p[k] is followed by ':' (a sub-parameter)
	n := 0
	v, has := 0, false
	for k := 0; k <= len(params) && n < maxSGRParams; k++ {
		if k == len(params) || params[k] == ';' || params[k] == ':' {
			if !has {
				v = 0
			}
			p[n] = v
			sub[n] = k < len(params) && params[k] == ':'
			n++
			v, has = 0, false
			continue
		}
		if c := params[k]; c >= '0' && c <= '9' {
			if v < 1<<16 {
				v = v*10 + int(c-'0')
			}
			has = true
		}
	}
	for k := 0; k < n; k++ {
		switch c := p[k]; {
		case c == 0:
			*st = cellStyle{}
		case c == 1:
			st.attrs |= vt.AttrBold
		case c == 2:
			st.attrs |= vt.AttrDim
		case c == 3:
			st.attrs |= vt.AttrItalic
		case c == 4:
			st.attrs &^= underlines
			if sub[k] && k+1 < n {
				k++
				st.attrs |= underlineOf(p[k])
				for sub[k] && k+1 < n { // any further sub-parameters
					k++
				}
				continue
			}
			st.attrs |= vt.AttrUnderline
		case c == 5 || c == 6:
			st.attrs |= vt.AttrBlink
		case c == 7:
			st.attrs |= vt.AttrReverse
		case c == 8:
			st.attrs |= vt.AttrInvisible
		case c == 9:
			st.attrs |= vt.AttrStrike
		case c == 21:
			st.attrs = st.attrs&^underlines | vt.AttrDoubleUnderline
		case c == 22:
			st.attrs &^= vt.AttrBold | vt.AttrDim
		case c == 23:
			st.attrs &^= vt.AttrItalic
		case c == 24:
			st.attrs &^= underlines
		case c == 25:
			st.attrs &^= vt.AttrBlink
		case c == 27:
			st.attrs &^= vt.AttrReverse
		case c == 28:
			st.attrs &^= vt.AttrInvisible
		case c == 29:
			st.attrs &^= vt.AttrStrike
		case c >= 30 && c <= 37:
			st.fg = vt.IndexColor(uint8(c - 30))
		case c == 39:
			st.fg = 0
		case c >= 40 && c <= 47:
			st.bg = vt.IndexColor(uint8(c - 40))
		case c == 49:
			st.bg = 0
		case c == 59:
			st.ul = 0
		case c >= 90 && c <= 97:
			st.fg = vt.IndexColor(uint8(c - 90 + 8))
		case c >= 100 && c <= 107:
			st.bg = vt.IndexColor(uint8(c - 100 + 8))
		case c == 38 || c == 48 || c == 58:
			col, used := extColor(p[k+1:n], sub[k:n])
			k += used
			switch c {
			case 38:
				st.fg = col
			case 48:
				st.bg = col
			default:
				st.ul = col
			}
		}
	}
}

// underlines are the underline attributes, one of which a cell may have.
const underlines = vt.AttrUnderline | vt.AttrDoubleUnderline | vt.AttrCurlyUnderline | vt.AttrDottedUnderline | vt.AttrDashedUnderline

// underlineOf is the attribute of underline style n (SGR 4:n).
func underlineOf(n int) vt.Attr {
	switch n {
	case 0:
		return 0
	case 2:
		return vt.AttrDoubleUnderline
	case 3:
		return vt.AttrCurlyUnderline
	case 4:
		return vt.AttrDottedUnderline
	case 5:
		return vt.AttrDashedUnderline
	}
	return vt.AttrUnderline
}

// extColor reads the colour after 38, 48 or 58: "5;n", "2;r;g;b", or the
// colon forms "5:n", "2:r:g:b" and "2::r:g:b" (with a colour space id).
// sub[0] says whether the introducer was followed by a colon. It returns
// the colour and how many parameters it used.
func extColor(rest []int, sub []bool) (vt.Color, int) {
	if len(rest) == 0 {
		return 0, 0
	}
	colon := sub[0]
	clamp := func(v int) uint8 { return uint8(min(max(v, 0), 255)) }
	// In the colon form only the introducer's own group counts.
	group := len(rest)
	if colon {
		group = 1
		for group < len(rest) && sub[group] {
			group++
		}
	}
	switch rest[0] {
	case 5:
		if group < 2 {
			return 0, group
		}
		return vt.IndexColor(clamp(rest[1])), 2
	case 2:
		if colon && group >= 5 {
			return vt.RGBColor(clamp(rest[2]), clamp(rest[3]), clamp(rest[4])), group
		}
		if group < 4 {
			return 0, group
		}
		if colon {
			return vt.RGBColor(clamp(rest[1]), clamp(rest[2]), clamp(rest[3])), group
		}
		return vt.RGBColor(clamp(rest[1]), clamp(rest[2]), clamp(rest[3])), 4
	}
	if colon {
		return 0, group
	}
	return 0, 1
}
