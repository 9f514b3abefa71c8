package tui

import (
	"math/rand/v2"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/tuios/tuios/vt"
)

// looksSame compares what a person sees of a cell: a blank shows only its
// background unless reversed or lined, as the painter assumes.
func looksSame(got vt.Cell, want cell, cl *clusters) bool {
	if got.Content != cl.text(want.r) && !(want.width == 0 && got.Width == 0) {
		return false
	}
	gs := cellStyle{fg: got.Style.Fg, bg: got.Style.Bg, ul: got.Style.Ul, attrs: got.Style.Attrs}
	const shows = vt.AttrReverse | vt.AttrStrike | underlines
	if want.r == ' ' && (gs.attrs|want.st.attrs)&shows == 0 {
		return gs.bg == want.st.bg
	}
	return gs == want.st
}

// randomFrame fills f with cells from a small alphabet of characters
// (a wide one among them) and renditions, so that frames in a row share
// much and differ some.
func randomFrame(rng *rand.Rand, f *frame, cl *clusters, c *textCache) {
	f.reset(f.w, f.h)
	styles := []string{"", "\x1b[1m", "\x1b[31m", "\x1b[1;4;32m", "\x1b[7m", "\x1b[48;5;200m", "\x1b[38;2;1;2;3;4:3;58;5;9m", "\x1b[2;9m", "\x1b[44m"}
	texts := []string{" ", "a", "b", "世", "  ", "xyz"}
	for y := 0; y < f.h; y++ {
		if rng.IntN(3) == 0 {
			continue // a row left as it was drawn last (blank)
		}
		s := ""
		for len(s) < f.w*3 {
			s += styles[rng.IntN(len(styles))] + texts[rng.IntN(len(texts))]
		}
		f.text(c, 0, y, f.w, s)
	}
}

// Painting a run of frames onto a terminal (vt) leaves the terminal
// showing each frame, whatever changed between them, in every profile.
func TestPainterLeavesTheTerminalShowingTheFrame(t *testing.T) {
	t.Parallel()
	for _, prof := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI, colorprofile.ASCII} {
		rng := rand.New(rand.NewPCG(1, uint64(prof)))
		var cl clusters
		c := textCache{cl: &cl}
		p := newPainter(prof)
		sc := vt.New(vt.Options{Cols: 20, Rows: 6})
		f := frame{w: 20, h: 6, cl: &cl}
		for i := 0; i < 300; i++ {
			c.turn()
			randomFrame(rng, &f, &cl, &c)
			out := p.paint(nil, &f)
			sc.Write(out)
			want := f
			if prof < colorprofile.TrueColor {
				// The terminal shows the down-sampled frame.
				want.cells = append([]cell(nil), f.cells...)
				for k := range want.cells {
					want.cells[k].st = p.downOf(want.cells[k].st)
				}
			}
			for y := 0; y < f.h; y++ {
				for x := 0; x < f.w; x++ {
					if got, w := sc.Cell(x, y), want.row(y)[x]; !looksSame(got, w, &cl) {
						t.Fatalf("profile %v frame %d: cell %d,%d shows %q %+v, want %q %+v; output %q", prof, i, x, y, got.Content, got.Style, cl.text(w.r), w.st, out)
					}
				}
			}
		}
	}
}

// A frame equal to the last writes nothing.
func TestPainterWritesNothingForAnUnchangedFrame(t *testing.T) {
	t.Parallel()
	var cl clusters
	c := textCache{cl: &cl}
	c.turn()
	p := newPainter(colorprofile.TrueColor)
	f := frame{w: 10, h: 2, cl: &cl}
	f.reset(10, 2)
	f.text(&c, 0, 0, 10, "\x1b[31mred")
	p.paint(nil, &f)
	if out := p.paint(nil, &f); len(out) != 0 {
		t.Fatalf("an unchanged frame wrote %q", out)
	}
	f.text(&c, 0, 1, 10, "x")
	if out := string(p.paint(nil, &f)); out != "\x1b[2Hx" && out != "\x1b[m\x1b[2Hx" && out != "\x1b[2H\x1b[mx" {
		t.Fatalf("one changed cell wrote %q", out)
	}
}
