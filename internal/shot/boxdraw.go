package shot

import (
	"image"
	"image/color"
)

// Line weights of a box-drawing arm.
const (
	none = iota
	light
	heavy
	double
)

// arms is a box-drawing character's four arms: up, right, down, left.
type arms [4]uint8

// boxArms maps U+2500–U+257F to their arms. Mixed-weight variants are
// drawn with the weight of their first arm's group, which reads right at
// 7×13 pixels; the diagonals (U+2571–2573) are not drawn.
func boxArms(r rune) (arms, bool) {
	h := func(wt uint8) arms { return arms{none, wt, none, wt} }
	v := func(wt uint8) arms { return arms{wt, none, wt, none} }
	// shape is a corner, tee or cross in its light form; heavy or double
	// replaces each of its arms.
	shape := func(a arms, wt uint8) arms {
		for i := range a {
			if a[i] != none {
				a[i] = wt
			}
		}
		return a
	}
	dr, dl, ur, ul := arms{0, 1, 1, 0}, arms{0, 0, 1, 1}, arms{1, 1, 0, 0}, arms{1, 0, 0, 1}
	vr, vl, dh, uh, cross := arms{1, 1, 1, 0}, arms{1, 0, 1, 1}, arms{0, 1, 1, 1}, arms{1, 1, 0, 1}, arms{1, 1, 1, 1}
	switch {
	case r == 0x2500 || r == 0x2504 || r == 0x2508 || r == 0x254c:
		return h(light), true
	case r == 0x2501 || r == 0x2505 || r == 0x2509 || r == 0x254d:
		return h(heavy), true
	case r == 0x2502 || r == 0x2506 || r == 0x250a || r == 0x254e:
		return v(light), true
	case r == 0x2503 || r == 0x2507 || r == 0x250b || r == 0x254f:
		return v(heavy), true
	case r >= 0x250c && r <= 0x251b: // corners, four of each
		base := [4]arms{dr, dl, ur, ul}[(r-0x250c)/4]
		if (r-0x250c)%4 == 3 {
			return shape(base, heavy), true
		}
		return base, true
	case r >= 0x251c && r <= 0x254b: // tees and crosses, eight of each (sixteen for the cross)
		i := int(r - 0x251c)
		switch {
		case i < 8:
			return shape(vr, weightOf(i, 7)), true
		case i < 16:
			return shape(vl, weightOf(i-8, 7)), true
		case i < 24:
			return shape(dh, weightOf(i-16, 7)), true
		case i < 32:
			return shape(uh, weightOf(i-24, 7)), true
		}
		return shape(cross, weightOf(i-32, 15)), true
	case r == 0x2550:
		return h(double), true
	case r == 0x2551:
		return v(double), true
	case r >= 0x2552 && r <= 0x256c: // double-line corners, tees, crosses: three of each
		base := [9]arms{dr, dl, ur, ul, vr, vl, dh, uh, cross}[(r-0x2552)/3]
		if (r-0x2552)%3 == 2 {
			return shape(base, double), true
		}
		return base, true
	case r >= 0x256d && r <= 0x2570: // rounded corners
		return [4]arms{dr, dl, ul, ur}[r-0x256d], true
	case r >= 0x2574 && r <= 0x257b: // half lines
		wt := uint8(light)
		if r >= 0x2578 {
			wt = heavy
		}
		var a arms
		a[[4]int{3, 0, 1, 2}[(r-0x2574)%4]] = wt
		return a, true
	case r >= 0x257c && r <= 0x257f:
		return [4]arms{{0, 2, 0, 1}, {1, 0, 2, 0}, {0, 1, 0, 2}, {2, 0, 1, 0}}[r-0x257c], true
	}
	return arms{}, false
}

// weightOf is light for the first variants of a group and heavy for its
// last (all-heavy) one.
func weightOf(i, last int) uint8 {
	if i == last {
		return heavy
	}
	return light
}

// boxOrBlock draws r in the cell at (px, py) if it is a box-drawing
// character or a block element, and says whether it was.
func boxOrBlock(img *image.RGBA, r rune, px, py int, fg color.RGBA) bool {
	if a, ok := boxArms(r); ok {
		drawArms(img, a, px, py, fg)
		return true
	}
	if r < 0x2580 || r > 0x259f {
		return false
	}
	cell := image.Rect(px, py, px+cellW, py+cellH)
	part := func(x0, y0, x1, y1 int) { // eighths of the cell
		fill(img, image.Rect(px+x0*cellW/8, py+y0*cellH/8, px+x1*cellW/8, py+y1*cellH/8), fg)
	}
	switch {
	case r == 0x2580:
		part(0, 0, 8, 4)
	case r >= 0x2581 && r <= 0x2588: // lower eighths to the full block
		part(0, 8-int(r-0x2580), 8, 8)
	case r >= 0x2589 && r <= 0x258f: // left seven eighths to one eighth
		part(0, 0, 8-int(r-0x2588), 8)
	case r == 0x2590:
		part(4, 0, 8, 8)
	case r >= 0x2591 && r <= 0x2593: // shades: a quarter, half, three quarters of fg
		n := int(r-0x2590) * 64
		for y := cell.Min.Y; y < cell.Max.Y; y++ {
			for x := cell.Min.X; x < cell.Max.X; x++ {
				if !image.Pt(x, y).In(img.Rect) {
					continue
				}
				bg := img.RGBAAt(x, y)
				img.SetRGBA(x, y, color.RGBA{blend(fg.R, bg.R, n), blend(fg.G, bg.G, n), blend(fg.B, bg.B, n), 0xff})
			}
		}
	case r == 0x2594:
		part(0, 0, 8, 1)
	case r == 0x2595:
		part(7, 0, 8, 8)
	default: // quadrants: bit 1 upper left, 2 upper right, 4 lower left, 8 lower right
		q := [10]uint8{4, 8, 1, 1 | 4 | 8, 1 | 8, 1 | 2 | 4, 1 | 2 | 8, 2, 2 | 4, 2 | 4 | 8}[r-0x2596]
		if q&1 != 0 {
			part(0, 0, 4, 4)
		}
		if q&2 != 0 {
			part(4, 0, 8, 4)
		}
		if q&4 != 0 {
			part(0, 4, 4, 8)
		}
		if q&8 != 0 {
			part(4, 4, 8, 8)
		}
	}
	return true
}

func blend(a, b uint8, n int) uint8 { return uint8((int(a)*n + int(b)*(256-n)) / 256) }

// drawArms draws the arms from the cell's centre to its edges: light one
// pixel wide, heavy two, double two parallel lines.
func drawArms(img *image.RGBA, a arms, px, py int, fg color.RGBA) {
	cx, cy := px+cellW/2, py+cellH/2
	for i, wt := range a {
		if wt == none {
			continue
		}
		var offs []int
		switch wt {
		case light:
			offs = []int{0}
		case heavy:
			offs = []int{0, 1}
		default:
			offs = []int{-1, 1}
		}
		for _, o := range offs {
			var r image.Rectangle
			switch i {
			case 0: // up
				r = image.Rect(cx+o, py, cx+o+1, cy+1)
			case 1: // right
				r = image.Rect(cx, cy+o, px+cellW, cy+o+1)
			case 2: // down
				r = image.Rect(cx+o, cy, cx+o+1, py+cellH)
			case 3: // left
				r = image.Rect(px, cy+o, cx+1, cy+o+1)
			}
			fill(img, r, fg)
		}
	}
}
