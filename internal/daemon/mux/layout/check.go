package layout

import (
	"fmt"
	"sort"
)

// CheckTiling reports how rs, the places of one area's tiles, break what
// Place always gives: every tile inside the area (cols x rows), none
// overlapping, none below MinCols x MinRows in an area that holds that,
// and every cell a tile's or a border column with a tile on each side,
// which is what a client draws a border on. Row by row, the tiles
// crossing a row, left to right, start at its first column, end at its
// last, and touch or leave one column (Gutter) between them. A tile of
// width and height 0 is hidden and not checked. The tests of the
// layout and of the daemon hold every placement to it.
func CheckTiling(cols, rows int, rs []Rect) error {
	cols, rows = max(cols, 1), max(rows, 1)
	big := cols >= MinCols && rows >= MinRows
	shown := false
	for i, r := range rs {
		if r.W == 0 && r.H == 0 {
			continue
		}
		shown = true
		if r.X < 0 || r.Y < 0 || r.W < 1 || r.H < 1 || r.X+r.W > cols || r.Y+r.H > rows {
			return fmt.Errorf("tile %d %v is outside the area", i, r)
		}
		if big && (r.W < MinCols || r.H < MinRows) {
			return fmt.Errorf("tile %d %v is below the minimum in an area that holds it", i, r)
		}
	}
	if !shown {
		return nil
	}
	var cross []Rect
	for y := 0; y < rows; y++ {
		cross = cross[:0]
		for _, r := range rs {
			if r.W > 0 && y >= r.Y && y < r.Y+r.H {
				cross = append(cross, r)
			}
		}
		sort.Slice(cross, func(a, b int) bool { return cross[a].X < cross[b].X })
		if len(cross) == 0 || cross[0].X != 0 || cross[len(cross)-1].X+cross[len(cross)-1].W != cols {
			return fmt.Errorf("row %d is not covered end to end: %v", y, rs)
		}
		for i := 1; i < len(cross); i++ {
			if gap := cross[i].X - (cross[i-1].X + cross[i-1].W); gap != 0 && gap != Gutter {
				return fmt.Errorf("row %d: %v then %v (overlapping, or more than a border apart): %v", y, cross[i-1], cross[i], rs)
			}
		}
	}
	return nil
}
