package layout

// Dir is how a split lays out its children.
type Dir uint8

const (
	// SideBySide is left to right, a vertical border between: tmux's
	// split-window -h, prefix %.
	SideBySide Dir = iota + 1
	// Stacked is top to bottom: tmux's split-window -v, prefix ".
	Stacked
)

func (d Dir) other() Dir {
	if d == SideBySide {
		return Stacked
	}
	return SideBySide
}

// border is the cells between two children of a split of direction d:
// the border column side by side, none stacked.
func (d Dir) border() int {
	if d == SideBySide {
		return Gutter
	}
	return 0
}

// String is the direction's name in the sessions file.
func (d Dir) String() string {
	if d == SideBySide {
		return "side-by-side"
	}
	return "stacked"
}

// along is r's length in direction d.
func (d Dir) along(r Rect) int {
	if d == SideBySide {
		return r.W
	}
	return r.H
}

const (
	// MaxDepth bounds how many splits nest from a workspace's
	// whole area down to one tile. Halving a tile that deep is below the
	// minimum at any area a client may send; the bound is for trees a
	// sessions file claims and for splits made bigger by Equalize.
	MaxDepth = 24
	// maxShare bounds a share read from the sessions file.
	maxShare = 1e9
)

type node struct {
	id     string  // a leaf's window id; "" for a split
	dir    Dir     // a split's direction
	kids   []*node // a split's children in order
	parent *node
	share  float64 // its length in its parent relative to its siblings'

	// Set by the last Place.
	at         Rect // its cells; zero when it was not placed
	exact      bool // a split laid out its own way with every shown child: at of its children are its shares in cells
	vis        bool // a shown window is under it
	focus      bool // the focused window is under it
	minW, minH int
}

func (n *node) leaf() bool { return n.id != "" }

func (n *node) index() int {
	if n.parent == nil {
		return -1
	}
	for i, k := range n.parent.kids {
		if k == n {
			return i
		}
	}
	return -1
}

// splits is how many splits are above n.
func (n *node) splits() int {
	d := 0
	for p := n.parent; p != nil; p = p.parent {
		d++
	}
	return d
}

// A Tree is one workspace's tiling. Its zero value is not usable: make
// one with New or Load.
type Tree struct {
	root   *node
	leaves map[string]*node
}

// New is an empty tree.
func New() *Tree { return &Tree{leaves: map[string]*node{}} }

// Has says whether window id has a leaf.
func (t *Tree) Has(id string) bool { return t.leaves[id] != nil }

// Len is how many windows the tree holds.
func (t *Tree) Len() int { return len(t.leaves) }

// IDs are the windows in tree order: left to right, top to bottom.
func (t *Tree) IDs() []string {
	out := make([]string, 0, len(t.leaves))
	var walk func(n *node)
	walk = func(n *node) {
		if n.leaf() {
			out = append(out, n.id)
			return
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	if t.root != nil {
		walk(t.root)
	}
	return out
}

// replace puts n where old was (in old's parent, or as the root).
func (t *Tree) replace(old, n *node) {
	p := old.parent
	n.parent = p
	if p == nil {
		t.root = n
		return
	}
	p.kids[old.index()] = n
}

// SplitSizes is what splitting tile r in direction dir gives: the
// target keeps keep cells of its length and the new window takes give,
// pct percent of what is left once the border is out. keep is 0 when
// the tile cannot hold two. The core refuses a split that leaves either
// below MinCols (side by side) or MinRows (stacked).
func SplitSizes(r Rect, dir Dir, pct int) (keep, give int) {
	return splitCells(dir.along(r), dir.border(), pct)
}

// splitCells divides a tile's length along a split: the border comes
// out, the new window takes pct percent of the rest (rounded) and the
// tile keeps the remainder, each at least one cell. keep is 0 when the
// length cannot hold two.
func splitCells(length, border, pct int) (keep, give int) {
	avail := length - border
	if avail < 2 {
		return 0, 0
	}
	give = min(max(avail*pct/100, 1), avail-1) // an odd cell stays with the tile
	return avail - give, give
}

// CanSplit says whether splitting target in direction dir keeps the
// tree within MaxDepth.
func (t *Tree) CanSplit(target string, dir Dir) bool {
	l := t.leaves[target]
	if l == nil {
		return false
	}
	if l.parent != nil && l.parent.dir == dir {
		return true // a sibling in the same split: no deeper
	}
	return l.splits()+1 <= MaxDepth
}

// Split opens id beside target: after it (right or below) or, before,
// ahead of it (left or above). The new window takes pct percent of the
// target's tile (its cells in the last placement, else its share). It
// reports false, changing nothing, when target is not in the tree, id
// already is, or the split would go deeper than MaxDepth.
func (t *Tree) Split(target, id string, dir Dir, before bool, pct int) bool {
	l := t.leaves[target]
	if l == nil || id == "" || t.leaves[id] != nil || !t.CanSplit(target, dir) {
		return false
	}
	pct = min(max(pct, 1), 99)
	n := &node{id: id}
	keepC, giveC := splitCells(dir.along(l.at), dir.border(), pct)
	keepF, giveF := float64(100-pct)/100, float64(pct)/100
	if p := l.parent; p != nil && p.dir == dir {
		if t.rebase(p) && keepC > 0 {
			l.share, n.share = float64(keepC), float64(giveC)
		} else {
			l.share, n.share = l.share*keepF, l.share*giveF
		}
		at := l.index()
		if !before {
			at++
		}
		n.parent = p
		p.kids = append(p.kids, nil)
		copy(p.kids[at+1:], p.kids[at:])
		p.kids[at] = n
	} else {
		s := &node{dir: dir, share: l.share, at: l.at}
		t.replace(l, s)
		if keepC > 0 {
			l.share, n.share = float64(keepC), float64(giveC)
		} else {
			l.share, n.share = keepF, giveF
		}
		l.parent, n.parent = s, s
		s.kids = []*node{l, n}
		if before {
			s.kids = []*node{n, l}
		}
	}
	t.leaves[id] = n
	return true
}

// Add places a window that arrives without a split asked for
// (new-window, a window moved here, one a saved tree did not name): the
// first fills the area, the second goes beside it, and each one after
// goes under the last tile (the bottom-right one), whose column is then
// made even. Windows opened only this way are therefore a master on the
// left and an even stack on the right, tuios's automatic tiling.
func (t *Tree) Add(id string) {
	if id == "" || t.leaves[id] != nil {
		return
	}
	if t.root == nil {
		n := &node{id: id, share: 1}
		t.root, t.leaves[id] = n, n
		return
	}
	if t.root.leaf() {
		t.Split(t.root.id, id, SideBySide, false, 50)
		return
	}
	last := t.root
	for !last.leaf() {
		last = last.kids[len(last.kids)-1]
	}
	p := last.parent
	if p.dir == Stacked || !t.Split(last.id, id, Stacked, false, 50) {
		// Into the last tile's own split, evened out.
		n := &node{id: id, parent: p}
		p.kids = append(p.kids, n)
		for _, k := range p.kids {
			k.share = 1
		}
		t.leaves[id] = n
	}
}

// Remove takes a window out: its cells go to the sibling shown before
// it, else the one after it, and a split left with one child gives that
// child its place.
func (t *Tree) Remove(id string) {
	l := t.leaves[id]
	if l == nil {
		return
	}
	delete(t.leaves, id)
	p := l.parent
	if p == nil {
		t.root = nil
		return
	}
	cells := t.rebase(p)
	i := l.index()
	to := -1
	for j := i - 1; j >= 0 && to < 0; j-- { // the nearest shown one before, else after
		if p.kids[j].at.W > 0 {
			to = j
		}
	}
	for j := i + 1; j < len(p.kids) && to < 0; j++ {
		if p.kids[j].at.W > 0 {
			to = j
		}
	}
	if to < 0 { // none shown: the adjacent one
		to = i - 1
		if to < 0 {
			to = i + 1
		}
	}
	give := l.share
	if cells && l.at.W > 0 {
		give += float64(p.dir.border()) // its border is freed with it
	}
	p.kids[to].share += give
	p.kids = append(p.kids[:i], p.kids[i+1:]...)
	if len(p.kids) == 1 {
		t.collapse(p)
	}
}

// collapse replaces a split of one child by that child; a child split of
// the grandparent's direction gives the grandparent its children.
func (t *Tree) collapse(p *node) {
	k := p.kids[0]
	gp := p.parent
	cells := gp != nil && t.rebase(gp)
	k.share = p.share
	t.replace(p, k)
	if gp == nil || k.leaf() || k.dir != gp.dir {
		return
	}
	// k's children join gp in its place, their shares scaled so that
	// together (with their borders, in cells) they are k's.
	sum := 0.0
	for _, c := range k.kids {
		sum += c.share
	}
	kc := t.rebase(k)
	want := k.share
	if cells && kc {
		want -= float64(k.dir.border() * (len(k.kids) - 1))
	}
	if want <= 0 || sum <= 0 {
		want, sum = 1, 1
	}
	at := k.index()
	kids := make([]*node, 0, len(gp.kids)+len(k.kids)-1)
	kids = append(kids, gp.kids[:at]...)
	for _, c := range k.kids {
		c.share = c.share * want / sum
		c.parent = gp
		kids = append(kids, c)
	}
	kids = append(kids, gp.kids[at+1:]...)
	gp.kids = kids
	gp.exact = false
}

// rebase sets a split's shares to its children's cells in the last
// placement, when it was laid out its own way; children not shown keep
// their proportion. It reports whether the shares are now cells.
func (t *Tree) rebase(p *node) bool {
	if !p.exact {
		return false
	}
	var shares, cells float64
	for _, k := range p.kids {
		if k.at.W > 0 {
			shares += k.share
			cells += float64(p.dir.along(k.at))
		}
	}
	if shares <= 0 || cells <= 0 {
		return false
	}
	f := cells / shares
	for _, k := range p.kids {
		if k.at.W > 0 {
			k.share = float64(p.dir.along(k.at))
		} else {
			k.share = max(k.share*f, 1e-9)
		}
	}
	return true
}

// Swap trades the places of two windows.
func (t *Tree) Swap(a, b string) bool {
	la, lb := t.leaves[a], t.leaves[b]
	if la == nil || lb == nil {
		return false
	}
	la.id, lb.id = b, a
	t.leaves[a], t.leaves[b] = lb, la
	return true
}

// Equalize gives every child of every split an even share.
func (t *Tree) Equalize() {
	var walk func(n *node)
	walk = func(n *node) {
		for _, k := range n.kids {
			k.share = 1
			walk(k)
		}
	}
	if t.root != nil {
		walk(t.root)
	}
}
