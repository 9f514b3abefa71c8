package daemon

// A layout tree in the sessions file (restore.go), and read back.

// savedNode is a layout tree in the sessions file (restore.go).
type savedNode struct {
	Window string      `json:"window,omitempty"` // a leaf: the window's id
	Split  string      `json:"split,omitempty"`  // a split: side-by-side or stacked
	Share  float64     `json:"share"`
	Kids   []savedNode `json:"kids,omitempty"`
}

func (t *layoutTree) save() *savedNode {
	if t.root == nil {
		return nil
	}
	var enc func(n *layoutNode) savedNode
	enc = func(n *layoutNode) savedNode {
		s := savedNode{Window: n.id, Share: n.share}
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

// loadLayoutTree rebuilds a saved tree. The file is outside input: a
// leaf whose window rename does not know (or knows twice) is dropped, a
// split of another word is dropped with what is under it, shares that
// are not positive numbers become even, and a tree nested deeper than
// maxLayoutDepth or with more than maxNodes nodes is refused (nil). What
// is left is put back in the tree's shape (no split of one child, none
// inside a split of its direction); windows it lost are placed
// automatically by the caller.
func loadLayoutTree(s *savedNode, rename func(id string) (string, bool), maxNodes int) *layoutTree {
	if s == nil {
		return nil
	}
	t := newLayoutTree()
	nodes := 0
	ok := true
	var build func(s *savedNode, depth int) *layoutNode
	build = func(s *savedNode, depth int) *layoutNode {
		nodes++
		if nodes > maxNodes || depth > maxLayoutDepth {
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
			n := &layoutNode{id: id, share: share}
			t.leaves[id] = n
			return n
		}
		var dir splitDir
		switch s.Split {
		case sideBySide.String():
			dir = sideBySide
		case stacked.String():
			dir = stacked
		default:
			return nil
		}
		n := &layoutNode{dir: dir, share: share}
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
