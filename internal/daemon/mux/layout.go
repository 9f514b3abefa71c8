package mux

import (
	"github.com/tuios/tuios/internal/daemon/mux/layout"
	drpc "github.com/tuios/tuios/internal/daemon/rpc"
	"github.com/tuios/tuios/internal/proto"
)

// A tile is a window's cells in its session's area: the first row is the
// title bar an attached client draws, the rest is the pane. The daemon
// owns the tiling (not the client) so every client, and list-windows, see
// the same places, and a pane's PTY size follows from its tile alone.
// Side-by-side tiles are one column apart: the client draws the border
// between them there (tmux's one-cell line), so that column belongs to no
// pane and a pane's PTY is exactly the cells it is drawn in. Stacked
// tiles need no row between them: the lower one's title bar is the line.
//
// Each workspace of a session has a layout tree (package mux/layout): tmux's
// and zellij's splits. split-window splits its target's tile in the
// direction asked; every other way a window arrives on a workspace
// (new-window, move-window, a restart that lost its place) places it
// automatically: the first fills the area, the second goes beside it,
// each later one under the last tile, whose column is made even, so
// windows opened only with new-window are a master and an even stack.
// A window that leaves (closed, moved away) gives its cells to its
// sibling; a minimized one keeps its leaf and comes back where it was.
// syncLayoutsLocked keeps the trees in step with the windows, whatever verb
// moved them, before anything reads a place.
//
// A session is tiled only once a client has shown it (resize, or attach
// with a stream or a size): until then each pane keeps the whole area
// new-session gave it, so agents started by scripts in a session nobody
// looks at are not squeezed into columns for a screen nobody draws.

// rect is a place in a session's area (layout.Rect): a tile, a popup's
// box, what list-windows reports.
type rect = layout.Rect

// layoutLocked is the tree of workspace ws (1 to Workspaces). Called with s.mu
// held.
func (ss *Session) layoutLocked(ws int) *layout.Tree {
	ws = min(max(ws, 1), Workspaces)
	if ss.layouts[ws-1] == nil {
		ss.layouts[ws-1] = layout.New()
	}
	return ss.layouts[ws-1]
}

// syncLayoutsLocked makes each workspace's tree hold exactly the windows on
// that workspace (popups float over the tiles and are in none): a window
// gone or moved away leaves its tree, one new or moved in is placed
// automatically, in list order. Called with s.mu held.
func syncLayoutsLocked(ss *Session) {
	where := make(map[string]int, len(ss.windows))
	for _, w := range ss.windows {
		if w.popup == nil {
			where[w.ID] = min(max(w.workspace, 1), Workspaces)
		}
	}
	for i, t := range ss.layouts {
		if t == nil || t.Len() == 0 {
			continue
		}
		for _, id := range t.IDs() {
			if where[id] != i+1 {
				t.Remove(id)
			}
		}
	}
	for _, w := range ss.windows {
		if ws, ok := where[w.ID]; ok {
			if t := ss.layoutLocked(ws); !t.Has(w.ID) {
				t.Add(w.ID)
			}
		}
	}
}

// moveLayoutsLocked renumbers the trees with their workspaces: to[old] = new
// (set-workspace-order, herdr's tab.move). Called with s.mu held.
func (ss *Session) moveLayoutsLocked(to []int) {
	var moved [Workspaces]*layout.Tree
	for old := 1; old <= Workspaces; old++ {
		n := old
		if old < len(to) && to[old] >= 1 && to[old] <= Workspaces {
			n = to[old]
		}
		moved[n-1] = ss.layouts[old-1]
	}
	ss.layouts = moved
}

// onScreen is the session's windows on screen (the current workspace's,
// not minimized, in list order) and the index of the zoomed one (-1: not
// zoomed, or the focused window is not among them). It brings the trees
// up to date first. Called with s.mu held.
func onScreen(ss *Session) ([]*Window, int) {
	syncLayoutsLocked(ss)
	var wins []*Window
	zoom := -1
	for _, w := range ss.windows {
		if w.workspace != ss.workspace || w.minimized || w.popup != nil { // a popup floats over the tiles (popup.go)
			continue
		}
		if ss.zoomed && w == ss.focused {
			zoom = len(wins)
		}
		wins = append(wins, w)
	}
	return wins, zoom
}

// placeTreeLocked lays workspace ws's tree out in the session's area with the
// windows in shown on screen; focus is the window kept first when not
// all fit. Called with s.mu held.
func placeTreeLocked(ss *Session, ws int, shown []*Window, focus string) layout.Placement {
	on := make(map[string]bool, len(shown))
	for _, w := range shown {
		on[w.ID] = true
	}
	return ss.layoutLocked(ws).Place(ss.cols, ss.rows, func(id string) bool { return on[id] }, focus)
}

// layoutRects are the places of onScreen's windows: their tiles (a zero
// rect for one that does not fit the area), or in a floating session
// (set-layout --tiling false) the place each already has, cut to the
// area; one never placed takes the top-left corner at its size. Zoom
// fills the area either way, and the others get a zero rect. Called with
// s.mu held.
func layoutRects(ss *Session, wins []*Window, zoom int) []rect {
	out := make([]rect, len(wins))
	full := rect{W: max(ss.cols, 1), H: max(ss.rows, 1)}
	if !ss.floating {
		placed := placeTreeLocked(ss, ss.workspace, wins, focusedID(ss)) // kept up to date while zoomed: a split measures it
		if zoom >= 0 && zoom < len(wins) {
			out[zoom] = full
			return out
		}
		for i, w := range wins {
			out[i] = placed.Rects[w.ID]
		}
		return out
	}
	for i, w := range wins {
		switch {
		case i == zoom:
			out[i] = full
		case zoom >= 0: // behind the zoomed window
		default:
			r := w.placementLocked()
			if !w.placed {
				r.H++ // the pane's rows and its title row
			}
			out[i] = clampRect(r, ss.cols, ss.rows)
		}
	}
	return out
}

// clampRect cuts r to a cols x rows area, moving it in before shrinking it.
func clampRect(r rect, cols, rows int) rect {
	cols, rows = max(cols, 1), max(rows, 1)
	r.W = min(max(r.W, layout.MinCols), cols)
	r.H = min(max(r.H, layout.MinRows), rows)
	r.X = max(min(r.X, cols-r.W), 0)
	r.Y = max(min(r.Y, rows-r.H), 0)
	return r
}

// neighborOfLocked is the window beside w in direction dir among the tiles on
// screen: touching that side (side-by-side tiles a border column apart),
// overlapping it the most (ties: the upper or left one). herdr's
// pane.neighbor, pane.edges and pane.focus_direction and focus-window
// --direction all ask it. Called with s.mu held; nil when there is none,
// and always when no client shows the session, since its panes then have
// no places.
func (s *Table) neighborOfLocked(w *Window, dir string) *Window {
	ss := w.session
	if !ss.tiled || !s.attach.Shows(ss) || ss.zoomed {
		return nil
	}
	wins, zoom := onScreen(ss)
	rects := layoutRects(ss, wins, zoom)
	var a rect
	for i, x := range wins {
		if x == w {
			a = rects[i]
		}
	}
	if a.W == 0 {
		return nil
	}
	overlap := func(lo1, hi1, lo2, hi2 int) int { return min(hi1, hi2) - max(lo1, lo2) }
	beside := func(leftEnd, rightStart int) bool {
		return rightStart-leftEnd >= 0 && rightStart-leftEnd <= layout.Gutter
	}
	var best *Window
	var bestAt rect
	bestOv := 0
	for i, x := range wins {
		b := rects[i]
		if x == w || b.W == 0 {
			continue
		}
		ov := 0
		switch dir {
		case "left":
			if beside(b.X+b.W, a.X) {
				ov = overlap(a.Y, a.Y+a.H, b.Y, b.Y+b.H)
			}
		case "right":
			if beside(a.X+a.W, b.X) {
				ov = overlap(a.Y, a.Y+a.H, b.Y, b.Y+b.H)
			}
		case "up":
			if b.Y+b.H == a.Y {
				ov = overlap(a.X, a.X+a.W, b.X, b.X+b.W)
			}
		case "down":
			if a.Y+a.H == b.Y {
				ov = overlap(a.X, a.X+a.W, b.X, b.X+b.W)
			}
		}
		if ov > bestOv || ov > 0 && ov == bestOv && (b.Y < bestAt.Y || b.Y == bestAt.Y && b.X < bestAt.X) {
			best, bestOv, bestAt = x, ov, b
		}
	}
	return best
}

type resizeJob struct {
	w          *Window
	cols, rows int
}

// Retile places the session's windows on screen and sizes their PTYs and
// screens to their tiles. Windows off screen keep their size. Retiles of
// one session run one at a time (ss.tileMu) so the last placement is the
// last resize, and the resizes run without s.mu: a screen resize waits
// for the pane's writer.
func (s *Table) Retile(ss *Session) {
	ss.tileMu.Lock()
	defer ss.tileMu.Unlock()
	s.mu.Lock()
	if s.sessions[ss.Name] != ss || !ss.tiled {
		s.mu.Unlock()
		return
	}
	wins, zoom := onScreen(ss)
	rects := layoutRects(ss, wins, zoom)
	var jobs []resizeJob
	for i, w := range wins {
		r := rects[i]
		if r.W == 0 {
			continue // behind the zoomed window
		}
		if !ss.floating || i != zoom { // a floating window zoomed keeps its place for after
			w.tile, w.placed = r, true
		}
		if pc, pr := r.W, max(r.H-1, 1); pc != w.cols || pr != w.rows {
			w.cols, w.rows = pc, pr
			jobs = append(jobs, resizeJob{w, pc, pr})
		}
	}
	jobs = append(jobs, placePopupsLocked(ss)...) // popup.go
	s.mu.Unlock()
	for _, j := range jobs {
		// The screen first: the program redraws on SIGWINCH, and that
		// output must land on a grid of the new size.
		j.w.pane.Screen().Resize(j.cols, j.rows)
		j.w.proc.Resize(j.cols, j.rows)
	}
	s.attach.LayoutChanged()
	for _, j := range jobs {
		s.attach.Output(j.w, false)
	}
}

// placementLocked is a window's tile for list-windows: its place once tiled,
// else its pane's size at the origin. Called with s.mu held.
func (w *Window) placementLocked() rect {
	if w.placed {
		return w.tile
	}
	return rect{W: w.cols, H: w.rows}
}

// LayoutVerbs adds resize to the verb table.
func (s *Table) LayoutVerbs(add AddFunc) {
	p, h := handler(func(cn Call, p *proto.ResizeParams) (any, *proto.Error) {
		s.mu.Lock()
		ss, err := s.session(cn, p.Session)
		if err == nil {
			ss.cols, ss.rows, ss.tiled = p.Cols, p.Rows, true
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		s.attach.Sized(cn.PeerPID(), ss, p.Cols, p.Rows)
		s.Retile(ss)
		return proto.Resized{Type: "resized", Session: ss.Name, Cols: p.Cols, Rows: p.Rows}, nil
	})
	add("resize", drpc.Arranges, "Set a session's area (what an attached client shows) and tile its windows into it: each tile is a title row and the pane, side-by-side tiles a border column apart", "resized",
		`{"verb":"resize","params":{"session":"work","cols":200,"rows":50}}`, p, h)
}

// LayoutSnapshot copies what an attached client's layout of ss needs of
// the table (daemon's attach_stream.go's buildLayout reads the agent states after,
// without the lock): the tiles on screen and their windows, the popups,
// the workspaces and the rail's sessions and panes. alive is false once
// the session is gone.
func (s *Table) LayoutSnapshot(ss *Session) (lay proto.AttachLayout, wins []*Window, refs []PaneRef, alive bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sessions[ss.Name] != ss {
		return lay, nil, nil, false
	}
	on, zoom := onScreen(ss)
	rects := layoutRects(ss, on, zoom) // layout.go: tiles, or kept places when floating
	lay = proto.AttachLayout{Type: "layout", Session: ss.Name, Workspace: ss.workspace, Zoomed: zoom >= 0, Cols: ss.cols, Rows: ss.rows,
		Windows: []proto.AttachWindow{}, Agents: []proto.AttachAgent{}}
	if f := ss.focused; f != nil && f.workspace == ss.workspace {
		lay.Focused = f.ID
	}
	index := map[*Window]int{}
	for i, w := range ss.windows {
		index[w] = i
	}
	tileAt := map[*Window]int{}
	for i, w := range on {
		r := rects[i]
		if r.W == 0 {
			if zoom < 0 {
				lay.Hidden++ // layout.go: too small an area for it
			}
			continue
		}
		_, exited := w.term.Printed()
		tileAt[w] = len(lay.Windows)
		lay.Windows = append(lay.Windows, proto.AttachWindow{ID: w.ID, Index: index[w], Name: w.DisplayName(), Title: w.Title(),
			X: r.X, Y: r.Y, Width: r.W, Height: r.H, Exited: exited})
		wins = append(wins, w)
	}
	wins = appendPopups(ss, &lay, wins, index, tileAt) // popup.go: over the tiles, and focused
	for n := 1; n <= Workspaces; n++ {
		lay.Workspaces = append(lay.Workspaces, proto.AttachWorkspace{N: n, Name: ss.wsNames[n]})
	}
	for si, x := range s.sessionsSorted() {
		lay.Sessions = append(lay.Sessions, proto.AttachSession{Name: x.Name, DisplayName: x.displayName, Accent: x.accent, Windows: len(x.windows), Current: x == ss,
			Group: s.groupOfLocked(x)})
		for _, w := range x.windows {
			at, ok := tileAt[w]
			if !ok {
				at = -1
			}
			refs = append(refs, PaneRef{ID: w.ID, Session: x.Name, Name: w.DisplayName(), Workspace: w.workspace, SI: si, Mine: x == ss, TileAt: at})
			if x == ss {
				lay.Workspaces[w.workspace-1].Windows++
			}
		}
	}
	return lay, wins, refs, true
}

// SetSessionSize gives live session ss the area cols x rows; false when
// that changes nothing (the caller retiles it when it does).
func (s *Table) SetSessionSize(ss *Session, cols, rows int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := s.sessions[ss.Name] == ss && (ss.cols != cols || ss.rows != rows)
	if changed {
		ss.cols, ss.rows = cols, rows
	}
	return changed
}

// ShowSession is attach's hold on the session the caller names: the
// client's size, if it gave one, becomes its area, it is tiled from here
// on, and a stream makes it the most recently used.
func (s *Table) ShowSession(cn Call, name string, cols, rows *int, stream bool) (*Session, int, int, *proto.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, err := s.session(cn, name)
	if err != nil {
		return nil, 0, 0, err
	}
	if cols != nil {
		ss.cols = *cols
	}
	if rows != nil {
		ss.rows = *rows
	}
	ss.tiled = true
	if stream {
		ss.active = nowTime()
	}
	return ss, ss.cols, ss.rows, nil
}

// PaneRef is what the layout needs of one window, copied under s.mu.
type PaneRef struct {
	ID, Session, Name string
	Workspace, SI     int  // si: the session's index in the rail
	Mine              bool // in the stream's session
	TileAt            int  // index in the layout's windows, -1 when off screen
}
