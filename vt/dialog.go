package vt

import (
	"slices"
	"strings"
)

// MaxBoxHeight is the tallest box FindBoxes reports, borders included.
const MaxBoxHeight = 60

// Box is a bordered dialog found on a screen (a permission prompt drawn in
// a ╭─╮ frame, say): the rows and columns of its corners (0-based cells)
// and its inside.
type Box struct {
	Top, Left, Bottom, Right int
	// Lines is the inside: each row between the borders cut to the columns
	// strictly between the sides, right-trimmed; leading blank rows
	// dropped, each run of blank rows collapsed to one, a trailing blank
	// row dropped.
	Lines []string
}

// Text returns the inside as one string, lines joined with "\n".
func (b Box) Text() string { return strings.Join(b.Lines, "\n") }

// Encloses reports whether o lies strictly inside b's borders.
func (b Box) Encloses(o Box) bool {
	return o.Top > b.Top && o.Bottom < b.Bottom && o.Left > b.Left && o.Right < b.Right
}

// FindBoxes finds the bordered boxes on a screen given as cells:
// rows[y][x] is the grapheme in cell x of row y, "" for the continuation
// cell of a wide character (a "" cell that does not follow a wide character
// reads as a blank, so grids that leave unwritten cells empty work too).
// Rows may have different lengths; missing cells are blank.
//
// A box is a top-left corner (╭┌┏╔), the nearest top-right corner (╮┐┓╗)
// to its right on the same row, then on each row below a side (│┃║) in
// both columns until a row with a bottom-left (╰└┗╚) and a bottom-right
// (╯┘┛╝) corner in those columns, at most MaxBoxHeight rows in all. The
// top and bottom edges between the corners are not checked, and corner
// styles need not match. Boxes are listed bottom first (by bottom row,
// then left column, then top row descending).
func FindBoxes(rows [][]string) []Box {
	var boxes []Box
	var nextTR []int
	for y, row := range rows {
		// nextTR[x] = the first top-right corner at or after x, or -1.
		nextTR = slices.Grow(nextTR[:0], len(row)+1)[:len(row)+1]
		nextTR[len(row)] = -1
		for x := len(row) - 1; x >= 0; x-- {
			if isBoxTopRight(row[x]) {
				nextTR[x] = x
			} else {
				nextTR[x] = nextTR[x+1]
			}
		}
		for x, c := range row {
			if !isBoxTopLeft(c) {
				continue
			}
			r := nextTR[x+1]
			if r < 0 {
				continue
			}
			for y2 := y + 1; y2 < len(rows) && y2-y < MaxBoxHeight; y2++ {
				left, right := boxCell(rows[y2], x), boxCell(rows[y2], r)
				if isBoxBottomLeft(left) && isBoxBottomRight(right) {
					boxes = append(boxes, Box{Top: y, Left: x, Bottom: y2, Right: r, Lines: boxInside(rows[y+1:y2], x, r)})
					break
				}
				if !isBoxSide(left) || !isBoxSide(right) {
					break
				}
			}
		}
	}
	slices.SortStableFunc(boxes, func(a, b Box) int {
		if a.Bottom != b.Bottom {
			return b.Bottom - a.Bottom
		}
		if a.Left != b.Left {
			return a.Left - b.Left
		}
		return b.Top - a.Top
	})
	return boxes
}

// BoxesInLines is FindBoxes over plain text lines, split into cells by
// display width: a wide grapheme takes two cells, a zero-width one joins
// the previous cell, control characters are dropped.
func BoxesInLines(lines []string) []Box {
	rows := make([][]string, len(lines))
	for i, l := range lines {
		rows[i] = LineCells(l)
	}
	return FindBoxes(rows)
}

// LineCells splits a line of plain text into cells the way BoxesInLines
// does: one grapheme per cell, "" in the continuation cell of a wide one.
func LineCells(line string) []string {
	cells := make([]string, 0, len(line))
	for len(line) > 0 {
		// Fast path: an ASCII byte followed by ASCII (or the end) is a
		// grapheme of its own.
		if c := line[0]; c < 0x80 && (len(line) == 1 || line[1] < 0x80) {
			if c >= 0x20 && c != 0x7f {
				cells = append(cells, line[:1])
			}
			line = line[1:]
			continue
		}
		g, w := firstClusterString(line)
		if g == "" { // cannot happen for non-empty input; never loop forever
			break
		}
		line = line[len(g):]
		switch {
		case w <= 0:
			if g[0] < 0x20 || g[0] == 0x7f {
				continue
			}
			if n := len(cells); n > 0 && cells[n-1] != "" {
				cells[n-1] += g
			} else if n > 1 && cells[n-1] == "" {
				cells[n-2] += g
			}
		default:
			cells = append(cells, g)
			for ; w > 1; w-- {
				cells = append(cells, "")
			}
		}
	}
	return cells
}

// Innermost keeps the boxes for which holds returns true (all boxes when
// holds is nil) and then drops every box that encloses another kept box,
// so only the innermost holders remain, in their original order. A dialog
// rule needs exactly one: two results mean the words are ambiguous.
func Innermost(boxes []Box, holds func(Box) bool) []Box {
	var kept []Box
	for _, b := range boxes {
		if holds == nil || holds(b) {
			kept = append(kept, b)
		}
	}
	out := kept[:0:0]
	for i, b := range kept {
		outer := false
		for j, o := range kept {
			if i != j && b.Encloses(o) {
				outer = true
				break
			}
		}
		if !outer {
			out = append(out, b)
		}
	}
	return out
}

func boxCell(row []string, x int) string {
	if x < len(row) {
		return row[x]
	}
	return ""
}

// boxInside cuts rows to the columns strictly between left and right.
func boxInside(rows [][]string, left, right int) []string {
	lines := make([]string, 0, len(rows))
	var b strings.Builder
	for _, row := range rows {
		b.Reset()
		for x := left + 1; x < right; x++ {
			c := boxCell(row, x)
			if c == "" {
				if x > 0 && x-1 < len(row) && row[x-1] != "" && textWidth(row[x-1]) >= 2 {
					continue // continuation cell of a wide character
				}
				c = " "
			}
			b.WriteString(c)
		}
		line := strings.TrimRight(b.String(), " ")
		blank := line == ""
		if blank && (len(lines) == 0 || lines[len(lines)-1] == "") {
			continue // leading blank, or a run of blanks
		}
		lines = append(lines, line)
	}
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	return lines
}

func isBoxTopLeft(c string) bool {
	return c == "╭" || c == "┌" || c == "┏" || c == "╔"
}

func isBoxTopRight(c string) bool {
	return c == "╮" || c == "┐" || c == "┓" || c == "╗"
}

func isBoxBottomLeft(c string) bool {
	return c == "╰" || c == "└" || c == "┗" || c == "╚"
}

func isBoxBottomRight(c string) bool {
	return c == "╯" || c == "┘" || c == "┛" || c == "╝"
}

func isBoxSide(c string) bool {
	return c == "│" || c == "┃" || c == "║"
}
