package daemon

// A layoutTree is one workspace's tiling, as tmux's and zellij's: a tree
// whose leaves are windows and whose inner nodes are splits. A split
// lays its children out side by side (left to right, a border column
// apart) or stacked (top to bottom, the lower one's title bar being the
// line between them), each child taking its share of the split's length.
// A split never holds a child split of its own direction (that child's
// children are the split's own), and never fewer than two children.
//
// Shares are relative, so a new area scales every tile in proportion.
// When the tree changes (a split, a window leaving), the shares of the
// split that changes are first set to the cells its children had in the
// last placement, so the change is exact in cells: a split halves the
// tile it splits and no other tile moves; a window that leaves gives its
// cells (and its border) to the sibling before it, else the one after,
// as tmux does.
//
// The tree knows windows only by id, so it is tested on its own
// (layout_test.go, layout_fuzz_test.go); layout_place.go lays it out in
// an area, layout_saved.go keeps it in the sessions file, and layout.go
// keeps each session's trees in step with its windows.

// splitDir is how a split lays out its children.
type splitDir uint8

const (
	sideBySide splitDir = iota + 1 // left to right: tmux's split-window -h, prefix %
	stacked                        // top to bottom: tmux's split-window -v, prefix "
)

func (d splitDir) other() splitDir {
	if d == sideBySide {
		return stacked
	}
	return sideBySide
}

// border is the cells between two children of a split of direction d:
// the border column side by side, none stacked.
func (d splitDir) border() int {
	if d == sideBySide {
		return gutter
	}
	return 0
}

func (d splitDir) String() string {
	if d == sideBySide {
		return "side-by-side"
	}
	return "stacked"
}

// along is r's length in direction d; minAlong a node's minimum there.
func (d splitDir) along(r rect) int {
	if d == sideBySide {
		return r.w
	}
	return r.h
}

const (
	// maxLayoutDepth bounds how many splits nest from a workspace's
	// whole area down to one tile. Halving a tile that deep is below the
	// minimum at any area a client may send; the bound is for trees a
	// sessions file claims and for splits made bigger by --equalize.
	maxLayoutDepth = 24
	// maxShare bounds a share read from the sessions file.
	maxShare = 1e9
)

type layoutNode struct {
	id     string        // a leaf's window id; "" for a split
	dir    splitDir      // a split's direction
	kids   []*layoutNode // a split's children in order
	parent *layoutNode
	share  float64 // its length in its parent relative to its siblings'

	// Set by the last place.
	at         rect // its cells; zero when it was not placed
	exact      bool // a split laid out its own way with every shown child: at of its children are its shares in cells
	vis        bool // a shown window is under it
	focus      bool // the focused window is under it
	minW, minH int
}

func (n *layoutNode) leaf() bool { return n.id != "" }

func (n *layoutNode) index() int {
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
func (n *layoutNode) splits() int {
	d := 0
	for p := n.parent; p != nil; p = p.parent {
		d++
	}
	return d
}

type layoutTree struct {
	root   *layoutNode
	leaves map[string]*layoutNode
}

func newLayoutTree() *layoutTree { return &layoutTree{leaves: map[string]*layoutNode{}} }

func (t *layoutTree) has(id string) bool { return t.leaves[id] != nil }

func (t *layoutTree) len() int { return len(t.leaves) }

// ids are the windows in tree order: left to right, top to bottom.
func (t *layoutTree) ids() []string {
	out := make([]string, 0, len(t.leaves))
	var walk func(n *layoutNode)
	walk = func(n *layoutNode) {
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
func (t *layoutTree) replace(old, n *layoutNode) {
	p := old.parent
	n.parent = p
	if p == nil {
		t.root = n
		return
	}
	p.kids[old.index()] = n
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

// canSplit says whether splitting target in direction dir keeps the
// tree within maxLayoutDepth.
func (t *layoutTree) canSplit(target string, dir splitDir) bool {
	l := t.leaves[target]
	if l == nil {
		return false
	}
	if l.parent != nil && l.parent.dir == dir {
		return true // a sibling in the same split: no deeper
	}
	return l.splits()+1 <= maxLayoutDepth
}

// split opens id beside target: after it (right or below) or, before,
// ahead of it (left or above). The new window takes pct percent of the
// target's tile (its cells in the last placement, else its share). It
// reports false, changing nothing, when target is not in the tree, id
// already is, or the split would go deeper than maxLayoutDepth.
func (t *layoutTree) split(target, id string, dir splitDir, before bool, pct int) bool {
	l := t.leaves[target]
	if l == nil || id == "" || t.leaves[id] != nil || !t.canSplit(target, dir) {
		return false
	}
	pct = min(max(pct, 1), 99)
	n := &layoutNode{id: id}
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
		s := &layoutNode{dir: dir, share: l.share, at: l.at}
		t.replace(l, s)
		if keepC > 0 {
			l.share, n.share = float64(keepC), float64(giveC)
		} else {
			l.share, n.share = keepF, giveF
		}
		l.parent, n.parent = s, s
		s.kids = []*layoutNode{l, n}
		if before {
			s.kids = []*layoutNode{n, l}
		}
	}
	t.leaves[id] = n
	return true
}

// insertAuto places a window that arrives without a split asked for
// (new-window, a window moved here, one a saved tree did not name): the
// first fills the area, the second goes beside it, and each one after
// goes under the last tile (the bottom-right one), whose column is then
// made even. Windows opened only this way are therefore a master on the
// left and an even stack on the right, tuios's automatic tiling.
func (t *layoutTree) insertAuto(id string) {
	if id == "" || t.leaves[id] != nil {
		return
	}
	if t.root == nil {
		n := &layoutNode{id: id, share: 1}
		t.root, t.leaves[id] = n, n
		return
	}
	if t.root.leaf() {
		t.split(t.root.id, id, sideBySide, false, 50)
		return
	}
	last := t.root
	for !last.leaf() {
		last = last.kids[len(last.kids)-1]
	}
	p := last.parent
	if p.dir == stacked || !t.split(last.id, id, stacked, false, 50) {
		// Into the last tile's own split, evened out.
		n := &layoutNode{id: id, parent: p}
		p.kids = append(p.kids, n)
		for _, k := range p.kids {
			k.share = 1
		}
		t.leaves[id] = n
	}
}

// remove takes a window out: its cells go to the sibling shown before
// it, else the one after it, and a split left with one child gives that
// child its place.
func (t *layoutTree) remove(id string) {
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
		if p.kids[j].at.w > 0 {
			to = j
		}
	}
	for j := i + 1; j < len(p.kids) && to < 0; j++ {
		if p.kids[j].at.w > 0 {
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
	if cells && l.at.w > 0 {
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
func (t *layoutTree) collapse(p *layoutNode) {
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
	kids := make([]*layoutNode, 0, len(gp.kids)+len(k.kids)-1)
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
func (t *layoutTree) rebase(p *layoutNode) bool {
	if !p.exact {
		return false
	}
	var shares, cells float64
	for _, k := range p.kids {
		if k.at.w > 0 {
			shares += k.share
			cells += float64(p.dir.along(k.at))
		}
	}
	if shares <= 0 || cells <= 0 {
		return false
	}
	f := cells / shares
	for _, k := range p.kids {
		if k.at.w > 0 {
			k.share = float64(p.dir.along(k.at))
		} else {
			k.share = max(k.share*f, 1e-9)
		}
	}
	return true
}

// swap trades the places of two windows.
func (t *layoutTree) swap(a, b string) bool {
	la, lb := t.leaves[a], t.leaves[b]
	if la == nil || lb == nil {
		return false
	}
	la.id, lb.id = b, a
	t.leaves[a], t.leaves[b] = lb, la
	return true
}

// equalize gives every child of every split an even share.
func (t *layoutTree) equalize() {
	var walk func(n *layoutNode)
	walk = func(n *layoutNode) {
		for _, k := range n.kids {
			k.share = 1
			walk(k)
		}
	}
	if t.root != nil {
		walk(t.root)
	}
}
