package vt

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func boxesString(bs []Box) string {
	var b strings.Builder
	for _, x := range bs {
		b.WriteString(strings.Join([]string{
			"[", boxItoa(x.Top), ",", boxItoa(x.Left), "-", boxItoa(x.Bottom), ",", boxItoa(x.Right), "] ",
		}, ""))
		b.WriteString(strings.Join(x.Lines, "|"))
		b.WriteString("\n")
	}
	return b.String()
}

func boxItoa(n int) string {
	if n < 0 {
		return "-" + boxItoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return boxItoa(n/10) + string(rune('0'+n%10))
}

func TestBoxesSimple(t *testing.T) {
	lines := []string{
		"transcript text",
		"╭──────────────────╮",
		"│                  │",
		"│ Bash command     │",
		"│                  │",
		"│                  │",
		"│   rm -rf build   │",
		"│                  │",
		"│ 1. Yes   2. No   │",
		"│                  │",
		"╰──────────────────╯",
		"after",
	}
	got := BoxesInLines(lines)
	want := []Box{{Top: 1, Left: 0, Bottom: 10, Right: 19, Lines: []string{" Bash command", "", "   rm -rf build", "", " 1. Yes   2. No"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", boxesString(got), boxesString(want))
	}
	if got[0].Text() != " Bash command\n\n   rm -rf build\n\n 1. Yes   2. No" {
		t.Fatalf("Text() = %q", got[0].Text())
	}
}

func TestBoxesNested(t *testing.T) {
	lines := []string{
		"┌────────────────────────┐",
		"│ Outer title            │",
		"│  ╭──────────────╮      │",
		"│  │ inner words  │      │",
		"│  ╰──────────────╯      │",
		"│ footer                 │",
		"└────────────────────────┘",
	}
	got := BoxesInLines(lines)
	want := []Box{
		{Top: 0, Left: 0, Bottom: 6, Right: 25, Lines: []string{" Outer title", "  ╭──────────────╮", "  │ inner words  │", "  ╰──────────────╯", " footer"}},
		{Top: 2, Left: 3, Bottom: 4, Right: 18, Lines: []string{" inner words"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", boxesString(got), boxesString(want))
	}
	in := Innermost(got, func(b Box) bool { return strings.Contains(b.Text(), "inner") })
	if len(in) != 1 || in[0].Top != 2 {
		t.Fatalf("Innermost = %s", boxesString(in))
	}
	// Words only in the outer box: the outer one is kept.
	in = Innermost(got, func(b Box) bool { return strings.Contains(b.Text(), "footer") })
	if len(in) != 1 || in[0].Top != 0 {
		t.Fatalf("Innermost = %s", boxesString(in))
	}
	if all := Innermost(got, nil); len(all) != 1 || all[0].Top != 2 {
		t.Fatalf("Innermost(nil) = %s", boxesString(all))
	}
}

func TestBoxesWideChars(t *testing.T) {
	lines := []string{
		"╭──────────╮",
		"│ 日本語   │",
		"│ ok 👍 ✓  │",
		"╰──────────╯",
	}
	// Check the rows really line up in cells before relying on it.
	for i, l := range lines {
		if n := len(LineCells(l)); n != 12 {
			t.Fatalf("line %d is %d cells", i, n)
		}
	}
	got := BoxesInLines(lines)
	want := []Box{{Top: 0, Left: 0, Bottom: 3, Right: 11, Lines: []string{" 日本語", " ok 👍 ✓"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", boxesString(got), boxesString(want))
	}
	// A wide character before the box shifts its columns in cells.
	got = BoxesInLines([]string{"中╭─╮", "文│x│", "字╰─╯"})
	if len(got) != 1 || got[0].Left != 2 || got[0].Right != 4 || got[0].Lines[0] != "x" {
		t.Fatalf("got %s", boxesString(got))
	}
	// The same box given as cells, with "" continuation cells and "" for
	// unwritten cells that follow narrow ones.
	rows := [][]string{
		{"┏", "━", "━", "━", "━", "┓"},
		{"┃", "界", "", "", "a", "┃"},
		{"┃", "", "", "", "", "┃"},
		{"┃", "b", "", "c", "", "┃"},
		{"┗", "━", "━", "━", "━", "┛"},
	}
	got = FindBoxes(rows)
	want = []Box{{Top: 0, Left: 0, Bottom: 4, Right: 5, Lines: []string{"界 a", "", "b c"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", boxesString(got), boxesString(want))
	}
}

func TestBoxesSideBySide(t *testing.T) {
	lines := []string{
		"╭────╮  ╔═════╗",
		"│ a  │  ║ b   ║",
		"│    │  ║     ║",
		"╰────╯  ║ bb  ║",
		"        ╚═════╝",
	}
	got := BoxesInLines(lines)
	want := []Box{
		{Top: 0, Left: 8, Bottom: 4, Right: 14, Lines: []string{" b", "", " bb"}},
		{Top: 0, Left: 0, Bottom: 3, Right: 5, Lines: []string{" a"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", boxesString(got), boxesString(want))
	}
	if in := Innermost(got, func(Box) bool { return true }); len(in) != 2 {
		t.Fatalf("side-by-side boxes: Innermost = %d boxes", len(in))
	}
}

func TestBoxesUnclosedAndBroken(t *testing.T) {
	cases := map[string][]string{
		"no bottom":             {"╭───╮", "│ a │", "│ b │"},
		"no top-right":          {"╭────", "│ a │", "╰───╯"},
		"side missing":          {"╭───╮", "│ a  ", "╰───╯"},
		"bottom corners offset": {"╭───╮", "│ a │", "╰──╯ "},
		"bottom-right only":     {"╭───╮", "│ a │", "│───╯"},
		"empty":                 {},
		"tee is not a side":     {"╭───╮", "├───┤", "╰───╯"},
	}
	for name, lines := range cases {
		if got := BoxesInLines(lines); len(got) != 0 {
			t.Errorf("%s: got %s", name, boxesString(got))
		}
	}
	// An unclosed box around a closed one: only the closed one.
	got := BoxesInLines([]string{"╭──────╮", "│╭──╮  │", "││x │  │", "│╰──╯  │", "│      │"})
	if len(got) != 1 || got[0].Top != 1 || got[0].Lines[0] != "x" {
		t.Fatalf("got %s", boxesString(got))
	}
	// Mixed corner styles still make a box; an empty inside gives no lines.
	got = BoxesInLines([]string{"┌╮", "╚┛"})
	if len(got) != 1 || len(got[0].Lines) != 0 {
		t.Fatalf("got %s", boxesString(got))
	}
}

func TestBoxesHeightLimit(t *testing.T) {
	mk := func(height int) []string {
		lines := []string{"╭──╮"}
		for i := 0; i < height-2; i++ {
			lines = append(lines, "│ok│")
		}
		return append(lines, "╰──╯")
	}
	if got := BoxesInLines(mk(MaxBoxHeight)); len(got) != 1 || got[0].Bottom != MaxBoxHeight-1 || len(got[0].Lines) != MaxBoxHeight-2 {
		t.Fatalf("%d-row box: got %d boxes", MaxBoxHeight, len(got))
	}
	if got := BoxesInLines(mk(MaxBoxHeight + 1)); len(got) != 0 {
		t.Fatalf("%d-row box found", MaxBoxHeight+1)
	}
}

func TestBoxesBlankRows(t *testing.T) {
	lines := []string{
		"╭─────╮",
		"│     │",
		"│     │",
		"│ a   │",
		"│     │",
		"│     │",
		"│     │",
		"│ b   │",
		"│     │",
		"│     │",
		"╰─────╯",
	}
	got := BoxesInLines(lines)
	if len(got) != 1 || !reflect.DeepEqual(got[0].Lines, []string{" a", "", " b"}) {
		t.Fatalf("got %s", boxesString(got))
	}
}

func TestLineCells(t *testing.T) {
	cases := map[string][]string{
		"ab":       {"a", "b"},
		"日a":       {"日", "", "a"},
		"e\u0301x": {"e\u0301", "x"},
		"\tx":      {"x"},
		"👍🏽!":      {"👍🏽", "", "!"},
		"":         {},
	}
	for in, want := range cases {
		if got := LineCells(in); !reflect.DeepEqual(got, want) {
			t.Errorf("LineCells(%q) = %q; want %q", in, got, want)
		}
	}
}

func FuzzFindBoxes(f *testing.F) {
	f.Add("╭──╮\n│x │\n╰──╯")
	f.Add("┌╮\n║日\n└┘\n")
	f.Add("╭╭╮╮\n││││\n╰╰╯╯")
	f.Fuzz(func(t *testing.T, s string) {
		lines := strings.Split(s, "\n")
		for _, l := range lines {
			if fast, slow := LineCells(l), lineCellsSlow(l); !reflect.DeepEqual(fast, slow) {
				t.Fatalf("LineCells(%q) = %q; grapheme by grapheme %q", l, fast, slow)
			}
		}
		boxes := BoxesInLines(lines)
		for i, b := range boxes {
			if b.Top < 0 || b.Bottom <= b.Top || b.Right <= b.Left || b.Bottom-b.Top >= MaxBoxHeight || b.Bottom >= len(lines) {
				t.Fatalf("bad box %+v", b)
			}
			if len(b.Lines) > b.Bottom-b.Top-1 {
				t.Fatalf("too many lines: %+v", b)
			}
			if i > 0 && boxes[i-1].Bottom < b.Bottom {
				t.Fatalf("not bottom first")
			}
		}
		Innermost(boxes, func(b Box) bool { return len(b.Lines)%2 == 0 })
		// Also raw cells, including "" everywhere.
		rows := make([][]string, len(lines))
		for i, l := range lines {
			for _, r := range l {
				if r == '.' {
					rows[i] = append(rows[i], "")
				} else {
					rows[i] = append(rows[i], string(r))
				}
			}
		}
		FindBoxes(rows)
	})
}

// BenchmarkBoxesInLines finds the permission dialog on a recorded 120x40
// Claude-Code-like screen (what a dialog rule does on each look).
func BenchmarkBoxesInLines(b *testing.B) {
	txt, err := os.ReadFile("testdata/golden/ink-redraw.tmux.txt")
	if err != nil {
		b.Skip(err)
	}
	lines := strings.Split(string(txt), "\n")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if len(BoxesInLines(lines)) != 1 {
			b.Fatal("want one box")
		}
	}
}

// BenchmarkFindBoxes is the same screen already split into cells.
func BenchmarkFindBoxes(b *testing.B) {
	txt, err := os.ReadFile("testdata/golden/ink-redraw.tmux.txt")
	if err != nil {
		b.Skip(err)
	}
	var rows [][]string
	for _, l := range strings.Split(string(txt), "\n") {
		rows = append(rows, LineCells(l))
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if len(FindBoxes(rows)) != 1 {
			b.Fatal("want one box")
		}
	}
}

// lineCellsSlow is LineCells without the ASCII fast path.
func lineCellsSlow(line string) []string {
	cells := []string{}
	for len(line) > 0 {
		g, w := ansi.FirstGraphemeCluster(line, ansi.GraphemeWidth)
		if g == "" {
			break
		}
		line = line[len(g):]
		switch {
		case w <= 0:
			if g[0] < 0x20 || g[0] == 0x7f {
				continue
			}
			if n := len(cells); n > 0 && cells[n-1] != "" {
				cells[n-1] += g
			} else if n > 1 && cells[n-1] == "" {
				cells[n-2] += g
			}
		default:
			cells = append(cells, g)
			for ; w > 1; w-- {
				cells = append(cells, "")
			}
		}
	}
	return cells
}
