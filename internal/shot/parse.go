package shot

import (
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
	"github.com/clipperhouse/uax29/v2/graphemes"
	"github.com/tuios/tuios/vt"
)

// widths measures clusters the way vt does (East Asian ambiguous
// characters one cell wide), so a parsed row lines up with the pane.
var widths = displaywidth.Options{EastAsianWidth: false}

// maxSeq bounds one escape sequence: a longer one is skipped unread, so a
// hostile capture cannot make the parser hold an unbounded parameter list.
const (
	maxSeq    = 256
	maxParams = 32
)

// ParseANSI reads a styled capture — lines separated by "\n", styled with
// SGR sequences, as vt.Screen.Capture with ANSI writes it — into rows of
// exactly cols cells (at most maxRows rows; cols is clamped to
// vt.MaxCols). SGR sequences set the style of the text after them (each
// line starts in the default style); every other escape sequence and
// every control character is dropped, a tab moves to the next multiple of
// eight. Text past the last column is cut, a wide character that does not
// fit is dropped, and short rows are padded with blank default cells.
func ParseANSI(text string, cols, maxRows int) [][]vt.Cell {
	cols = min(max(cols, 1), vt.MaxCols)
	var rows [][]vt.Cell
	for len(rows) < maxRows {
		line, rest, more := strings.Cut(text, "\n")
		rows = append(rows, parseLine(line, cols))
		if !more {
			break
		}
		text = rest
	}
	return rows
}

// parseLine reads one line into a row of cols cells.
func parseLine(line string, cols int) []vt.Cell {
	row := make([]vt.Cell, 0, cols)
	var st vt.Style
	put := func(content string, w int) {
		if len(row)+w > cols {
			return
		}
		row = append(row, vt.Cell{Content: content, Width: w, Style: st})
		if w == 2 {
			row = append(row, vt.Cell{Content: "", Width: 0, Style: st})
		}
	}
	for i := 0; i < len(line); {
		b := line[i]
		switch {
		case b == 0x1b:
			i = skipEscape(line, i, &st)
		case b == '\t':
			for n := 8 - len(row)%8; n > 0 && len(row) < cols; n-- {
				put(" ", 1)
			}
			i++
		case b < 0x20 || b == 0x7f:
			i++
		default:
			end := i
			for end < len(line) && line[end] >= 0x20 && line[end] != 0x7f && line[end] != 0x1b {
				end++
			}
			addText(line[i:end], &row, put)
			i = end
		}
	}
	for len(row) < cols {
		row = append(row, vt.Cell{Content: " ", Width: 1})
	}
	return row[:cols]
}

// addText splits printable text into grapheme clusters and places them.
// A zero-width cluster (a combining mark with nothing before it on the
// line) joins the previous cell.
func addText(s string, row *[]vt.Cell, put func(string, int)) {
	it := graphemes.FromString(s)
	for it.Next() {
		cl := clean(it.Value())
		if cl == "" {
			continue
		}
		w := widths.String(cl)
		switch {
		case w <= 0:
			if r := *row; len(r) > 0 {
				last := len(r) - 1
				if r[last].Width == 0 && last > 0 {
					last--
				}
				if len(r[last].Content) < 64 {
					r[last].Content += cl
				}
			}
			continue
		case w > 2:
			w = 2
		}
		put(cl, w)
	}
}

// skipEscape reads the escape sequence at line[i] (line[i] is ESC),
// applies it to st when it is an SGR sequence, and returns the index after
// it. An unterminated sequence runs to the end of the line.
func skipEscape(line string, i int, st *vt.Style) int {
	if i+1 >= len(line) {
		return len(line)
	}
	switch line[i+1] {
	case '[':
		j := i + 2
		for j < len(line) && line[j] >= 0x20 && line[j] <= 0x3f { // parameters, intermediates
			j++
		}
		if j >= len(line) || line[j] < 0x40 || line[j] > 0x7e {
			return j // not a well-formed CSI: drop what was read
		}
		if line[j] == 'm' && j-(i+2) <= maxSeq {
			applySGR(st, line[i+2:j])
		}
		return j + 1
	case ']', 'P', '_', '^', 'X':
		// A string: up to BEL or ST (ESC \).
		for j := i + 2; j < len(line); j++ {
			if line[j] == 0x07 {
				return j + 1
			}
			if line[j] == 0x1b && j+1 < len(line) && line[j+1] == '\\' {
				return j + 2
			}
		}
		return len(line)
	}
	j := i + 1
	for j < len(line) && line[j] >= 0x20 && line[j] <= 0x2f { // intermediates
		j++
	}
	if j < len(line) && line[j] >= 0x30 && line[j] <= 0x7e {
		j++
	}
	return j
}

// sgrParam is one ';'-separated SGR parameter with its ':' sub-parameters.
type sgrParam []int

// applySGR applies the parameters of one SGR sequence (the bytes between
// "ESC [" and "m") to st. A private or malformed sequence changes nothing.
func applySGR(st *vt.Style, p string) {
	var params []sgrParam
	for _, grp := range strings.Split(p, ";") {
		if len(params) == maxParams {
			break
		}
		var sp sgrParam
		for _, f := range strings.Split(grp, ":") {
			n := 0
			for k := 0; k < len(f); k++ {
				c := f[k]
				if c < '0' || c > '9' {
					return // a private or malformed sequence
				}
				if n < 1<<16 {
					n = n*10 + int(c-'0')
				}
			}
			sp = append(sp, n)
		}
		params = append(params, sp)
	}
	for i := 0; i < len(params); i++ {
		sp := params[i]
		switch n := sp[0]; {
		case n == 0:
			*st = vt.Style{}
		case n == 1:
			st.Attrs |= vt.AttrBold
		case n == 2:
			st.Attrs |= vt.AttrDim
		case n == 3:
			st.Attrs |= vt.AttrItalic
		case n == 4:
			st.Attrs &^= vt.AttrUnderline | vt.AttrDoubleUnderline | vt.AttrCurlyUnderline
			switch {
			case len(sp) < 2 || sp[1] == 1:
				st.Attrs |= vt.AttrUnderline
			case sp[1] == 0:
			case sp[1] == 2:
				st.Attrs |= vt.AttrDoubleUnderline
			case sp[1] == 3:
				st.Attrs |= vt.AttrCurlyUnderline
			default:
				st.Attrs |= vt.AttrUnderline
			}
		case n == 5 || n == 6:
			st.Attrs |= vt.AttrBlink
		case n == 7:
			st.Attrs |= vt.AttrReverse
		case n == 8:
			st.Attrs |= vt.AttrInvisible
		case n == 9:
			st.Attrs |= vt.AttrStrike
		case n == 21:
			st.Attrs |= vt.AttrDoubleUnderline
		case n == 22:
			st.Attrs &^= vt.AttrBold | vt.AttrDim
		case n == 23:
			st.Attrs &^= vt.AttrItalic
		case n == 24:
			st.Attrs &^= vt.AttrUnderline | vt.AttrDoubleUnderline | vt.AttrCurlyUnderline
		case n == 25:
			st.Attrs &^= vt.AttrBlink
		case n == 27:
			st.Attrs &^= vt.AttrReverse
		case n == 28:
			st.Attrs &^= vt.AttrInvisible
		case n == 29:
			st.Attrs &^= vt.AttrStrike
		case n >= 30 && n <= 37:
			st.Fg = vt.IndexColor(uint8(n - 30))
		case n == 39:
			st.Fg = 0
		case n >= 40 && n <= 47:
			st.Bg = vt.IndexColor(uint8(n - 40))
		case n == 49:
			st.Bg = 0
		case n >= 90 && n <= 97:
			st.Fg = vt.IndexColor(uint8(n - 90 + 8))
		case n >= 100 && n <= 107:
			st.Bg = vt.IndexColor(uint8(n - 100 + 8))
		case n == 38 || n == 48 || n == 58:
			var c vt.Color
			var ok bool
			if len(sp) > 1 { // 38:5:n, 38:2:r:g:b, 38:2:cs:r:g:b
				c, ok = extColor(sp[1:], len(sp) == 6)
			} else { // 38;5;n, 38;2;r;g;b: the next parameters
				var args []int
				for _, q := range params[i+1:] {
					args = append(args, q[0])
				}
				var used int
				c, ok, used = extColorSemi(args)
				i += used
			}
			if !ok {
				continue
			}
			switch n {
			case 38:
				st.Fg = c
			case 48:
				st.Bg = c
			}
		}
	}
}

// extColor reads colon sub-parameters after 38/48/58; withSpace says an
// RGB colour carries a colour-space id before r:g:b.
func extColor(a []int, withSpace bool) (vt.Color, bool) {
	switch {
	case len(a) >= 2 && a[0] == 5:
		return vt.IndexColor(clamp8(a[1])), true
	case a[0] == 2 && withSpace:
		return vt.RGBColor(clamp8(a[2]), clamp8(a[3]), clamp8(a[4])), true
	case len(a) >= 4 && a[0] == 2:
		return vt.RGBColor(clamp8(a[1]), clamp8(a[2]), clamp8(a[3])), true
	}
	return 0, false
}

// extColorSemi reads the ';'-separated arguments after 38/48/58 and says
// how many it used.
func extColorSemi(a []int) (vt.Color, bool, int) {
	switch {
	case len(a) >= 2 && a[0] == 5:
		return vt.IndexColor(clamp8(a[1])), true, 2
	case len(a) >= 4 && a[0] == 2:
		return vt.RGBColor(clamp8(a[1]), clamp8(a[2]), clamp8(a[3])), true, 4
	}
	return 0, false, len(a)
}

func clamp8(v int) uint8 { return uint8(min(max(v, 0), 255)) }

// clean makes one cluster of pane text safe for every format: invalid
// UTF-8, controls (C0, DEL, C1), line and paragraph separators and
// non-characters become U+FFFD; bidirectional controls, which would
// reorder the text around them, are removed.
func clean(s string) string {
	ok := true
	for _, r := range s {
		if r == utf8.RuneError || bad(r) || bidi(r) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case bidi(r):
		case r == utf8.RuneError || bad(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func bad(r rune) bool {
	return r < 0x20 || r >= 0x7f && r < 0xa0 || r == 0x2028 || r == 0x2029 ||
		r >= 0xfdd0 && r <= 0xfdef || r&0xfffe == 0xfffe
}

func bidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}
