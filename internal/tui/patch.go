package tui

import "github.com/tuios/tuios/internal/proto"

// A key's echo changes one row of one pane. Composing the whole terminal
// for it (the rail, every tile, the dock: some 5,000 cells copied and
// compared) costs many times what the row does, so the driver patches
// instead when it can: if every message since the last full compose only
// changed the rows of visible panes (a screen line of the same size, or
// a key typed into the focused pane), those rows are put into the frame
// again where that compose put them, and only those frame rows are
// painted. A changed row that something drawn later covers in part (a
// popup, an overlay) takes a full compose. Anything else (a layout, a key that opens something, a reply,
// a resize) makes the next frame a full compose. Tests check that a
// patched frame equals a full compose of the same model.

// patchState is what changed since the frame was composed.
type patchState struct {
	// valid: a compose drew the frame and every change since can be
	// patched.
	valid bool
	// patchable is set by an Update whose changes a patch draws; reset
	// before each.
	patchable bool
	// owed are the pane rows changed since, by window; all marks a pane
	// whose every row changed.
	owed map[string][]bool
	all  map[string]bool
}

// fresh starts over after a full compose.
func (s *patchState) fresh() {
	s.valid = true
	for id, rows := range s.owed {
		clear(rows)
		s.owed[id] = rows
	}
	clear(s.all)
}

// owe notes that row y of window id's pane (rows tall) changed.
func (s *patchState) owe(id string, y, rows int) {
	if s.owed == nil {
		s.owed, s.all = map[string][]bool{}, map[string]bool{}
	}
	o := s.owed[id]
	if len(o) != rows {
		o = make([]bool, rows)
		s.owed[id] = o
	}
	if y >= 0 && y < rows {
		o[y] = true
	}
}

// oweAll notes that every row of window id's pane changed.
func (s *patchState) oweAll(id string) {
	if s.all == nil {
		s.owed, s.all = map[string][]bool{}, map[string]bool{}
	}
	s.all[id] = true
}

func (s *patchState) owes(id string, r int) bool {
	if s.all[id] {
		return true
	}
	o := s.owed[id]
	return r >= 0 && r < len(o) && o[r]
}

// nextFrame is the frame to draw: the last one patched when it can be,
// else a full compose.
func (m *Model) nextFrame() *frame {
	if !m.draw.valid || m.draw.fr.w != m.width || m.draw.fr.h != m.height || m.width <= 0 || m.height <= 0 {
		return m.compose()
	}
	f := &m.draw.fr
	if len(f.dirty) != f.h {
		f.dirty = make([]bool, f.h)
	}
	clear(f.dirty)
	for y := range f.holes {
		for _, h := range f.holes[y] {
			if !m.draw.owes(h.id, h.r) {
				continue
			}
			p := m.panes[h.id]
			if h.covered || p == nil || h.r >= len(p.rows) {
				// Partly under something drawn after it (a popup, an
				// overlay), or not the pane the compose drew.
				return m.compose()
			}
			f.put(h.x, y, p.rows[h.r], h.w, cellStyle{})
			m.selectCells(h.id, h.r, h.x, y, h.w)
			f.dirty[y] = true
		}
	}
	m.draw.fresh()
	return f
}

// screenPatchable reports whether a screen message only changes the rows
// it carries of a pane the client already has at that size, and notes
// them. Called before the message is applied.
func (m *Model) screenPatchable(s proto.AttachScreen) bool {
	p := m.panes[s.Window]
	if p == nil || p.cols != s.Cols || len(p.rows) != s.Rows {
		return false
	}
	if s.Full && len(s.Lines) < s.Rows {
		m.draw.oweAll(s.Window)
		return true
	}
	for _, l := range s.Lines {
		m.draw.owe(s.Window, l.Y, s.Rows)
	}
	return true
}
