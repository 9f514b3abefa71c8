package shot

import (
	"fmt"
	"io"
	"strings"
)

// renderHTML writes a standalone page: the frame is a figure, the title
// its caption, the cells a <pre> of spans. The page allows no scripts and
// loads nothing (its Content-Security-Policy), and pane text is only ever
// element content, escaped.
func renderHTML(w io.Writer, p Picture) (Result, error) {
	t := xmlText(title(p))
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n")
	b.WriteString(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` + "\n")
	fmt.Fprintf(&b, "<title>%s</title>\n", t)
	fmt.Fprintf(&b, "<style>body{margin:16px;background:#fff}figure{display:inline-block;margin:0;border:1px solid %s;border-radius:4px;background:%s}"+
		"figcaption{padding:3px 8px;color:%s;font:13px %s}pre{margin:0;padding:8px;color:%s;background:%s;font:13px/16px %s}"+
		"hr{border:0;border-top:1px dashed %s;margin:0}</style>\n</head><body>\n",
		hex(frameLine), hex(frameBg), hex(titleColour), svgFont, hex(defaultFg), hex(defaultBg), svgFont, hex(frameLine))
	fmt.Fprintf(&b, "<figure><figcaption>%s</figcaption><pre>", t)
	for y, row := range p.Rows {
		if y == p.History && y > 0 {
			b.WriteString(`<hr>`)
		} else if y > 0 {
			b.WriteByte('\n')
		}
		for _, r := range runs(row, p.Cols) {
			if s := css(r.style); s != "" {
				fmt.Fprintf(&b, `<span style="%s">%s</span>`, s, xmlText(r.text))
			} else {
				b.WriteString(xmlText(r.text))
			}
		}
	}
	b.WriteString("</pre></figure>\n</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return Result{Width: p.Cols, Height: len(p.Rows), Unit: "cells"}, err
}
