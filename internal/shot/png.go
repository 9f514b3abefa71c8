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
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// The PNG's geometry, in pixels: basicfont's 7×13 cells, a one-pixel
// border, a title bar one text line high plus margins, and padding
// between the frame and the cells.
const (
	cellW       = 7
	cellH       = 13
	frameBorder = 1
	framePad    = 6
	titleH      = cellH + 6
)

// canvas is a PNG being drawn, with what could not be drawn.
type canvas struct {
	img     *image.RGBA
	missing int
	first   string // the first character drawn as a box
}

func renderPNG(w io.Writer, p Picture) (Result, error) {
	W, H := PNGSize(p.Cols, len(p.Rows))
	if W*H > MaxPixels {
		return Result{}, fmt.Errorf("a %d×%d-cell PNG would be %d×%d pixels, over the %d-megapixel bound: take fewer history lines or a text format", p.Cols, len(p.Rows), W, H, MaxPixels>>20)
	}
	cv := &canvas{img: image.NewRGBA(image.Rect(0, 0, W, H))}
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
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d character(s) have no glyph in the PNG font (ASCII only) and are drawn as boxes, the first %q; --format svg or html keeps them", cv.missing, cv.first))
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
		cv.text(string(r), x+n*cellW, y, 1, titleColour, false)
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

// text draws one cluster in a w-cell box at (px, py): a basicfont glyph
// for printable ASCII, a line drawing for box and block characters, and a
// hollow box for anything else.
func (cv *canvas) text(s string, px, py, w int, fg color.RGBA, bold bool) {
	if s == " " {
		return
	}
	r, size := utf8.DecodeRuneInString(s)
	if size == len(s) {
		switch {
		case r > 0x20 && r < 0x7f:
			face := basicfont.Face7x13
			src := image.NewUniform(fg)
			for i := range boolInt(bold) + 1 {
				dr, mask, mp, _, ok := face.Glyph(fixed.P(px+i, py+face.Ascent), r)
				if ok {
					draw.DrawMask(cv.img, dr, src, image.Point{}, mask, mp, draw.Over)
				}
			}
			return
		case boxOrBlock(cv.img, r, px, py, fg):
			return
		}
	}
	cv.missing++
	if cv.first == "" {
		cv.first = s
	}
	box := image.Rect(px+1, py+2, px+w*cellW-1, py+cellH-2)
	fill(cv.img, image.Rect(box.Min.X, box.Min.Y, box.Max.X, box.Min.Y+1), fg)
	fill(cv.img, image.Rect(box.Min.X, box.Max.Y-1, box.Max.X, box.Max.Y), fg)
	fill(cv.img, image.Rect(box.Min.X, box.Min.Y, box.Min.X+1, box.Max.Y), fg)
	fill(cv.img, image.Rect(box.Max.X-1, box.Min.Y, box.Max.X, box.Max.Y), fg)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r.Intersect(img.Rect), image.NewUniform(c), image.Point{}, draw.Src)
}
