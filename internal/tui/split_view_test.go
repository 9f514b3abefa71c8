package tui

import (
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/proto"
)

// cellAt is the character drawn at area column x (the rail is 24 wide)
// of screen row y.
func cellAt(m *Model, x, y int) string {
	rows := plain(m)
	r := []rune(rows[y])
	if 24+x >= len(r) {
		return ""
	}
	return string(r[24+x])
}

func splitLayout(hidden int, ws ...proto.AttachWindow) proto.AttachLayout {
	return proto.AttachLayout{Type: "layout", Session: "work", Workspace: 1, Focused: ws[len(ws)-1].ID, Cols: 80, Rows: 19,
		Windows: ws, Workspaces: []proto.AttachWorkspace{{N: 1, Windows: len(ws) + hidden}},
		Sessions: []proto.AttachSession{{Name: "work", Windows: len(ws) + hidden, Current: true}}, Hidden: hidden}
}

// Borders with stacked tiles: a side-by-side split under a full-width
// tile starts at its title bars (┬) and does not run up into the tile
// above; one over a full-width tile ends on its title bar (┴); stacked
// tiles have no border between them.
func TestBordersJoinStackedTiles(t *testing.T) {
	m, _, _ := newTest(t, Options{})
	m.Update(splitLayout(0,
		proto.AttachWindow{ID: "a", Index: 0, Name: "top", X: 0, Y: 0, Width: 80, Height: 10},
		proto.AttachWindow{ID: "b", Index: 1, Name: "left", X: 0, Y: 10, Width: 40, Height: 9},
		proto.AttachWindow{ID: "c", Index: 2, Name: "right", X: 41, Y: 10, Width: 39, Height: 9}))
	if g := cellAt(m, 40, 10); g != "┬" {
		t.Errorf("the split's top under a stacked tile is %q, want ┬", g)
	}
	if g := cellAt(m, 40, 14); g != "│" {
		t.Errorf("the border is %q, want │", g)
	}
	for y := 0; y < 10; y++ {
		if g := cellAt(m, 40, y); g == "│" || g == "┼" || g == "┬" {
			t.Errorf("row %d of the top tile has the border %q", y, g)
		}
	}

	m.Update(splitLayout(0,
		proto.AttachWindow{ID: "a", Index: 0, Name: "left", X: 0, Y: 0, Width: 40, Height: 10},
		proto.AttachWindow{ID: "b", Index: 1, Name: "right", X: 41, Y: 0, Width: 39, Height: 10},
		proto.AttachWindow{ID: "c", Index: 2, Name: "bottom", X: 0, Y: 10, Width: 80, Height: 9}))
	if g := cellAt(m, 40, 0); g != "┬" {
		t.Errorf("the top of the border is %q, want ┬", g)
	}
	if g := cellAt(m, 40, 9); g != "│" {
		t.Errorf("the border's last row is %q, want │", g)
	}
	m.Update(splitLayout(0,
		proto.AttachWindow{ID: "a", Index: 0, Name: "left", X: 0, Y: 0, Width: 40, Height: 10},
		proto.AttachWindow{ID: "c", Index: 2, Name: "bottom", X: 0, Y: 10, Width: 80, Height: 9},
		proto.AttachWindow{ID: "b", Index: 1, Name: "right", X: 41, Y: 0, Width: 39, Height: 10}))
	if g := cellAt(m, 40, 10); g != "┴" {
		t.Errorf("where the border ends on the bottom tile's title bar: %q, want ┴\n%s", g, strings.Join(plain(m), "\n"))
	}
}

// Windows that do not fit the area are counted in the focused title bar.
func TestTilesNotShownAreCounted(t *testing.T) {
	m, _, _ := newTest(t, Options{})
	m.Update(splitLayout(2, proto.AttachWindow{ID: "a", Index: 0, Name: "sh", X: 0, Y: 0, Width: 80, Height: 19}))
	if top := plain(m)[0]; !strings.Contains(top, "0:sh  [+2 not shown: too small]") {
		t.Errorf("the title bar: %q", top)
	}
	m.Update(splitLayout(0, proto.AttachWindow{ID: "a", Index: 0, Name: "sh", X: 0, Y: 0, Width: 80, Height: 19}))
	if top := plain(m)[0]; strings.Contains(top, "not shown") {
		t.Errorf("nothing hidden, still the note: %q", top)
	}
}
