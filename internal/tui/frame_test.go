package tui

import (
	"strings"
	"testing"

	"github.com/tuios/tuios/vt"
)

// styleOf is the style of the first cell of text where it first shows on
// row y of m's frame; ok is false when the row does not show it.
func styleOf(m *Model, y int, text string) (cellStyle, bool) {
	f := m.compose()
	row := f.row(y)
	var plain strings.Builder
	var at []int // plain's byte offset -> cell index
	for i, c := range row {
		if c.width == 0 {
			continue
		}
		t := f.cl.text(c.r)
		for range len(t) {
			at = append(at, i)
		}
		plain.WriteString(t)
	}
	k := strings.Index(plain.String(), text)
	if k < 0 {
		return cellStyle{}, false
	}
	return row[at[k]].st, true
}

// hasAttrs says whether text shows on row y with every attribute of want.
func hasAttrs(m *Model, y int, text string, want vt.Attr) bool {
	st, ok := styleOf(m, y, text)
	return ok && st.attrs&want == want
}

func TestDrawStyledReadsEverySGR(t *testing.T) {
	t.Parallel()
	row := make([]cell, 12)
	n, end := drawStyled(row, "\x1b[1;3;4:3;58:2::1:2:3;38;5;208;48;2;10;20;30mA\x1b[22;23;24;59;39;49;9mB\x1b[0;2;5;7;8;53mC\x1b[4:4mD\x1b[21mE\x1b[38:2:1:2:3mF", cellStyle{}, nil)
	if n != 6 {
		t.Fatalf("%d cells", n)
	}
	want := []cellStyle{
		{fg: vt.IndexColor(208), bg: vt.RGBColor(10, 20, 30), ul: vt.RGBColor(1, 2, 3), attrs: vt.AttrBold | vt.AttrItalic | vt.AttrCurlyUnderline},
		{attrs: vt.AttrStrike},
		{attrs: vt.AttrDim | vt.AttrBlink | vt.AttrReverse | vt.AttrInvisible},
		{attrs: vt.AttrDim | vt.AttrBlink | vt.AttrReverse | vt.AttrInvisible | vt.AttrDottedUnderline},
		{attrs: vt.AttrDim | vt.AttrBlink | vt.AttrReverse | vt.AttrInvisible | vt.AttrDoubleUnderline},
		{fg: vt.RGBColor(1, 2, 3), attrs: vt.AttrDim | vt.AttrBlink | vt.AttrReverse | vt.AttrInvisible | vt.AttrDoubleUnderline},
	}
	for i, w := range want {
		if row[i].st != w {
			t.Errorf("cell %d %q: %+v, want %+v", i, row[i].r, row[i].st, w)
		}
	}
	if end != want[5] {
		t.Errorf("end style %+v", end)
	}
}

// The text a frame turns back into, read by vt, has every cell's
// rendition: the frame's text and its cells agree.
func TestFrameStringRoundTrips(t *testing.T) {
	t.Parallel()
	var cl clusters
	var f frame
	f.reset(10, 2)
	f.cl = &cl
	c := textCache{cl: &cl}
	c.turn()
	f.text(&c, 0, 0, 10, "\x1b[31;1mred\x1b[m 世e\u0301\x1b[48;5;99mxy")
	f.text(&c, 0, 1, 10, "\x1b[38;2;1;2;3;4:5;58;5;3mtrue")
	sc := vt.New(vt.Options{Cols: 10, Rows: 2})
	sc.Write([]byte(strings.ReplaceAll(f.String(), "\n", "\r\n")))
	got := sc.Capture(vt.CaptureOptions{ANSI: true})
	var g frame
	g.reset(10, 2)
	c2 := textCache{cl: &cl}
	c2.turn()
	for y, l := range strings.Split(strings.TrimRight(got, "\n"), "\n") {
		g.text(&c2, 0, y, 10, l)
	}
	for i := range f.cells {
		if f.cells[i] != g.cells[i] {
			t.Errorf("cell %d: %+v, after vt %+v", i, f.cells[i], g.cells[i])
		}
	}
}

// put never leaves half a wide character at either edge of what it
// draws, nor past the row.
func TestPutKeepsWideCharactersWhole(t *testing.T) {
	t.Parallel()
	src := make([]cell, 6)
	n, _ := drawStyled(src, "世界ab", cellStyle{}, nil)
	src = src[:n]
	for x := -2; x <= 8; x++ {
		for w := 1; w <= 8; w++ {
			var f frame
			f.reset(8, 1)
			var c textCache
			c.turn()
			f.text(&c, 0, 0, 8, "界界界界")
			f.put(x, 0, src, w, cellStyle{})
			row := f.row(0)
			for i, cl := range row {
				if cl.width == 2 && (i+1 >= len(row) || row[i+1].width != 0) {
					t.Fatalf("x=%d w=%d: a wide cell at %d without its right half: %+v", x, w, i, row)
				}
				if cl.width == 0 && (i == 0 || row[i-1].width != 2) {
					t.Fatalf("x=%d w=%d: a right half at %d without its left: %+v", x, w, i, row)
				}
			}
		}
	}
}

func FuzzDrawStyled(f *testing.F) {
	for _, s := range []string{"\x1b[1;38:2::1:2:3mA", "\x1b[4:3:5:6;58;5mB", "\x1b]8;;http://x\x07link\x1b]8;;\x1b\\", "世\xffa\x1b[", "\x1b[38;2;1m", "e\u0301\u200d"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, w int) {
		w = min(max(w, 0), 64)
		row := make([]cell, w)
		var cl clusters
		n, _ := drawStyled(row, s, cellStyle{}, &cl)
		if n > w {
			t.Fatalf("%d cells into %d", n, w)
		}
		cols := 0
		for _, c := range row[:n] {
			cols++
			if c.width == 2 && cols == n {
				t.Fatalf("a wide cell cut at the end: %+v", row[:n])
			}
		}
	})
}
