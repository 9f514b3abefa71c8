package tui

import (
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// patchWorld is two clients fed the same messages: one draws as the
// attach client does (nextFrame: patched when it can be), the other
// composes every frame in full. Each paints into a terminal emulator.
type patchWorld struct {
	t       *testing.T
	a, b    *Model
	sa, sb  *screen
	ta, tb  *vt.Screen
	patched int
}

func newPatchWorld(t *testing.T) *patchWorld {
	w := &patchWorld{t: t}
	for i, m := range []**Model{&w.a, &w.b} {
		clk := &fakeClock{}
		*m = NewModel(Options{Clock: clk}, &fakeCalls{}, 104, 20)
		term := vt.New(vt.Options{Cols: 104, Rows: 20})
		scr := newScreenProfile(term, colorprofile.TrueColor, 104, 20)
		scr.open = true
		if i == 0 {
			w.sa, w.ta = scr, term
		} else {
			w.sb, w.tb = scr, term
		}
	}
	return w
}

func (w *patchWorld) send(msg tea.Msg) {
	w.t.Helper()
	w.a.Update(msg)
	w.b.Update(msg)
	fa := w.a.nextFrame()
	fb := w.b.compose()
	if fa.dirty != nil {
		w.patched++
	}
	if !sameCells(fa.cells, fb.cells) {
		w.t.Fatalf("after %T the patched frame differs from a full compose:\npatched:\n%s\nfull:\n%s", msg, fa, fb)
	}
	w.sa.draw(fa, w.a.cursor(), w.a.mouseMode())
	w.sb.draw(fb, w.b.cursor(), w.b.mouseMode())
	ga, gb := w.ta.Capture(vt.CaptureOptions{ANSI: true}), w.tb.Capture(vt.CaptureOptions{ANSI: true})
	if ga != gb {
		w.t.Fatalf("after %T the terminal drawn from patches differs:\n%q\nfull:\n%q", msg, ga, gb)
	}
}

// A patched frame is always the full compose of the same model, and so
// is what reaches the terminal: through echoes, typing, selections, a
// popup over the tiles, the help over them, resizes of a pane and of the
// terminal.
func TestPatchedFramesEqualFullCompose(t *testing.T) {
	w := newPatchWorld(t)
	w.send(attachedMsg{nonce: "N1", session: "work"})
	tiles := []proto.AttachWindow{
		{ID: "w1", Index: 0, Name: "shell", X: 0, Y: 0, Width: 40, Height: 19},
		{ID: "w2", Index: 1, Name: "other", X: 41, Y: 0, Width: 39, Height: 19},
	}
	layout := func(extra ...proto.AttachWindow) proto.AttachLayout {
		return proto.AttachLayout{Type: "layout", Session: "work", Workspace: 1, Focused: "w1", Cols: 80, Rows: 19,
			Windows:    append(append([]proto.AttachWindow(nil), tiles...), extra...),
			Workspaces: []proto.AttachWorkspace{{N: 1, Windows: 2}},
			Sessions:   []proto.AttachSession{{Name: "work", Windows: 2, Current: true}}}
	}
	w.send(layout())
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"$ ", "ls", "\x1b[31mred\x1b[m", "\x1b[1;44mbold\x1b[m", "世界", "e\u0301", "🙂", "    ", "x"}
	rowText := func(cols int) string {
		var sb strings.Builder
		for n := rng.IntN(8); n > 0; n-- {
			sb.WriteString(words[rng.IntN(len(words))])
		}
		return sb.String()
	}
	sizes := map[string][2]int{"w1": {40, 18}, "w2": {39, 18}, "p1": {18, 5}}
	screenOf := func(id string, full bool) proto.AttachScreen {
		sz := sizes[id]
		s := proto.AttachScreen{Type: "screen", Window: id, Cols: sz[0], Rows: sz[1], Full: full,
			Cursor: proto.AttachCursor{X: rng.IntN(sz[0]), Y: rng.IntN(sz[1]), Visible: rng.IntN(4) > 0}}
		n := 1 + rng.IntN(3)
		if full {
			n = sz[1]
		}
		for i := 0; i < n; i++ {
			y := rng.IntN(sz[1])
			if full {
				y = i
			}
			s.Lines = append(s.Lines, proto.AttachLine{Y: y, Text: rowText(sz[0])})
		}
		return s
	}
	w.send(screenOf("w1", true))
	w.send(screenOf("w2", true))
	popup := false
	for i := 0; i < 600; i++ {
		switch k := rng.IntN(20); {
		case k < 9:
			id := []string{"w1", "w2"}[rng.IntN(2)]
			if popup && rng.IntN(3) == 0 {
				id = "p1"
			}
			w.send(screenOf(id, rng.IntN(10) == 0))
		case k < 13:
			w.send(key(string(rune('a' + rng.IntN(26)))))
		case k == 13:
			popup = !popup
			if popup {
				w.send(layout(proto.AttachWindow{ID: "p1", Index: 2, Name: "pop", X: 30, Y: 5, Width: 20, Height: 7, Popup: true}))
				w.send(screenOf("p1", true))
			} else {
				w.send(layout())
			}
		case k == 14:
			// A mouse selection over the left pane, then a key that
			// clears it.
			w.send(tea.MouseClickMsg{X: 24 + 2, Y: 2, Button: tea.MouseLeft})
			w.send(tea.MouseMotionMsg{X: 24 + 10, Y: 4, Button: tea.MouseLeft})
			w.send(screenOf("w1", false))
			w.send(tea.MouseReleaseMsg{X: 24 + 10, Y: 4, Button: tea.MouseLeft})
			w.send(screenOf("w1", false))
		case k == 15:
			// The help over the tiles, echoes under it, then closed.
			w.send(key("ctrl+b"))
			w.send(key("?"))
			w.send(screenOf("w1", false))
			w.send(screenOf("w2", false))
			w.send(key("esc"))
		case k == 16:
			// A pane resized: the next screen is another size.
			sz := sizes["w2"]
			sz[1] = 17 + rng.IntN(2)
			sizes["w2"] = sz
			w.send(screenOf("w2", true))
		case k == 17:
			h := 19 + rng.IntN(3)
			w.send(tea.WindowSizeMsg{Width: 104, Height: h})
			w.sa.resize(104, h)
			w.sb.resize(104, h)
			w.ta.Resize(104, h)
			w.tb.Resize(104, h)
		default:
			w.send(screenOf("w1", false))
		}
	}
	if w.patched < 300 {
		t.Errorf("only %d frames were patched: the test does not test patches", w.patched)
	}
}

// An echo is a patch: only the changed row is painted, and a key typed
// into the pane draws nothing until its echo comes.
func TestEchoIsPatched(t *testing.T) {
	m, scr := echoModel(t)
	cols, _ := m.AreaSize()
	var out strings.Builder
	scr.out = &out
	m.Update(key("a"))
	f := m.nextFrame()
	if f.dirty == nil {
		t.Fatal("a typed key composed the whole frame")
	}
	scr.draw(f, m.cursor(), m.mouseMode())
	if out.Len() != 0 {
		t.Fatalf("a typed key drew %q before its echo", out.String())
	}
	m.Update(proto.AttachScreen{Type: "screen", Window: "w1", Cols: cols, Rows: 38,
		Lines:  []proto.AttachLine{{Y: 0, Text: "$ a" + strings.Repeat(" ", cols-3)}},
		Cursor: proto.AttachCursor{X: 3, Y: 0, Visible: true}})
	f = m.nextFrame()
	n := 0
	for _, d := range f.dirty {
		if d {
			n++
		}
	}
	if f.dirty == nil || n != 1 {
		t.Fatalf("the echo patched %d rows (dirty %v)", n, f.dirty != nil)
	}
	scr.draw(f, m.cursor(), m.mouseMode())
	if !strings.Contains(out.String(), "a") || len(out.String()) > 40 {
		t.Fatalf("the echo wrote %q", out.String())
	}
	_ = io.Discard
}
