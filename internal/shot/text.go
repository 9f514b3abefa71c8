package shot

import (
	"io"
	"strconv"
	"strings"

	"github.com/tuios/tuios/vt"
)

// renderANSI writes the picture for a terminal (cat it): the cells with
// SGR sequences and nothing else, inside a frame of box-drawing
// characters with the title in its top edge, each row ending in a reset.
func renderANSI(w io.Writer, p Picture) (Result, error) {
	var b strings.Builder
	t := []rune(title(p))
	top := []rune(strings.Repeat("─", p.Cols))
	if len(t) > 0 && p.Cols >= 4 {
		label := []rune(" " + string(t[:min(len(t), p.Cols-3)]) + " ")
		if widths.String(string(label)) == len(label) { // a wide title would break the frame
			copy(top[1:], label)
		}
	}
	b.WriteString("╭" + string(top) + "╮\n")
	for y, row := range p.Rows {
		if y == p.History && y > 0 {
			b.WriteString("├" + strings.Repeat("╌", p.Cols) + "┤\n")
		}
		b.WriteString("│")
		var cur vt.Style
		for x := 0; x < p.Cols; x++ {
			c := cellAt(row, x)
			if c.Width == 0 {
				continue
			}
			if c.Style != cur {
				b.WriteString(sgr(c.Style))
				cur = c.Style
			}
			if c.Width == 2 && x+1 >= p.Cols {
				b.WriteString(" ")
				continue
			}
			b.WriteString(glyph(c))
		}
		if cur != (vt.Style{}) {
			b.WriteString("\x1b[0m")
		}
		b.WriteString("│\n")
	}
	b.WriteString("╰" + strings.Repeat("─", p.Cols) + "╯\n")
	_, err := io.WriteString(w, b.String())
	return Result{Width: p.Cols + 2, Height: len(p.Rows) + 2, Unit: "cells"}, err
}

// renderTXT writes the cells' text, rows right-trimmed, no frame.
func renderTXT(w io.Writer, p Picture) (Result, error) {
	var b strings.Builder
	for _, row := range p.Rows {
		b.WriteString(strings.TrimRight(rowText(row, p.Cols), " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return Result{Width: p.Cols, Height: len(p.Rows), Unit: "cells"}, err
}

// sgr is the SGR sequence that sets st from the default rendition.
func sgr(st vt.Style) string {
	b := []byte("\x1b[0")
	for _, a := range []struct {
		a vt.Attr
		c string
	}{
		{vt.AttrBold, "1"}, {vt.AttrDim, "2"}, {vt.AttrItalic, "3"}, {vt.AttrUnderline, "4"},
		{vt.AttrBlink, "5"}, {vt.AttrReverse, "7"}, {vt.AttrInvisible, "8"}, {vt.AttrStrike, "9"},
		{vt.AttrDoubleUnderline, "4:2"}, {vt.AttrCurlyUnderline, "4:3"},
	} {
		if st.Attrs&a.a != 0 {
			b = append(b, ';')
			b = append(b, a.c...)
		}
	}
	b = sgrColour(b, st.Fg, 30, 90, 38)
	b = sgrColour(b, st.Bg, 40, 100, 48)
	return string(append(b, 'm'))
}

func sgrColour(b []byte, c vt.Color, base, bright, ext int) []byte {
	if c.IsDefault() {
		return b
	}
	b = append(b, ';')
	if i, ok := c.Index(); ok {
		switch {
		case i < 8:
			return strconv.AppendInt(b, int64(base+int(i)), 10)
		case i < 16:
			return strconv.AppendInt(b, int64(bright+int(i)-8), 10)
		}
		return strconv.AppendInt(append(strconv.AppendInt(b, int64(ext), 10), ";5;"...), int64(i), 10)
	}
	r, g, bl, _ := c.RGB()
	b = append(strconv.AppendInt(b, int64(ext), 10), ";2;"...)
	b = append(strconv.AppendInt(b, int64(r), 10), ';')
	b = append(strconv.AppendInt(b, int64(g), 10), ';')
	return strconv.AppendInt(b, int64(bl), 10)
}
