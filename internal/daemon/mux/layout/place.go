package layout

import (
	"math"
	"sort"
)

// Laying a tree out in an area: Tree.Place and its helpers.

// A Placement is where Place put each shown window, and how many shown
// windows did not fit.
type Placement struct {
	Rects  map[string]Rect
	Hidden int
}

// Place lays the tree out in a cols x rows area. shown says which
// windows are on screen (the others, minimized, give their space to
// their siblings and keep their leaf for when they come back). Every
// shown window gets a tile inside the area, the tiles do not overlap,
// and every cell is a tile's or a border column with a tile on each
// side. A split whose children cannot each get the minimum tile (4
// columns, a title row and a pane row) lays them out the other way when
// they fit that way (a row too narrow becomes a column), else shows
// those that fit, the focused window's first: the others are counted in
// Hidden and come back when the area grows. One tile alone takes the
// area whatever its size.
//
// In order, a split's children are laid out: its own way, each with
// room for all its tiles; the other way, so; its own way, each with room
// for one tile (a child then gives way inside its part); its own way,
// as many children as have room for one tile, the focused one's first.
func (t *Tree) Place(cols, rows int, shown func(id string) bool, focus string) Placement {
	res := Placement{Rects: make(map[string]Rect, len(t.leaves))}
	if t.root == nil {
		return res
	}
	measure(t.root, shown, focus)
	if t.root.vis {
		res.lay(t.root, Rect{0, 0, max(cols, 1), max(rows, 1)})
	}
	return res
}

// measure clears the last placement under n and notes which nodes hold
// shown and focused windows, and the least each needs.
func measure(n *node, shown func(string) bool, focus string) {
	n.at, n.exact = Rect{}, false
	if n.leaf() {
		n.vis, n.focus = shown(n.id), n.id == focus
		n.minW, n.minH = MinCols, MinRows
		return
	}
	n.vis, n.focus, n.minW, n.minH = false, false, 0, 0
	count := 0
	for _, k := range n.kids {
		measure(k, shown, focus)
		if !k.vis {
			continue
		}
		n.vis, n.focus = true, n.focus || k.focus
		if n.dir == SideBySide {
			n.minW += k.minW
			n.minH = max(n.minH, k.minH)
		} else {
			n.minW = max(n.minW, k.minW)
			n.minH += k.minH
		}
		count++
	}
	if count > 1 {
		if n.dir == SideBySide {
			n.minW += Gutter * (count - 1)
		}
	}
}

func (res *Placement) lay(n *node, r Rect) {
	n.at = r
	if n.leaf() {
		res.Rects[n.id] = r
		return
	}
	var kids []*node
	for _, k := range n.kids {
		if k.vis {
			kids = append(kids, k)
		}
	}
	if len(kids) == 1 {
		res.lay(kids[0], r)
		return
	}
	switch {
	case fits(kids, n.dir, r, false):
		res.row(kids, n.dir, r, false, false)
		n.exact = true
		return
	case fits(kids, n.dir.other(), r, false):
		res.row(kids, n.dir.other(), r, true, false)
		return
	case fits(kids, n.dir, r, true):
		// Each child gets at least one tile's minimum and gives up
		// (lays out the other way, or hides) inside it.
		res.row(kids, n.dir, r, false, true)
		return
	}
	// Not even one tile each: the focused child first, then its
	// neighbours outward, as many as fit.
	first := 0
	for i, k := range kids {
		if k.focus {
			first = i
		}
	}
	keep := []*node{kids[first]}
	for d := 1; d < len(kids); d++ {
		for _, i := range []int{first + d, first - d} {
			if i < 0 || i >= len(kids) {
				continue
			}
			try := append(append([]*node(nil), keep...), kids[i])
			if fits(try, n.dir, r, true) {
				keep = try
			}
		}
	}
	sort.Slice(keep, func(a, b int) bool { return keep[a].index() < keep[b].index() })
	for _, k := range kids {
		if !containsNode(keep, k) {
			res.Hidden += countShown(k)
		}
	}
	if len(keep) == 1 {
		res.lay(keep[0], r)
		return
	}
	res.row(keep, n.dir, r, false, true)
}

func containsNode(ns []*node, n *node) bool {
	for _, x := range ns {
		if x == n {
			return true
		}
	}
	return false
}

// countShown is how many shown windows are under n.
func countShown(n *node) int {
	if n.leaf() {
		if n.vis {
			return 1
		}
		return 0
	}
	c := 0
	for _, k := range n.kids {
		c += countShown(k)
	}
	return c
}

// fits says whether kids, laid out in direction d, each get their
// minimum in r: the least each needs to show all its tiles, or with
// soft the least one tile needs.
func fits(kids []*node, d Dir, r Rect, soft bool) bool {
	need := d.border() * (len(kids) - 1)
	for _, k := range kids {
		w, h := k.least(soft)
		if d == SideBySide {
			need += w
			if h > r.H {
				return false
			}
		} else {
			need += h
			if w > r.W {
				return false
			}
		}
	}
	return need <= d.along(r)
}

// least is n's minimum: all its tiles', or one tile's with soft.
func (n *node) least(soft bool) (w, h int) {
	if soft {
		return MinCols, MinRows
	}
	return n.minW, n.minH
}

// row lays kids out one after another in direction d across r, with
// their shares (even ones when even) and their minimums (soft: one
// tile's).
func (res *Placement) row(kids []*node, d Dir, r Rect, even, soft bool) {
	shares := make([]float64, len(kids))
	mins := make([]int, len(kids))
	for i, k := range kids {
		shares[i] = 1
		if !even {
			shares[i] = k.share
		}
		w, h := k.least(soft)
		mins[i] = h
		if d == SideBySide {
			mins[i] = w
		}
	}
	sizes := distribute(d.along(r)-d.border()*(len(kids)-1), shares, mins)
	pos := 0
	for i, k := range kids {
		sub := Rect{r.X, r.Y + pos, r.W, sizes[i]}
		if d == SideBySide {
			sub = Rect{r.X + pos, r.Y, sizes[i], r.H}
		}
		res.lay(k, sub)
		pos += sizes[i] + d.border()
	}
}

// distribute divides total cells in proportion to shares (largest
// remainder; on a tie the earlier child takes the cell), then raises
// each below its minimum with cells from those with the most to spare.
// The caller has checked that the minimums fit.
func distribute(total int, shares []float64, mins []int) []int {
	n := len(shares)
	sizes := make([]int, n)
	sum := 0.0
	for _, s := range shares {
		if s > 0 && !math.IsInf(s, 0) {
			sum += s
		}
	}
	type frac struct {
		i int
		f int64 // the fraction in millionths, so equal ones compare equal
	}
	fr := make([]frac, n)
	used := 0
	for i, s := range shares {
		ideal := float64(total) / float64(n)
		if sum > 0 && !math.IsInf(sum, 0) {
			if !(s > 0) || math.IsInf(s, 0) {
				s = 0
			}
			ideal = float64(total) * s / sum
		}
		sizes[i] = int(math.Floor(ideal))
		fr[i] = frac{i, int64(math.Round((ideal - float64(sizes[i])) * 1e6))}
		used += sizes[i]
	}
	sort.SliceStable(fr, func(a, b int) bool { return fr[a].f > fr[b].f })
	for k := 0; used < total && k < n; k++ {
		sizes[fr[k].i]++
		used++
	}
	for i := range sizes {
		for sizes[i] < mins[i] {
			from, spare := -1, 0
			for j := range sizes {
				if s := sizes[j] - mins[j]; j != i && s > spare {
					from, spare = j, s
				}
			}
			if from < 0 {
				break
			}
			sizes[from]--
			sizes[i]++
		}
	}
	return sizes
}
