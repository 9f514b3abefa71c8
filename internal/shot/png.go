package shot

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"unicode/utf8"

	"github.com/tuios/tuios/vt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
	"golang.org/x/text/unicode/norm"
)

// The PNG's geometry, in pixels: Go Mono's 9×19 cells at 15 px
// (font.go), a one-pixel border, a title bar one text line high plus
// margins, and padding between the frame and the cells.
const (
	cellW       = 9
	cellH       = 19
	frameBorder = 1
	framePad    = 8
	titleH      = cellH + 6
)

// canvas is a PNG being drawn, with what could not be drawn.
type canvas struct {
	img     *image.RGBA
	faces   *faces
	z       *vector.Rasterizer // for shapes (shapes.go), made on first use
	missing int
	first   string // the first character drawn as a box
}

func renderPNG(w io.Writer, p Picture) (Result, error) {
	W, H := PNGSize(p.Cols, len(p.Rows))
	if W*H > MaxPixels {
		return Result{}, fmt.Errorf("a %d×%d-cell PNG would be %d×%d pixels, over the %d-megapixel bound: take fewer history lines or a text format", p.Cols, len(p.Rows), W, H, MaxPixels>>20)
	}
	fc, err := newFaces()
	if err != nil {
		return Result{}, err
	}
	cv := &canvas{img: image.NewRGBA(image.Rect(0, 0, W, H)), faces: fc}
	cv.frame(p, W, H)
	ox, oy := frameBorder+framePad, frameBorder+titleH+framePad
	for y, row := range p.Rows {
		// Backgrounds first: a wide character's glyph spans the next
		// cell, whose background must not cover it.
		for x := 0; x < p.Cols; x++ {
			_, bg := colours(cellAt(row, x).Style)
			fill(cv.img, image.Rect(ox+x*cellW, oy+y*cellH, ox+(x+1)*cellW, oy+(y+1)*cellH), bg)
		}
		for x := 0; x < p.Cols; x++ {
			cv.cell(cellAt(row, x), x, p.Cols, ox+x*cellW, oy+y*cellH)
		}
	}
	if p.History > 0 && p.History < len(p.Rows) {
		// A dotted line where the screen starts.
		yy := oy + p.History*cellH - 1
		for x := ox; x < ox+p.Cols*cellW; x += 2 {
			cv.img.SetRGBA(x, yy, frameLine)
		}
	}
	res := Result{Width: W, Height: H, Unit: "px"}
	if cv.missing > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d character(s) have no glyph in the PNG font (Go Mono) and are drawn as boxes, the first %q; --format svg or html keeps them", cv.missing, cv.first))
	}
	return res, png.Encode(w, cv.img)
}

// frame draws the window around the cells: the border, the title bar with
// the title, and the pane's background.
func (cv *canvas) frame(p Picture, W, H int) {
	fill(cv.img, image.Rect(0, 0, W, H), frameLine)
	fill(cv.img, image.Rect(frameBorder, frameBorder, W-frameBorder, frameBorder+titleH-1), frameBg)
	fill(cv.img, image.Rect(frameBorder, frameBorder+titleH, W-frameBorder, H-frameBorder), defaultBg)
	t := title(p)
	x, y := frameBorder+framePad, frameBorder+(titleH-1-cellH)/2
	room := (W - 2*x) / cellW
	n := 0
	for _, r := range t {
		if n == room {
			break
		}
		cv.text(string(r), x+n*cellW, y, 1, titleColour, true)
		n++
	}
}

// cell draws one cell's glyph and lines at pixel (px, py), over its
// background.
func (cv *canvas) cell(c vt.Cell, x, cols, px, py int) {
	fg, _ := colours(c.Style)
	w := 1
	if c.Width == 2 && x+1 < cols {
		w = 2
	}
	if c.Width == 0 {
		return // the second column of a wide character: drawn with the first
	}
	a := c.Style.Attrs
	if a&vt.AttrInvisible == 0 {
		cv.text(glyph(c), px, py, w, fg, a&vt.AttrBold != 0)
	}
	right := px + w*cellW
	switch {
	case a&vt.AttrDoubleUnderline != 0:
		fill(cv.img, image.Rect(px, py+cellH-3, right, py+cellH-2), fg)
		fill(cv.img, image.Rect(px, py+cellH-1, right, py+cellH), fg)
	case a&(vt.AttrUnderline|vt.AttrCurlyUnderline) != 0:
		fill(cv.img, image.Rect(px, py+cellH-1, right, py+cellH), fg)
	}
	if a&vt.AttrStrike != 0 {
		fill(cv.img, image.Rect(px, py+cellH/2, right, py+cellH/2+1), fg)
	}
}

// text draws one cluster in a w-cell box at (px, py): box-drawing and
// block characters as lines and blocks (boxdraw.go), what Go Mono has in
// Go Mono (bold in Go Mono Bold), the agent glyphs it lacks as shapes
// (shapes.go), and anything else as a hollow box, counted in the
// warnings. A cluster of a base and combining marks draws each mark over
// the base.
func (cv *canvas) text(s string, px, py, w int, fg color.RGBA, bold bool) {
	if s == " " {
		return
	}
	r, size := utf8.DecodeRuneInString(s)
	if size == len(s) {
		switch {
		case boxOrBlock(cv.img, r, px, py, fg):
			return
		case cv.faces.has(r):
			cv.glyph(r, px, py, w, fg, bold)
			return
		case cv.shape(r, px, py, w, fg):
			return
		}
	} else if cv.cluster(s, px, py, w, fg, bold) {
		return
	}
	cv.missing++
	if cv.first == "" {
		cv.first = s
	}
	box := image.Rect(px+1, py+3, px+w*cellW-1, py+ascent+1)
	fill(cv.img, image.Rect(box.Min.X, box.Min.Y, box.Max.X, box.Min.Y+1), fg)
	fill(cv.img, image.Rect(box.Min.X, box.Max.Y-1, box.Max.X, box.Max.Y), fg)
	fill(cv.img, image.Rect(box.Min.X, box.Min.Y, box.Min.X+1, box.Max.Y), fg)
	fill(cv.img, image.Rect(box.Max.X-1, box.Min.Y, box.Max.X, box.Max.Y), fg)
}

// glyph draws one of Go Mono's glyphs, antialiased, centred in its box
// (a wide cell holds a narrow glyph in its middle).
func (cv *canvas) glyph(r rune, px, py, w int, fg color.RGBA, bold bool) {
	face := cv.faces.regular
	if bold {
		face = cv.faces.bold
	}
	x := px + (w-1)*cellW/2
	dr, mask, mp, _, ok := face.Glyph(fixed.P(x, py+ascent), r)
	if ok {
		draw.DrawMask(cv.img, dr, image.NewUniform(fg), image.Point{}, mask, mp, draw.Over)
	}
}

// cluster draws a base character and the combining marks after it (an
// accented letter typed as e and U+0301): composed (NFC) when Unicode
// has the precomposed letter, which Go Mono draws whole; else each part,
// when Go Mono has them all, a mark (no advance of its own) drawn where
// the base ends, over it. It says whether it drew.
func (cv *canvas) cluster(s string, px, py, w int, fg color.RGBA, bold bool) bool {
	if c := norm.NFC.String(s); c != s {
		if r, size := utf8.DecodeRuneInString(c); size == len(c) && cv.faces.has(r) {
			cv.glyph(r, px, py, w, fg, bold)
			return true
		}
		s = c
	}
	rs := []rune(s)
	for _, r := range rs {
		if !cv.faces.has(r) {
			return false
		}
	}
	face := cv.faces.regular
	if bold {
		face = cv.faces.bold
	}
	x := fixed.I(px + (w-1)*cellW/2)
	for i, r := range rs {
		adv, _ := face.GlyphAdvance(r)
		if i > 0 && adv != 0 {
			return i > 0 // a second base: the cell holds one character; the rest is not drawn
		}
		dr, mask, mp, _, ok := face.Glyph(fixed.Point26_6{X: x, Y: fixed.I(py + ascent)}, r)
		if ok {
			draw.DrawMask(cv.img, dr, image.NewUniform(fg), image.Point{}, mask, mp, draw.Over)
		}
		x += adv
	}
	return true
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r.Intersect(img.Rect), image.NewUniform(c), image.Point{}, draw.Src)
}
