package daemon

import (
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
// A session is tiled only once a client has shown it (resize, or attach
// with a stream or a size): until then each pane keeps the whole area
// new-session gave it, so agents started by scripts in a session nobody
// looks at are not squeezed into columns for a screen nobody draws.

// Tile minimums: smaller than this a shell is useless. A window that does
// not fit is still placed (with the minimum, at the last slot of its
// column, overlapping it) rather than hidden, so nothing disappears from a
// small terminal without a trace.
const (
	minTileCols = 4
	minTileRows = 2
	// gutter is the column between side-by-side tiles.
	gutter = 1
)

type rect struct{ x, y, w, h int }

// tile places n windows in a cols x rows area: one fills it, two are side
// by side, more are a master on the left half with the others stacked on
// the right; the two columns are a gutter apart. With zoomIndex in [0,n) that window fills the area and the
// others get a zero rect (not on screen).
func tile(n, cols, rows int, zoomIndex int) []rect {
	if n <= 0 {
		return nil
	}
	out := make([]rect, n)
	full := rect{0, 0, max(cols, minTileCols), max(rows, minTileRows)}
	if zoomIndex >= 0 && zoomIndex < n {
		out[zoomIndex] = full
		return out
	}
	if n == 1 {
		out[0] = full
		return out
	}
	if cols < 2*minTileCols+gutter {
		// Too narrow for two columns: one column of all of them.
		stack(out, 0, 0, full.w, rows)
		return out
	}
	right := (cols - gutter) / 2
	left := cols - gutter - right
	if n == 2 {
		out[0] = rect{0, 0, left, full.h}
		out[1] = rect{left + gutter, 0, right, full.h}
		return out
	}
	out[0] = rect{0, 0, left, full.h}
	stack(out[1:], left+gutter, 0, right, rows)
	return out
}

// stack splits a column of height rows among out, top to bottom, the
// first ones taking the remainder; those that do not fit get the minimum
// at the column's last slot.
func stack(out []rect, x, y, w, rows int) {
	fit := len(out)
	if fit*minTileRows > rows {
		fit = max(rows/minTileRows, 1)
	}
	h, extra := rows/fit, rows%fit
	for i := 0; i < fit; i++ {
		hi := max(h, minTileRows)
		if i < extra {
			hi++
		}
		out[i] = rect{x, y, w, hi}
		y += hi
	}
	last := max(rows-minTileRows, 0)
	for i := fit; i < len(out); i++ {
		out[i] = rect{x, last, w, minTileRows}
	}
}

// onScreen is the session's windows on screen in tile order (the current
// workspace's, not minimized, in list order) and the index of the zoomed
// one (-1: not zoomed, or the focused window is not among them). Called
// with s.mu held.
func onScreen(ss *Session) ([]*Window, int) {
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

// layoutRects are the places of onScreen's windows: their tiles, or in a
// floating session (set-layout --tiling false) the place each already
// has, cut to the area; one never placed takes the top-left corner at
// its size. Zoom fills the area either way. Called with s.mu held.
func layoutRects(ss *Session, wins []*Window, zoom int) []rect {
	if !ss.floating {
		return tile(len(wins), ss.cols, ss.rows, zoom)
	}
	out := make([]rect, len(wins))
	for i, w := range wins {
		switch {
		case i == zoom:
			out[i] = rect{0, 0, max(ss.cols, minTileCols), max(ss.rows, minTileRows)}
		case zoom >= 0: // behind the zoomed window
		default:
			r := w.placement()
			if !w.placed {
				r.h++ // the pane's rows and its title row
			}
			out[i] = clampRect(r, ss.cols, ss.rows)
		}
	}
	return out
}

// clampRect cuts r to a cols x rows area, moving it in before shrinking it.
func clampRect(r rect, cols, rows int) rect {
	cols, rows = max(cols, minTileCols), max(rows, minTileRows)
	r.w = min(max(r.w, minTileCols), cols)
	r.h = min(max(r.h, minTileRows), rows)
	r.x = max(min(r.x, cols-r.w), 0)
	r.y = max(min(r.y, rows-r.h), 0)
	return r
}

// neighborOf is the window beside w in direction dir among the tiles on
// screen: touching that side, overlapping it the most (ties: the upper or
// left one). herdr's pane.neighbor, pane.edges and pane.focus_direction
// and focus-window --direction all ask it. Called with s.mu held; nil
// when there is none, and always when no client shows the session, since
// its panes then have no places.
func (s *Server) neighborOf(w *Window, dir string) *Window {
	ss := w.session
	if !ss.tiled || !s.attach.shows(ss) || ss.zoomed {
		return nil
	}
	wins, _ := onScreen(ss)
	on := false
	for _, x := range wins {
		on = on || x == w
	}
	if !on || !w.placed {
		return nil
	}
	a := w.tile
	overlap := func(lo1, hi1, lo2, hi2 int) int { return min(hi1, hi2) - max(lo1, lo2) }
	// Side by side means touching, or a gutter apart (tiled columns).
	beside := func(leftEnd, rightStart int) bool { return rightStart-leftEnd >= 0 && rightStart-leftEnd <= gutter }
	var best *Window
	bestOv := 0
	for _, x := range wins {
		if x == w || !x.placed {
			continue
		}
		b := x.tile
		ov := 0
		switch dir {
		case "left":
			if beside(b.x+b.w, a.x) {
				ov = overlap(a.y, a.y+a.h, b.y, b.y+b.h)
			}
		case "right":
			if beside(a.x+a.w, b.x) {
				ov = overlap(a.y, a.y+a.h, b.y, b.y+b.h)
			}
		case "up":
			if b.y+b.h == a.y {
				ov = overlap(a.x, a.x+a.w, b.x, b.x+b.w)
			}
		case "down":
			if a.y+a.h == b.y {
				ov = overlap(a.x, a.x+a.w, b.x, b.x+b.w)
			}
		}
		if ov > bestOv {
			best, bestOv = x, ov
		}
	}
	return best
}

type resizeJob struct {
	w          *Window
	cols, rows int
}

// retile places the session's windows on screen and sizes their PTYs and
// screens to their tiles. Windows off screen keep their size. Retiles of
// one session run one at a time (ss.tileMu) so the last placement is the
// last resize, and the resizes run without s.mu: a screen resize waits
// for the pane's writer.
func (s *Server) retile(ss *Session) {
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
		if r.w == 0 {
			continue // behind the zoomed window
		}
		if !ss.floating || i != zoom { // a floating window zoomed keeps its place for after
			w.tile, w.placed = r, true
		}
		if pc, pr := r.w, max(r.h-1, 1); pc != w.cols || pr != w.rows {
			w.cols, w.rows = pc, pr
			jobs = append(jobs, resizeJob{w, pc, pr})
		}
	}
	jobs = append(jobs, placePopups(ss)...) // popup.go
	s.mu.Unlock()
	for _, j := range jobs {
		// The screen first: the program redraws on SIGWINCH, and that
		// output must land on a grid of the new size.
		j.w.pane.Screen().Resize(j.cols, j.rows)
		j.w.proc.Resize(j.cols, j.rows)
	}
	s.attach.layoutChanged()
	for _, j := range jobs {
		s.attach.output(j.w, false)
	}
}

// placement is a window's tile for list-windows: its place once tiled,
// else its pane's size at the origin. Called with s.mu held.
func (w *Window) placement() rect {
	if w.placed {
		return w.tile
	}
	return rect{0, 0, w.cols, w.rows}
}

type resizeParams struct {
	Session string `json:"session" desc:"the session (default: most recently active)" maxlen:"4096"`
	Cols    int    `json:"cols" req:"true" desc:"the area's width in cells" min:"1" max:"1000"`
	Rows    int    `json:"rows" req:"true" desc:"the area's height in cells, title bars included" min:"1" max:"1000"`
}

func (s *Server) layoutVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *resizeParams) (any, *proto.Error) {
		s.mu.Lock()
		ss, err := s.session(cn, p.Session)
		if err == nil {
			ss.cols, ss.rows, ss.tiled = p.Cols, p.Rows, true
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		s.attach.sized(cn.peer, ss, p.Cols, p.Rows)
		s.retile(ss)
		return map[string]any{"type": "resized", "session": ss.Name, "cols": p.Cols, "rows": p.Rows}, nil
	})
	add("resize", arranges, "Set a session's area (what an attached client shows) and tile its windows into it: each tile is a title row and the pane, side-by-side tiles a border column apart", "resized",
		`{"verb":"resize","params":{"session":"work","cols":200,"rows":50}}`, p, h)
}
