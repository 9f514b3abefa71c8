package daemon

import (
	"fmt"
	"reflect"
	"testing"
)

func TestTile(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name             string
		n, cols, rows, z int
		want             []rect
	}{
		{"none", 0, 80, 24, -1, nil},
		{"one fills", 1, 80, 24, -1, []rect{{0, 0, 80, 24}}},
		{"two side by side, a gutter apart", 2, 81, 24, -1, []rect{{0, 0, 40, 24}, {41, 0, 40, 24}}},
		{"two, even width: the left takes the extra column", 2, 80, 24, -1, []rect{{0, 0, 40, 24}, {41, 0, 39, 24}}},
		{"three: master and two stacked", 3, 81, 24, -1, []rect{{0, 0, 40, 24}, {41, 0, 40, 12}, {41, 12, 40, 12}}},
		{"four: the remainder goes to the first", 4, 81, 25, -1, []rect{{0, 0, 40, 25}, {41, 0, 40, 9}, {41, 9, 40, 8}, {41, 17, 40, 8}}},
		{"zoomed: one fills, the rest off screen", 3, 80, 24, 1, []rect{{}, {0, 0, 80, 24}, {}}},
		{"zoom index out of range is no zoom", 2, 81, 24, 5, []rect{{0, 0, 40, 24}, {41, 0, 40, 24}}},
		{"too short for the stack: the rest get the minimum at the bottom", 5, 81, 5, -1,
			[]rect{{0, 0, 40, 5}, {41, 0, 40, 3}, {41, 3, 40, 2}, {41, 3, 40, 2}, {41, 3, 40, 2}}},
		{"too narrow for two columns and a gutter: one column", 2, 8, 24, -1, []rect{{0, 0, 8, 12}, {0, 12, 8, 12}}},
		{"just wide enough for two columns", 2, 9, 24, -1, []rect{{0, 0, 4, 24}, {5, 0, 4, 24}}},
		{"an area below the minimum still gets the minimum", 1, 1, 1, -1, []rect{{0, 0, 4, 2}}},
		{"tiny and many", 3, 3, 3, -1, []rect{{0, 0, 4, 3}, {0, 1, 4, 2}, {0, 1, 4, 2}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := tile(c.n, c.cols, c.rows, c.z)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("tile(%d, %d, %d, %d) = %v, want %v", c.n, c.cols, c.rows, c.z, got, c.want)
			}
		})
	}
}

// Every tile fits the area and none goes below the minimum, for every
// count and size a client may send (within the area's bounds when it is
// at least the minimum).
func TestTileInvariants(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 12; n++ {
		for _, size := range [][2]int{{80, 24}, {8, 4}, {200, 50}, {1000, 1000}, {9, 3}, {33, 7}} {
			cols, rows := size[0], size[1]
			rs := tile(n, cols, rows, -1)
			area := 0
			for i, r := range rs {
				if r.w < minTileCols || r.h < minTileRows {
					t.Fatalf("n=%d %dx%d: tile %d is %v, below the minimum", n, cols, rows, i, r)
				}
				if r.x < 0 || r.y < 0 || r.x+r.w > cols || r.y+r.h > rows {
					t.Fatalf("n=%d %dx%d: tile %d is %v, outside the area", n, cols, rows, i, r)
				}
				area += r.w * r.h
			}
			gutters := 0
			if n > 1 && cols >= 2*minTileCols+gutter {
				gutters = gutter * rows
			}
			if rows >= 2*n && area != cols*rows-gutters {
				t.Fatalf("n=%d %dx%d: tiles cover %d cells of %d: %v", n, cols, rows, area, cols*rows, fmt.Sprint(rs))
			}
		}
	}
}
