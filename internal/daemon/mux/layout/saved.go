package layout

// Saved is a tree in the sessions file: a leaf names its window, a split
// its direction (Dir.String) and holds its children; Share is a node's
// length in its parent relative to its siblings'.
type Saved struct {
	Window string  `json:"window,omitempty"` // a leaf: the window's id
	Split  string  `json:"split,omitempty"`  // a split: side-by-side or stacked
	Share  float64 `json:"share"`
	Kids   []Saved `json:"kids,omitempty"`
}

// Save is t in the sessions file's form; nil for an empty tree.
func (t *Tree) Save() *Saved {
	if t.root == nil {
		return nil
	}
	var enc func(n *node) Saved
	enc = func(n *node) Saved {
		s := Saved{Window: n.id, Share: n.share}
		if !n.leaf() {
			s.Split = n.dir.String()
			for _, k := range n.kids {
				s.Kids = append(s.Kids, enc(k))
			}
		}
		return s
	}
	s := enc(t.root)
	return &s
}

// Load rebuilds a saved tree. The file is outside input: a
// leaf whose window rename does not know (or knows twice) is dropped, a
// split of another word is dropped with what is under it, shares that
// are not positive numbers become even, and a tree nested deeper than
// MaxDepth or with more than maxNodes nodes is refused (nil). What
// is left is put back in the tree's shape (no split of one child, none
// inside a split of its direction); windows it lost are placed
// automatically by the caller.
func Load(s *Saved, rename func(id string) (string, bool), maxNodes int) *Tree {
	if s == nil {
		return nil
	}
	t := New()
	nodes := 0
	ok := true
	var build func(s *Saved, depth int) *node
	build = func(s *Saved, depth int) *node {
		nodes++
		if nodes > maxNodes || depth > MaxDepth {
			ok = false
			return nil
		}
		share := s.Share
		if !(share > 0 && share <= maxShare) {
			share = 1
		}
		if s.Split == "" {
			id, known := rename(s.Window)
			if !known || id == "" || t.leaves[id] != nil || len(s.Kids) > 0 {
				return nil
			}
			n := &node{id: id, share: share}
			t.leaves[id] = n
			return n
		}
		var dir Dir
		switch s.Split {
		case SideBySide.String():
			dir = SideBySide
		case Stacked.String():
			dir = Stacked
		default:
			return nil
		}
		n := &node{dir: dir, share: share}
		for i := range s.Kids {
			k := build(&s.Kids[i], depth+1)
			if k == nil {
				continue
			}
			if !k.leaf() && k.dir == dir { // its children are n's
				sum := 0.0
				for _, c := range k.kids {
					sum += c.share
				}
				for _, c := range k.kids {
					c.share = c.share * k.share / sum
					c.parent = n
					n.kids = append(n.kids, c)
				}
				continue
			}
			k.parent = n
			n.kids = append(n.kids, k)
		}
		switch len(n.kids) {
		case 0:
			return nil
		case 1:
			k := n.kids[0]
			k.share, k.parent = share, nil
			return k
		}
		return n
	}
	root := build(s, 0)
	if !ok {
		return nil
	}
	if root != nil {
		root.parent = nil
		t.root = root
	}
	return t
}
