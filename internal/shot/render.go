package shot

import (
	"fmt"
	"io"
	"strings"

	"github.com/tuios/tuios/vt"
)

// Format is an encoding a picture can be written in.
type Format string

// The five formats.
const (
	PNG  Format = "png"
	SVG  Format = "svg"
	ANSI Format = "ansi"
	HTML Format = "html"
	TXT  Format = "txt"
)

// Formats lists every format, in the order help text names them.
func Formats() []Format { return []Format{PNG, SVG, ANSI, HTML, TXT} }

// ParseFormat reads a format name (case-insensitive).
func ParseFormat(s string) (Format, bool) {
	for _, f := range Formats() {
		if strings.EqualFold(s, string(f)) {
			return f, true
		}
	}
	return "", false
}

// Picture is what is drawn: rows of cells (history first, then the
// screen) and the frame's title.
type Picture struct {
	// Title is shown in the frame (the pane's name; may be empty).
	Title string
	// Cols is the width in cells; a row shorter than Cols is drawn padded
	// with blanks, a longer one is cut.
	Cols int
	// Rows are the cells, top to bottom, as vt.Screen.Row or ParseANSI
	// returns them: a wide character is a cell of Width 2 followed by
	// one of Width 0.
	Rows [][]vt.Cell
	// History is how many of the first Rows are history above the screen;
	// a line marks where the screen starts.
	History int
}

// Result says what was written.
type Result struct {
	// Width and Height are the picture's size in Unit.
	Width, Height int
	// Unit is "px" for PNG and SVG and "cells" for the text formats (an
	// HTML page's size is the browser's font's).
	Unit string
	// Warnings say what could not be drawn faithfully.
	Warnings []string
}

// MaxPixels bounds a PNG (it is drawn in memory at 4 bytes a pixel).
const MaxPixels = 40 << 20

// Render writes p to w in format f.
func Render(w io.Writer, p Picture, f Format) (Result, error) {
	p.Cols = min(max(p.Cols, 1), vt.MaxCols)
	p.History = min(max(p.History, 0), len(p.Rows))
	switch f {
	case PNG:
		return renderPNG(w, p)
	case SVG:
		return renderSVG(w, p)
	case HTML:
		return renderHTML(w, p)
	case ANSI:
		return renderANSI(w, p)
	case TXT:
		return renderTXT(w, p)
	}
	return Result{}, fmt.Errorf("unknown format %q: take one of png, svg, ansi, html, txt", f)
}

// PNGSize is the size in pixels of a PNG of cols×rows cells, so a caller
// can keep it under MaxPixels before asking for history.
func PNGSize(cols, rows int) (w, h int) {
	return 2*frameBorder + 2*framePad + cols*cellW, 2*frameBorder + titleH + 2*framePad + rows*cellH
}

// cellAt is row r's cell at column x: a blank past the row's end.
func cellAt(r []vt.Cell, x int) vt.Cell {
	if x < len(r) {
		return r[x]
	}
	return vt.Cell{Content: " ", Width: 1}
}

// glyph is a cell's text as drawn: cleaned, and a blank for an empty
// first column.
func glyph(c vt.Cell) string {
	s := clean(c.Content)
	if s == "" {
		return " "
	}
	return s
}

// rowText is a row's plain text, wide characters' second columns skipped.
func rowText(r []vt.Cell, cols int) string {
	var b strings.Builder
	for x := 0; x < cols; x++ {
		c := cellAt(r, x)
		if c.Width == 0 {
			continue
		}
		b.WriteString(glyph(c))
	}
	return b.String()
}

// title is the frame's title made safe: controls escaped visibly on one
// line.
func title(p Picture) string {
	return strings.Join(strings.Fields(clean(p.Title)), " ")
}
