package shot

import (
	"fmt"
	"io"
	"strings"

	"github.com/tuios/tuios/vt"
)

// The SVG's geometry: a cell is 8×16 units, the text 13 units high in the
// viewer's monospace font, each run stretched to its cells' width so the
// grid holds whatever font is used.
const (
	svgCellW  = 8
	svgCellH  = 16
	svgTitleH = 22
	svgPad    = 8
	svgFont   = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace"
)

// run is a stretch of a row's cells in one style.
type run struct {
	x, n  int // first column, cells
	text  string
	style vt.Style
}

// runs cuts a row into runs of one style; a wide character's second
// column belongs to its first.
func runs(row []vt.Cell, cols int) []run {
	var out []run
	for x := 0; x < cols; x++ {
		c := cellAt(row, x)
		if c.Width == 0 && len(out) > 0 {
			out[len(out)-1].n++
			continue
		}
		t := glyph(c)
		if c.Width == 0 {
			t = " "
		}
		if len(out) > 0 && out[len(out)-1].style == c.Style {
			out[len(out)-1].n++
			out[len(out)-1].text += t
			continue
		}
		out = append(out, run{x: x, n: 1, text: t, style: c.Style})
	}
	return out
}

// xmlText escapes s for XML and HTML text and attribute values.
func xmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;").Replace(s)
}

func renderSVG(w io.Writer, p Picture) (Result, error) {
	W := 2*svgPad + p.Cols*svgCellW
	H := svgTitleH + 2*svgPad + len(p.Rows)*svgCellH
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="%s" font-size="13">`+"\n", W, H, W, H, svgFont)
	fmt.Fprintf(&b, `<title>%s</title>`+"\n", xmlText(title(p)))
	fmt.Fprintf(&b, `<rect x="0.5" y="0.5" width="%d" height="%d" rx="4" fill="%s" stroke="%s"/>`+"\n", W-1, H-1, hex(frameBg), hex(frameLine))
	fmt.Fprintf(&b, `<rect x="1" y="%d" width="%d" height="%d" fill="%s"/>`+"\n", svgTitleH, W-2, H-svgTitleH-1, hex(defaultBg))
	fmt.Fprintf(&b, `<text x="%d" y="15" fill="%s" xml:space="preserve">%s</text>`+"\n", svgPad, hex(titleColour), xmlText(title(p)))
	ox, oy := svgPad, svgTitleH+svgPad
	for y, row := range p.Rows {
		top := oy + y*svgCellH
		for _, r := range runs(row, p.Cols) {
			fg, bg := colours(r.style)
			if bg != defaultBg {
				fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`+"\n", ox+r.x*svgCellW, top, r.n*svgCellW, svgCellH, hex(bg))
			}
			if r.style.Attrs&vt.AttrInvisible != 0 || strings.TrimLeft(r.text, " ") == "" && !underlined(r.style) {
				continue
			}
			fmt.Fprintf(&b, `<text x="%d" y="%d" textLength="%d" lengthAdjust="spacingAndGlyphs" fill="%s"%s xml:space="preserve">%s</text>`+"\n",
				ox+r.x*svgCellW, top+12, r.n*svgCellW, hex(fg), svgAttrs(r.style), xmlText(r.text))
		}
	}
	if p.History > 0 && p.History < len(p.Rows) {
		yy := oy + p.History*svgCellH
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-dasharray="2 2"/>`+"\n", ox, yy, ox+p.Cols*svgCellW, yy, hex(frameLine))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return Result{Width: W, Height: H, Unit: "px"}, err
}

func underlined(st vt.Style) bool {
	return st.Attrs&(vt.AttrUnderline|vt.AttrDoubleUnderline|vt.AttrCurlyUnderline|vt.AttrStrike) != 0
}

// svgAttrs is a run's weight, slant and lines as SVG attributes.
func svgAttrs(st vt.Style) string {
	var b strings.Builder
	if st.Attrs&vt.AttrBold != 0 {
		b.WriteString(` font-weight="bold"`)
	}
	if st.Attrs&vt.AttrItalic != 0 {
		b.WriteString(` font-style="italic"`)
	}
	if d := decoration(st); d != "" {
		fmt.Fprintf(&b, ` text-decoration="%s"`, d)
	}
	return b.String()
}

// decoration is a style's lines as a CSS text-decoration value.
func decoration(st vt.Style) string {
	var d []string
	if st.Attrs&(vt.AttrUnderline|vt.AttrDoubleUnderline|vt.AttrCurlyUnderline) != 0 {
		d = append(d, "underline")
	}
	if st.Attrs&vt.AttrStrike != 0 {
		d = append(d, "line-through")
	}
	return strings.Join(d, " ")
}

// css is a run's style as a CSS declaration list; every value is one the
// renderer formats itself.
func css(st vt.Style) string {
	fg, bg := colours(st)
	var d []string
	if fg != defaultFg {
		d = append(d, "color:"+hex(fg))
	}
	if bg != defaultBg {
		d = append(d, "background:"+hex(bg))
	}
	if st.Attrs&vt.AttrBold != 0 {
		d = append(d, "font-weight:bold")
	}
	if st.Attrs&vt.AttrItalic != 0 {
		d = append(d, "font-style:italic")
	}
	if t := decoration(st); t != "" {
		d = append(d, "text-decoration:"+t)
	}
	if st.Attrs&vt.AttrInvisible != 0 {
		d = append(d, "visibility:hidden")
	}
	return strings.Join(d, ";")
}
