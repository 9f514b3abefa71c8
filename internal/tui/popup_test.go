package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
)

// withPopup adds a 30x8 popup at 10,4 of newTest's area, focused, with
// "picked" on its first row and its cursor after it.
func withPopup(t *testing.T, m *Model) {
	t.Helper()
	lay := m.layout
	lay.Windows = append(append([]proto.AttachWindow{}, lay.Windows...),
		proto.AttachWindow{ID: "pp", Index: 2, Name: "fzf", X: 10, Y: 4, Width: 30, Height: 8, Popup: true})
	lay.Focused = "pp"
	m.Update(lay)
	m.Update(proto.AttachScreen{Type: "screen", Window: "pp", Cols: 28, Rows: 6, Full: true,
		Lines:  []proto.AttachLine{{Y: 0, Text: "\x1b[33mpicked\x1b[m" + strings.Repeat(" ", 22)}},
		Cursor: proto.AttachCursor{X: 6, Y: 0, Visible: true}})
}

func TestPopupDrawsFramedOverTheTiles(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	withPopup(t, m)
	rows := plain(m)
	area := func(y int) string { return string([]rune(rows[y])[railWidth:]) }
	for y, l := range rows[:19] {
		if w := ansi.StringWidth(l); w != 104 {
			t.Fatalf("row %d is %d cells wide, not 104: %q", y, w, l)
		}
	}
	top, pane, bottom := area(4), area(5), area(11)
	if r := []rune(top); !strings.HasPrefix(string(r[10:]), "┌─ fzf ─") || string(r[39]) != "┐" {
		t.Errorf("top edge: %q", top)
	}
	if r := []rune(pane); string(r[10]) != "│" || string(r[11:17]) != "picked" || string(r[39]) != "│" {
		t.Errorf("pane row: %q", pane)
	}
	if r := []rune(bottom); string(r[10]) != "└" || string(r[39]) != "┘" {
		t.Errorf("bottom edge: %q", bottom)
	}
	// Around it the tiles still show: the left tile's title and the
	// right tile's border beyond the popup.
	if !strings.Contains(area(0), "0:shell") || !strings.Contains(area(2), "hi") {
		t.Errorf("the tiles around the popup: %q / %q", area(0), area(2))
	}
	// The cursor is the popup's, inside its frame.
	if c := m.cursor(); c == nil || c.X != railWidth+10+1+6 || c.Y != 4+1 {
		t.Errorf("cursor %+v, want %d,5", c, railWidth+17)
	}

	// Keys go to the popup.
	m.Update(key("y"))
	if c := fc.last(t, "send-text"); c.params["window"] != "pp" || c.params["text"] != "y" {
		t.Fatalf("typing went to %v", c.params)
	}
	// A click inside its pane reaches its program when it asks for the
	// mouse; on its frame it does nothing.
	m.panes["pp"].modes = proto.AttachModes{Mouse: "normal", MouseSGR: true}
	n := len(fc.calls)
	m.Update(tea.MouseClickMsg{X: railWidth + 10, Y: 6, Button: tea.MouseLeft})
	if len(fc.calls) != n {
		t.Fatalf("a click on the frame did something: %+v", fc.calls[n:])
	}
	m.Update(tea.MouseClickMsg{X: railWidth + 12, Y: 6, Button: tea.MouseLeft})
	if c := fc.last(t, "send-text"); c.params["window"] != "pp" || c.params["text"] != "\x1b[<0;2;2M" {
		t.Fatalf("a click in the popup's pane sent %q", c.params["text"])
	}

	// esc without the prefix is the program's; in window mode it closes
	// the popup.
	m.Update(key("esc"))
	if c := fc.last(t, "send-text"); c.params["text"] != "\x1b" {
		t.Fatalf("esc typed %q", c.params["text"])
	}
	m.Update(key("ctrl+b"))
	m.Update(key("esc"))
	if c := fc.last(t, "close-window"); c.params["window"] != "pp" {
		t.Fatalf("close-window %v", c.params)
	}
}

// esc in window mode with no popup focused closes nothing.
func TestEscInWindowModeWithoutAPopup(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key("esc"))
	for _, c := range fc.calls {
		if c.verb == "close-window" {
			t.Fatalf("esc closed a tile: %+v", c)
		}
	}
}
