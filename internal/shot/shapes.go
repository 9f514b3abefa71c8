package shot

import (
	"image"
	"image/color"
	"math"

	"golang.org/x/image/vector"
)

// Go Mono has no glyph for many of the characters agent CLIs draw their
// state with: Claude Code's spinner (· ✢ ✳ ✶ ✻ ✽), its ⏺ bullet, ⎿ tool
// lines and ❯ prompt, check and ballot marks (✓ ✔ ✗ ✘), braille
// spinners (⠋ ⠙ ⠹ …), Qwen's ◐ ◑ ◒ ◓, Gemini's ◇ and ✦, the small
// triangles of tree views (▶ ▸ ▾), ⚠ and ☐ ☑. Those are drawn here as
// antialiased shapes in the cell, the way box drawing and block elements
// are drawn as lines and blocks (boxdraw.go), so a screenshot of an agent
// reads as the terminal showed it.

// shapeBox is where a shape is drawn: its cell box and the centre and
// size of the text's x-height band, in pixels.
type shapeBox struct {
	w, h   float32 // the box (w cells wide)
	cx, cy float32 // the centre of a glyph
	r      float32 // half the size of a glyph that fills the band
	line   float32 // a stroke's width
}

// shape draws r in the w-cell box at (px, py) if it is one of the shapes
// here, and says whether it was.
func (cv *canvas) shape(r rune, px, py, w int, fg color.RGBA) bool {
	paint := shapeOf(r)
	if paint == nil {
		return false
	}
	bw := w * cellW
	b := shapeBox{w: float32(bw), h: cellH, cx: float32(bw) / 2, cy: ascent - 5.5, r: min(float32(bw)/2-0.3, 5), line: 1.3}
	if cv.z == nil {
		cv.z = vector.NewRasterizer(bw, cellH)
	} else {
		cv.z.Reset(bw, cellH)
	}
	paint(pen{cv.z}, b)
	cv.z.Draw(cv.img, image.Rect(px, py, px+bw, py+cellH), image.NewUniform(fg), image.Point{})
	return true
}

// shapeOf is the drawing for r, or nil.
func shapeOf(r rune) func(pen, shapeBox) {
	switch {
	case r >= 0x2800 && r <= 0x28ff:
		return func(p pen, b shapeBox) { p.braille(b, uint8(r-0x2800)) }
	}
	switch r {
	case '✓', '✔': // check marks
		return func(p pen, b shapeBox) {
			wd := b.line * map[bool]float32{true: 1.5, false: 1}[r == '✔']
			p.polyline(wd, b.cx-b.r, b.cy, b.cx-b.r*0.3, b.cy+b.r*0.75, b.cx+b.r, b.cy-b.r*0.9)
		}
	case '✗', '✘', '✕', '✖', '❌': // ballot and multiplication crosses
		return func(p pen, b shapeBox) {
			wd := b.line * map[bool]float32{true: 1.5, false: 1}[r == '✘' || r == '✖' || r == '❌']
			k := b.r * 0.85
			p.polyline(wd, b.cx-k, b.cy-k, b.cx+k, b.cy+k)
			p.polyline(wd, b.cx-k, b.cy+k, b.cx+k, b.cy-k)
		}
	case '❯', '›', '❭', '❱':
		return func(p pen, b shapeBox) {
			p.polyline(b.line*1.3, b.cx-b.r*0.5, b.cy-b.r, b.cx+b.r*0.5, b.cy, b.cx-b.r*0.5, b.cy+b.r)
		}
	case '❮', '‹', '❬', '❰':
		return func(p pen, b shapeBox) {
			p.polyline(b.line*1.3, b.cx+b.r*0.5, b.cy-b.r, b.cx-b.r*0.5, b.cy, b.cx+b.r*0.5, b.cy+b.r)
		}
	case '✢', '✣', '✤', '✥': // four teardrop-spoked asterisks
		return func(p pen, b shapeBox) { p.spokes(b, 4, 0, b.line*1.2) }
	case '✱', '✲': // heavy and open-centre asterisks
		return func(p pen, b shapeBox) { p.spokes(b, 6, math.Pi/2, b.line) }
	case '✳', '✻', '✼', '✽', '✾', '✺', '❋', '❊', '❉': // eight-spoked asterisks
		return func(p pen, b shapeBox) {
			p.spokes(b, 8, 0, b.line*map[bool]float32{true: 1.05, false: 0.8}[r == '✽' || r == '❋'])
		}
	case '✶': // six-pointed star
		return func(p pen, b shapeBox) { p.star(b, 6, 0.5, true, 1.15) }
	case '✴', '✷', '✸', '✹': // eight- and twelve-pointed stars
		n := map[bool]int{true: 12, false: 8}[r == '✹']
		return func(p pen, b shapeBox) { p.star(b, n, 0.5, true, 1.15) }
	case '✦': // four-pointed star
		return func(p pen, b shapeBox) { p.star(b, 4, 0.3, true, 1.2) }
	case '✧':
		return func(p pen, b shapeBox) { p.star(b, 4, 0.3, false, 1.2) }
	case '⏺', '⬤': // black circles, bigger than ●
		return func(p pen, b shapeBox) { p.disc(b.cx, b.cy, b.r*0.85, 1) }
	case '◯':
		return func(p pen, b shapeBox) { p.ring(b.cx, b.cy, b.r, b.line) }
	case '◉':
		return func(p pen, b shapeBox) {
			p.ring(b.cx, b.cy, b.r, b.line)
			p.disc(b.cx, b.cy, b.r*0.45, 1)
		}
	case '◐', '◑', '◒', '◓': // circles with the left, right, lower or upper half black
		start := map[rune]float64{'◐': math.Pi / 2, '◑': -math.Pi / 2, '◒': 0, '◓': math.Pi}[r]
		return func(p pen, b shapeBox) {
			p.ring(b.cx, b.cy, b.r, b.line)
			p.half(b.cx, b.cy, b.r, start)
		}
	case '◆', '◇': // diamonds
		return func(p pen, b shapeBox) {
			pts := []float32{b.cx, b.cy - b.r, b.cx + b.r*0.8, b.cy, b.cx, b.cy + b.r, b.cx - b.r*0.8, b.cy}
			if r == '◆' {
				p.fill(pts...)
			} else {
				p.closed(b.line, pts...)
			}
		}
	case '▶', '▸', '⏵', '⯈', '▹', '▷': // triangles
		return triangle(r, 0, r == '▸' || r == '▹', r == '▹' || r == '▷')
	case '▼', '▾', '⏷', '▿', '▽':
		return triangle(r, 1, r == '▾' || r == '▿', r == '▿' || r == '▽')
	case '◀', '◂', '⏴', '◃', '◁':
		return triangle(r, 2, r == '◂' || r == '◃', r == '◃' || r == '◁')
	case '▴', '△', '▵':
		return triangle(r, 3, r == '▴' || r == '▵', r == '△' || r == '▵')
	case '⚠': // a triangle with an exclamation mark
		return func(p pen, b shapeBox) {
			top, base, half := b.cy-b.r*1.3, b.cy+b.r*1.05, b.r*1.15
			p.closed(b.line, b.cx, top, b.cx+half, base, b.cx-half, base)
			p.polyline(b.line, b.cx, top+b.r*0.75, b.cx, base-b.r*0.75)
			p.disc(b.cx, base-b.r*0.35, b.line*0.6, 1)
		}
	case '☐', '☑', '☒': // ballot boxes
		return func(p pen, b shapeBox) {
			k := b.r * 0.9
			p.closed(b.line, b.cx-k, b.cy-k, b.cx+k, b.cy-k, b.cx+k, b.cy+k, b.cx-k, b.cy+k)
			switch r {
			case '☑':
				p.polyline(b.line, b.cx-k*0.6, b.cy, b.cx-k*0.15, b.cy+k*0.5, b.cx+k*0.6, b.cy-k*0.6)
			case '☒':
				p.polyline(b.line, b.cx-k*0.55, b.cy-k*0.55, b.cx+k*0.55, b.cy+k*0.55)
				p.polyline(b.line, b.cx-k*0.55, b.cy+k*0.55, b.cx+k*0.55, b.cy-k*0.55)
			}
		}
	case '⎿': // Claude Code's tool-result corner: down from the top, then right
		return func(p pen, b shapeBox) {
			x := b.w * 0.3
			p.polyline(b.line*0.8, x, 0, x, b.cy, b.w, b.cy)
		}
	case '⎯':
		return func(p pen, b shapeBox) { p.polyline(b.line*0.8, 0, b.cy, b.w, b.cy) }
	case '⋯':
		return func(p pen, b shapeBox) {
			for i := -1; i <= 1; i++ {
				p.disc(b.cx+float32(i)*b.w/3, b.cy, 0.9, 1)
			}
		}
	case '☰':
		return func(p pen, b shapeBox) {
			for i := -1; i <= 1; i++ {
				y := b.cy + float32(i)*b.r*0.7
				p.fill(b.cx-b.r, y-0.6, b.cx+b.r, y-0.6, b.cx+b.r, y+0.6, b.cx-b.r, y+0.6)
			}
		}
	case '⏸':
		return func(p pen, b shapeBox) {
			for _, x := range []float32{b.cx - b.r*0.45, b.cx + b.r*0.45} {
				p.fill(x-b.r*0.25, b.cy-b.r*0.8, x+b.r*0.25, b.cy-b.r*0.8, x+b.r*0.25, b.cy+b.r*0.8, x-b.r*0.25, b.cy+b.r*0.8)
			}
		}
	case '⏹':
		return func(p pen, b shapeBox) {
			k := b.r * 0.75
			p.fill(b.cx-k, b.cy-k, b.cx+k, b.cy-k, b.cx+k, b.cy+k, b.cx-k, b.cy+k)
		}
	case '⏲', '⏱': // timer clocks: a ring and two hands
		return func(p pen, b shapeBox) {
			p.ring(b.cx, b.cy, b.r, b.line)
			p.polyline(b.line*0.8, b.cx, b.cy-b.r*0.6, b.cx, b.cy, b.cx+b.r*0.45, b.cy+b.r*0.2)
		}
	case '⏳', '⌛': // hourglasses
		return func(p pen, b shapeBox) {
			k := b.r * 0.8
			p.closed(b.line, b.cx-k, b.cy-b.r, b.cx+k, b.cy-b.r, b.cx-k, b.cy+b.r, b.cx+k, b.cy+b.r)
		}
	}
	return nil
}

// triangle points right (0), down (1), left (2) or up (3); small ones
// are two thirds the size, outlined ones are not filled.
func triangle(_ rune, dir int, small, outline bool) func(pen, shapeBox) {
	return func(p pen, b shapeBox) {
		k := b.r
		if small {
			k *= 0.7
		}
		// Right-pointing, then turned.
		pts := [][2]float32{{-k * 0.8, -k}, {k * 0.9, 0}, {-k * 0.8, k}}
		flat := make([]float32, 0, 6)
		for _, q := range pts {
			x, y := q[0], q[1]
			switch dir {
			case 1:
				x, y = -y, x
			case 2:
				x = -x
			case 3:
				x, y = y, -x
			}
			flat = append(flat, b.cx+x, b.cy+y)
		}
		if outline {
			p.closed(b.line, flat...)
		} else {
			p.fill(flat...)
		}
	}
}

// pen draws paths on a rasterizer, in the box's pixels.
type pen struct{ z *vector.Rasterizer }

// fill adds the closed polygon through pts (x, y pairs).
func (p pen) fill(pts ...float32) {
	p.z.MoveTo(pts[0], pts[1])
	for i := 2; i+1 < len(pts); i += 2 {
		p.z.LineTo(pts[i], pts[i+1])
	}
	p.z.ClosePath()
}

// polyline strokes the open line through pts, w wide, with round joins.
func (p pen) polyline(w float32, pts ...float32) {
	for i := 0; i+3 < len(pts); i += 2 {
		p.segment(pts[i], pts[i+1], pts[i+2], pts[i+3], w)
	}
	for i := 0; i+1 < len(pts); i += 2 {
		p.disc(pts[i], pts[i+1], w/2, 1)
	}
}

// closed strokes the closed polygon through pts.
func (p pen) closed(w float32, pts ...float32) {
	p.polyline(w, append(pts, pts[0], pts[1])...)
}

// segment strokes one line w wide. It winds as disc(…, 1) does: the
// rasterizer adds coverage with its sign, so a joint's disc over a
// segment wound the other way would cut a hole.
func (p pen) segment(x0, y0, x1, y1, w float32) {
	dx, dy := x1-x0, y1-y0
	l := float32(math.Hypot(float64(dx), float64(dy)))
	if l == 0 {
		return
	}
	nx, ny := -dy/l*w/2, dx/l*w/2
	p.fill(x0-nx, y0-ny, x1-nx, y1-ny, x1+nx, y1+ny, x0+nx, y0+ny)
}

// disc adds a filled circle; dir 1 winds it one way, -1 the other (a
// hole in a disc wound the first way).
func (p pen) disc(cx, cy, r float32, dir float64) {
	const n = 24
	p.z.MoveTo(cx+r, cy)
	for i := 1; i < n; i++ {
		a := dir * 2 * math.Pi * float64(i) / n
		p.z.LineTo(cx+r*float32(math.Cos(a)), cy+r*float32(math.Sin(a)))
	}
	p.z.ClosePath()
}

// ring strokes a circle of radius r, w wide.
func (p pen) ring(cx, cy, r, w float32) {
	p.disc(cx, cy, r+w/2, 1)
	p.disc(cx, cy, r-w/2, -1)
}

// half fills the half of a circle from angle start, half a turn on.
func (p pen) half(cx, cy, r float32, start float64) {
	const n = 12
	p.z.MoveTo(cx, cy)
	for i := 0; i <= n; i++ {
		a := start + math.Pi*float64(i)/n
		p.z.LineTo(cx+r*float32(math.Cos(a)), cy+r*float32(math.Sin(a)))
	}
	p.z.ClosePath()
}

// spokes draws n spokes through the centre, the first at angle a0.
func (p pen) spokes(b shapeBox, n int, a0 float64, w float32) {
	for i := 0; i < n/2; i++ {
		a := a0 + math.Pi*float64(i)/float64(n/2)
		dx, dy := b.r*float32(math.Cos(a)), b.r*float32(math.Sin(a))
		p.polyline(w, b.cx-dx, b.cy-dy, b.cx+dx, b.cy+dy)
	}
}

// star draws an n-pointed star scale times the box's glyph size, whose
// inner radius is inner of the outer.
func (p pen) star(b shapeBox, n int, inner float32, filled bool, scale float32) {
	pts := make([]float32, 0, 4*n)
	for i := 0; i < 2*n; i++ {
		a := -math.Pi/2 + math.Pi*float64(i)/float64(n)
		r := b.r * scale
		if i%2 == 1 {
			r *= inner
		}
		pts = append(pts, b.cx+r*float32(math.Cos(a)), b.cy+r*float32(math.Sin(a)))
	}
	if filled {
		p.fill(pts...)
	} else {
		p.closed(b.line*0.8, pts...)
	}
}

// braille draws the dots of braille pattern bits: dots 1-3 down the left
// column, 4-6 down the right, 7 and 8 under them.
func (p pen) braille(b shapeBox, bits uint8) {
	col := [8]int{0, 0, 0, 1, 1, 1, 0, 1}
	row := [8]int{0, 1, 2, 0, 1, 2, 3, 3}
	dx := b.w / 2
	x0 := b.cx - dx/2
	dy := b.h / 4.6
	y0 := b.h/2 - 1.5*dy
	rad := min(dx, dy) * 0.36
	for i := 0; i < 8; i++ {
		if bits&(1<<i) != 0 {
			p.disc(x0+float32(col[i])*dx, y0+float32(row[i])*dy, rad, 1)
		}
	}
}
