package vt

import (
	"strconv"
)

// Color is a packed terminal colour. The zero value is the terminal's default
// colour; the top byte says which kind of colour the low bits hold, so a Style
// stays a small comparable value that can key a map.
type Color uint32

const (
	colorKindMask  Color = 0xff000000
	colorIndexKind Color = 0x01000000 // low byte: palette index 0–255
	colorRGBKind   Color = 0x02000000 // low 24 bits: 0xRRGGBB
)

// IndexColor returns the palette colour i (0–15 are the ANSI colours).
func IndexColor(i uint8) Color { return colorIndexKind | Color(i) }

// RGBColor returns a true colour.
func RGBColor(r, g, b uint8) Color {
	return colorRGBKind | Color(r)<<16 | Color(g)<<8 | Color(b)
}

// IsDefault reports whether c is the terminal's default colour.
func (c Color) IsDefault() bool { return c == 0 }

// Index returns the palette index and true when c is a palette colour.
func (c Color) Index() (uint8, bool) {
	return uint8(c), c&colorKindMask == colorIndexKind
}

// RGB returns the components and true when c is a true colour.
func (c Color) RGB() (r, g, b uint8, ok bool) {
	return uint8(c >> 16), uint8(c >> 8), uint8(c), c&colorKindMask == colorRGBKind
}

// Attr is a set of text attributes.
type Attr uint16

// Text attributes set by SGR.
const (
	AttrBold Attr = 1 << iota
	AttrDim
	AttrItalic
	AttrUnderline
	AttrBlink
	AttrReverse
	AttrInvisible
	AttrStrike
	AttrDoubleUnderline
	AttrCurlyUnderline
	AttrDottedUnderline
	AttrDashedUnderline
)

// underlineAttrs are the underline styles; a cell has at most one.
const underlineAttrs = AttrUnderline | AttrDoubleUnderline | AttrCurlyUnderline | AttrDottedUnderline | AttrDashedUnderline

// Style is the rendition of a cell. It is comparable; the zero value is the
// default rendition.
type Style struct {
	Fg, Bg Color
	Ul     Color // the underline colour (SGR 58); default: the text's
	Attrs  Attr
}

// applySGR updates st from the parameters of one SGR sequence.
func applySGR(st *Style, params []int, more []bool) {
	if len(params) == 0 {
		*st = Style{}
		return
	}
	for i := 0; i < len(params); i++ {
		p := params[i]
		switch {
		case p <= 0:
			*st = Style{}
		case p == 1:
			st.Attrs |= AttrBold
		case p == 2:
			st.Attrs |= AttrDim
		case p == 3:
			st.Attrs |= AttrItalic
		case p == 4:
			st.Attrs &^= underlineAttrs
			// 4:n selects an underline style; 4:0 turns underline off.
			if more[i] && i+1 < len(params) {
				i++
				switch params[i] {
				case 0:
				case 2:
					st.Attrs |= AttrDoubleUnderline
				case 3:
					st.Attrs |= AttrCurlyUnderline
				case 4:
					st.Attrs |= AttrDottedUnderline
				case 5:
					st.Attrs |= AttrDashedUnderline
				default:
					st.Attrs |= AttrUnderline
				}
				for more[i] && i+1 < len(params) {
					i++
				}
				continue
			}
			st.Attrs |= AttrUnderline
		case p == 5 || p == 6:
			st.Attrs |= AttrBlink
		case p == 7:
			st.Attrs |= AttrReverse
		case p == 8:
			st.Attrs |= AttrInvisible
		case p == 9:
			st.Attrs |= AttrStrike
		case p == 21:
			st.Attrs = st.Attrs&^underlineAttrs | AttrDoubleUnderline
		case p == 22:
			st.Attrs &^= AttrBold | AttrDim
		case p == 23:
			st.Attrs &^= AttrItalic
		case p == 24:
			st.Attrs &^= underlineAttrs
		case p == 25:
			st.Attrs &^= AttrBlink
		case p == 27:
			st.Attrs &^= AttrReverse
		case p == 28:
			st.Attrs &^= AttrInvisible
		case p == 29:
			st.Attrs &^= AttrStrike
		case p >= 30 && p <= 37:
			st.Fg = IndexColor(uint8(p - 30))
		case p == 38 || p == 48 || p == 58:
			c, n := extColor(params[i+1:], more[i])
			i += n
			switch p {
			case 38:
				st.Fg = c
			case 48:
				st.Bg = c
			case 58:
				st.Ul = c
			}
		case p == 39:
			st.Fg = 0
		case p >= 40 && p <= 47:
			st.Bg = IndexColor(uint8(p - 40))
		case p == 49:
			st.Bg = 0
		case p == 59:
			st.Ul = 0
		case p >= 90 && p <= 97:
			st.Fg = IndexColor(uint8(p - 90 + 8))
		case p >= 100 && p <= 107:
			st.Bg = IndexColor(uint8(p - 100 + 8))
		}
	}
}

// extColor decodes the arguments of SGR 38/48/58 (both the 38;5;n and the
// 38:2::r:g:b forms) and returns how many parameters it consumed.
func extColor(rest []int, colon bool) (Color, int) {
	if len(rest) == 0 {
		return 0, 0
	}
	clamp := func(v int) uint8 {
		if v < 0 {
			return 0
		}
		if v > 255 {
			return 255
		}
		return uint8(v)
	}
	switch rest[0] {
	case 5:
		if len(rest) < 2 {
			return 0, len(rest)
		}
		return IndexColor(clamp(rest[1])), 2
	case 2:
		// The colon form may carry a colour-space id before r:g:b.
		if colon && len(rest) >= 5 {
			return RGBColor(clamp(rest[2]), clamp(rest[3]), clamp(rest[4])), 5
		}
		if len(rest) < 4 {
			return 0, len(rest)
		}
		return RGBColor(clamp(rest[1]), clamp(rest[2]), clamp(rest[3])), 4
	}
	return 0, 1
}

// appendSGR appends the SGR sequence that sets st from the default rendition.
func appendSGR(b []byte, st Style) []byte {
	b = append(b, "\x1b[0"...)
	attrs := []struct {
		a Attr
		c string
	}{
		{AttrBold, "1"}, {AttrDim, "2"}, {AttrItalic, "3"}, {AttrUnderline, "4"},
		{AttrBlink, "5"}, {AttrReverse, "7"}, {AttrInvisible, "8"}, {AttrStrike, "9"},
		{AttrDoubleUnderline, "4:2"}, {AttrCurlyUnderline, "4:3"}, {AttrDottedUnderline, "4:4"}, {AttrDashedUnderline, "4:5"},
	}
	for _, a := range attrs {
		if st.Attrs&a.a != 0 {
			b = append(b, ';')
			b = append(b, a.c...)
		}
	}
	b = appendColor(b, st.Fg, 30, 90, 38)
	b = appendColor(b, st.Bg, 40, 100, 48)
	b = appendUlColor(b, st.Ul)
	return append(b, 'm')
}

func appendColor(b []byte, c Color, base, bright, ext int) []byte {
	if c == 0 {
		return b
	}
	if i, ok := c.Index(); ok {
		b = append(b, ';')
		switch {
		case i < 8:
			return strconv.AppendInt(b, int64(base+int(i)), 10)
		case i < 16:
			return strconv.AppendInt(b, int64(bright+int(i)-8), 10)
		}
		b = strconv.AppendInt(b, int64(ext), 10)
		b = append(b, ";5;"...)
		return strconv.AppendInt(b, int64(i), 10)
	}
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(ext), 10)
	b = append(b, ";2;"...)
	return appendRGB(b, c)
}

// appendRGB appends a true colour's r;g;b.
func appendRGB(b []byte, c Color) []byte {
	r, g, bl, _ := c.RGB()
	b = strconv.AppendInt(b, int64(r), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(g), 10)
	b = append(b, ';')
	return strconv.AppendInt(b, int64(bl), 10)
}

// appendUlColor appends the underline colour: 58 has no short forms, so a
// palette colour is 58;5;n whatever its index.
func appendUlColor(b []byte, c Color) []byte {
	if c == 0 {
		return b
	}
	if i, ok := c.Index(); ok {
		b = append(b, ";58;5;"...)
		return strconv.AppendInt(b, int64(i), 10)
	}
	b = append(b, ";58;2;"...)
	return appendRGB(b, c)
}
