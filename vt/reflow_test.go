package vt

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// look is what a reader sees: history and screen with styles, and the
// cursor (x past the last column for a pending wrap).
func look(s *Screen) string {
	s.mu.RLock()
	x, y := s.x, s.y
	if s.pendingWrap {
		x++
	}
	s.mu.RUnlock()
	return fmt.Sprintf("%s\n@%d,%d", s.Capture(CaptureOptions{Scrollback: true, ANSI: true}), x, y)
}

func TestReflow(t *testing.T) {
	type step struct {
		write      string
		cols, rows int // a resize when cols > 0
		text       string
		cursor     [2]int // checked when text is set
		history    int    // checked when text is set, -1 for any
	}
	long := "line-with-a-long-tail-that-stays-whole"
	for _, c := range []struct {
		name       string
		cols, rows int
		steps      []step
	}{
		{"soft-wrapped rows join, hard breaks never", 10, 4, []step{
			{write: "0123456789abcde\r\nxy"},
			{cols: 20, rows: 4, text: "0123456789abcde\nxy", cursor: [2]int{2, 1}},
			{cols: 5, rows: 4, text: "01234\n56789\nabcde\nxy", cursor: [2]int{2, 3}},
			{cols: 4, rows: 4, text: "0123\n4567\n89ab\ncde\nxy", cursor: [2]int{2, 3}, history: 1},
			{cols: 20, rows: 4, text: "0123456789abcde\nxy", cursor: [2]int{2, 1}},
		}},
		{"a hard line longer than the width splits and comes back", 10, 3, []step{
			{write: "abcdefghij\r\nz"},
			{cols: 4, rows: 3, text: "abcd\nefgh\nij\nz", cursor: [2]int{1, 2}, history: 1},
			{cols: 10, rows: 3, text: "abcdefghij\nz", cursor: [2]int{1, 1}},
			{cols: 30, rows: 3, text: "abcdefghij\nz", cursor: [2]int{1, 1}},
		}},
		{"the issue's capture-pane: long lines and a numbered prompt", 160, 6, []step{
			{write: "$ run\r\n" + long + strings.Repeat(".", 100) + "\r\n  1. Yes\r\n  2. No, and tell the agent what to do differently (esc)\r\n$ "},
			{cols: 80, rows: 6},
			{cols: 160, rows: 6, text: "$ run\n" + long + strings.Repeat(".", 100) + "\n  1. Yes\n  2. No, and tell the agent what to do differently (esc)\n$", cursor: [2]int{2, 4}},
		}},
		{"cursor in the middle of a wrapped line follows its character", 10, 3, []step{
			{write: "0123456789abcdefghij\x1b[2;4H"}, // on 'd'
			{cols: 7, rows: 3, text: "0123456\n789abcd\nefghij", cursor: [2]int{6, 1}},
			{cols: 20, rows: 3, text: "0123456789abcdefghij", cursor: [2]int{13, 0}},
		}},
		{"pending wrap stays pending at a row boundary, and is a plain column elsewhere", 10, 3, []step{
			{write: "abcdefghij", text: "abcdefghij", cursor: [2]int{10, 0}},
			{cols: 5, rows: 3, text: "abcde\nfghij", cursor: [2]int{5, 1}},
			{cols: 7, rows: 3, text: "abcdefg\nhij", cursor: [2]int{3, 1}},
			{cols: 10, rows: 3, text: "abcdefghij", cursor: [2]int{10, 0}},
			{write: "k", text: "abcdefghij\nk", cursor: [2]int{1, 1}},
			{cols: 11, rows: 3, text: "abcdefghijk", cursor: [2]int{11, 0}},
		}},
		{"written blanks at a row's end are text, skipped ones are not", 6, 3, []step{
			// "hello " fills the row, its last cell a written space.
			{write: "hello world\r\nab\x1b[6Gc"},
			{cols: 20, rows: 3, text: "hello world\nab   c", cursor: [2]int{6, 1}},
		}},
		{"a wide character's spacer is not text", 10, 3, []step{
			{write: "abcdefghi中文x"},
			{cols: 20, rows: 3, text: "abcdefghi中文x", cursor: [2]int{14, 0}},
			{cols: 10, rows: 3, text: "abcdefghi\n中文x", cursor: [2]int{5, 1}},
			{cols: 3, rows: 3, text: "abc\ndef\nghi\n中\n文x", cursor: [2]int{3, 2}, history: 2},
		}},
		{"clusters stay whole", 6, 3, []step{
			{write: "abcde👍🏽e\u0301x"},
			{cols: 20, rows: 3, text: "abcde👍🏽e\u0301x", cursor: [2]int{9, 0}},
			{cols: 6, rows: 3, text: "abcde\n👍🏽e\u0301x", cursor: [2]int{4, 1}},
		}},
		{"a one-column screen cannot hold a wide character", 4, 3, []step{
			{write: "a中b"},
			{cols: 1, rows: 3, text: "a\nb", cursor: [2]int{1, 1}},
			{cols: 4, rows: 3, text: "ab", cursor: [2]int{2, 0}},
		}},
		{"a cursor right of the text keeps its column", 20, 3, []step{
			{write: "abc\x1b[15G"},
			{cols: 10, rows: 3, text: "abc", cursor: [2]int{4, 1}},
			{cols: 20, rows: 3, text: "abc", cursor: [2]int{14, 0}},
		}},
		{"a short screen keeps its top; blank rows take the growth", 20, 6, []step{
			{write: "first\r\n" + long + "\r\n$ "},
			{cols: 10, rows: 6, text: "first\nline-with-\na-long-tai\nl-that-sta\nys-whole\n$", cursor: [2]int{2, 5}, history: 0},
			{cols: 20, rows: 6, text: "first\n" + long[:20] + "\n" + long[20:] + "\n$", cursor: [2]int{2, 3}},
			{cols: 5, rows: 6, history: 4},
			{cols: 20, rows: 6, text: "first\n" + long[:20] + "\n" + long[20:] + "\n$", cursor: [2]int{2, 3}},
		}},
		{"a full screen gives its top to the history and takes it back", 20, 3, []step{
			{write: "first\r\n" + long + "\r\n$ "},
			{cols: 10, rows: 3, history: 3, cursor: [2]int{2, 2}, text: "first\nline-with-\na-long-tai\nl-that-sta\nys-whole\n$"},
			{cols: 20, rows: 3, history: 1, cursor: [2]int{2, 2}, text: "first\n" + long[:20] + "\n" + long[20:] + "\n$"},
		}},
		{"a line longer than the history keeps its end", 40, 2, []step{
			{write: strings.Repeat("0123456789", 4) + "\r\n$ "},
			{cols: 4, rows: 2, history: 3, text: "4567\n8901\n2345\n6789\n$", cursor: [2]int{2, 1}},
		}},
		{"rows only change: no reflow of a wrapped row's odd end", 10, 3, []step{
			// A wrapped row whose end was erased: a width change pulls the
			// next row's text left, a height change does not touch it.
			{write: "0123456789abc\x1b[1;8H\x1b[3X\x1b[2;4H"},
			{cols: 10, rows: 4, text: "0123456\nabc", cursor: [2]int{3, 1}},
			{cols: 11, rows: 4, text: "0123456abc", cursor: [2]int{10, 0}},
		}},
		{"no history: what no longer fits is gone, as when scrolling", 10, 2, []step{
			{write: "0123456789abcde\r\nxy"},
			{cols: 5, rows: 2, text: "abcde\nxy", cursor: [2]int{2, 1}, history: 0},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sbl := 100
			if strings.HasPrefix(c.name, "a line longer") {
				sbl = 3
			}
			if strings.HasPrefix(c.name, "no history") {
				sbl = -1
			}
			s := New(Options{Cols: c.cols, Rows: c.rows, Scrollback: sbl})
			for i, st := range c.steps {
				if st.write != "" {
					s.Write([]byte(st.write))
				}
				if st.cols > 0 {
					s.Resize(st.cols, st.rows)
				}
				if st.text == "" && st.history == 0 {
					continue
				}
				s.mu.RLock()
				x, y := s.x, s.y
				if s.pendingWrap {
					x++
				}
				s.mu.RUnlock()
				got := s.Capture(CaptureOptions{Scrollback: true})
				if st.text != "" && (got != st.text || [2]int{x, y} != st.cursor) {
					t.Fatalf("step %d: got\n%s\n@%d,%d\nwant\n%s\n@%d,%d", i, got, x, y, st.text, st.cursor[0], st.cursor[1])
				}
				if st.history >= 0 && s.ScrollbackLen() != st.history && (st.history > 0 || st.text != "") {
					t.Fatalf("step %d: %d history lines, want %d:\n%s", i, s.ScrollbackLen(), st.history, got)
				}
			}
		})
	}
}

// Styles survive, and erased cells that kept a background colour stay
// decoration: they do not count as text, and an erase to the end of the
// line still reaches the end of the line at the new width.
func TestReflowStyles(t *testing.T) {
	s := New(Options{Cols: 10, Rows: 3})
	s.Write([]byte("\x1b[1;31mred\x1b[0m and \x1b[4mlong\x1b[0m\r\n\x1b[44mbar\x1b[K\x1b[0m\r\nz"))
	fresh := New(Options{Cols: 30, Rows: 3})
	fresh.Write([]byte("\x1b[1;31mred\x1b[0m and \x1b[4mlong\x1b[0m\r\n\x1b[44mbar\x1b[K\x1b[0m\r\nz"))
	s.Resize(30, 3)
	if got, want := look(s), look(fresh); got != want {
		t.Fatalf("reflowed\n%q\nprinted at that width\n%q", got, want)
	}
	for x := 3; x < 30; x++ {
		if c := s.Cell(x, 1); c.Style.Bg != IndexColor(4) {
			t.Fatalf("the erased bar stops at column %d: %+v", x, c)
		}
	}
	s.Resize(5, 3)
	// "red and long" is 2 full rows and "lo": the bar is one row, still blue
	// to the edge, not a second row of blue blanks.
	if got := s.Capture(CaptureOptions{Scrollback: true}); got != "red a\nnd lo\nng\nbar\nz" {
		t.Fatalf("%q", got)
	}
	if c := s.Cell(4, 1); c.Style.Bg != IndexColor(4) {
		t.Fatalf("the bar lost its colour: %+v", c)
	}
	// Written blanks in a colour are text: they take rows like any.
	s = New(Options{Cols: 10, Rows: 3})
	s.Write([]byte("ab\x1b[41m        \x1b[0m\r\nz"))
	s.Resize(4, 3)
	if got := s.Capture(CaptureOptions{Scrollback: true}); got != "ab\n\n\nz" {
		t.Fatalf("%q", got)
	}
	if c, d := s.Cell(3, 0), s.Cell(2, 1); c.Style.Bg != IndexColor(1) || d.Style.Bg != 0 {
		t.Fatalf("the written blanks' colour: %+v, then %+v", c, d)
	}
}

// The alternate screen is cut, not reflowed; the main screen keeps its size
// while it is shown and is reflowed when the program leaves it, with the
// cursor it restores (tmux does the same).
func TestReflowAltScreen(t *testing.T) {
	s := New(Options{Cols: 10, Rows: 3})
	s.Write([]byte("0123456789abc\r\n$ x\x1b[D\x1b[?1049h\x1b[H0123456789"))
	s.Resize(5, 3)
	if got := s.Text(); got != "01234" {
		t.Fatalf("alternate screen: %q", got)
	}
	s.Resize(6, 4)
	if got := s.Text(); got != "01234" {
		t.Fatalf("alternate screen: %q", got)
	}
	if s.ScrollbackLen() != 0 {
		t.Fatal("the main screen's history moved while the alternate screen was shown")
	}
	s.Write([]byte("\x1b[?1049l"))
	if got := s.Capture(CaptureOptions{Scrollback: true}); got != "012345\n6789ab\nc\n$ x" {
		t.Fatalf("main screen after leaving: %q", got)
	}
	if x, y, _ := s.Cursor(); x != 2 || y != 3 {
		t.Fatalf("restored cursor %d,%d", x, y)
	}
	// RIS while shown: the main screen starts over at the new size.
	s.Write([]byte("\x1b[?1049h"))
	s.Resize(8, 2)
	s.Write([]byte("\x1bcabcdefghij"))
	if got := s.Text(); got != "abcdefgh\nij" {
		t.Fatalf("after RIS: %q", got)
	}
}

// The saved cursor and the OSC 133 B mark follow their text.
func TestReflowCarriesMarks(t *testing.T) {
	var cmd string
	s := New(Options{Cols: 10, Rows: 4, OnEvent: func(e Event) {
		if e.Kind == EventPromptMark && e.Mark.Kind == MarkOutputStart {
			cmd = e.Mark.Cmdline
		}
	}})
	s.Write([]byte("0123456789abc\x1b7\r\n$ \x1b]133;B\x07echo hi"))
	s.Resize(20, 4)
	s.mu.RLock()
	sv := s.main.saved
	s.mu.RUnlock()
	if sv.x != 13 || sv.y != 0 {
		t.Fatalf("saved cursor %d,%d", sv.x, sv.y)
	}
	s.Write([]byte("\r\n\x1b]133;C\x07"))
	if cmd != "echo hi" {
		t.Fatalf("command read back from the mark: %q", cmd)
	}
	s.Write([]byte("\x1b8X"))
	if got := s.Text(); got != "0123456789abcX\n$ echo hi" {
		t.Fatalf("%q", got)
	}
}

// Capture with Join gives soft-wrapped lines whole, history included.
func TestCaptureJoin(t *testing.T) {
	s := New(Options{Cols: 5, Rows: 2})
	s.Write([]byte("hello world, \x1b[32mgreen\x1b[0m\r\nab\r\nabcde"))
	if got := s.Capture(CaptureOptions{Scrollback: true, Join: true}); got != "hello world, green\nab\nabcde" {
		t.Fatalf("%q", got)
	}
	if got := s.Capture(CaptureOptions{Scrollback: true, Join: true, Lines: 2}); got != "ab\nabcde" {
		t.Fatalf("%q", got)
	}
	if got := s.Capture(CaptureOptions{Scrollback: true, Join: true, ANSI: true}); !strings.HasPrefix(got, "hello world, \x1b[0;32mgr") ||
		stripSGR([]byte(got)) != "hello world, green\nab\nabcde" {
		t.Fatalf("%q", got)
	}
}

// reflowOps turns fuzz bytes into chunks of plain text (printable words,
// wide characters, clusters, SGR without background, CR LF) and resizes.
func reflowOps(data []byte, minCols int) (ops []reflowOp) {
	words := []string{"hello", " ", "a", "0123456789", "中文", "é", "e\u0301", "👍", "👍🏽", "ｱｲ", "x中", "  ", "\r\n", "\r\n",
		"\x1b[1m", "\x1b[31m", "\x1b[0m", "\x1b[4;32m", strings.Repeat("-", 37)}
	for i := 0; i+1 < len(data); i += 2 {
		a, b := data[i], data[i+1]
		if a%5 == 0 {
			ops = append(ops, reflowOp{cols: minCols + int(b%24), rows: 1 + int(b/24)%7})
			continue
		}
		var w strings.Builder
		for n := 0; n <= int(a%4); n++ {
			w.WriteString(words[(int(b)+n*7)%len(words)])
		}
		ops = append(ops, reflowOp{write: w.String()})
	}
	return ops
}

type reflowOp struct {
	write      string
	cols, rows int
}

// plainText is what a plain stream prints, line by line, each line's
// trailing blanks dropped, trailing empty lines dropped (as Capture does).
func plainText(stream string) string {
	var b strings.Builder
	for i := 0; i < len(stream); {
		if stream[i] == 0x1b {
			j := strings.IndexByte(stream[i:], 'm')
			i += j + 1
			continue
		}
		if stream[i] == '\r' {
			i++
			continue
		}
		b.WriteByte(stream[i])
		i++
	}
	lines := strings.Split(b.String(), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// FuzzReflow: any sequence of plain writes and resizes keeps the text in
// order (read back whole with Join), and ends exactly as a screen of the
// final size fed the same chunks: same rows, styles, history and cursor.
func FuzzReflow(f *testing.F) {
	f.Add([]byte{1, 3, 0, 5, 2, 9, 0, 200, 3, 1})
	f.Add([]byte{3, 4, 1, 11, 2, 12, 0, 3, 3, 5, 0, 100, 1, 7})
	f.Add([]byte{2, 8, 2, 8, 2, 8, 0, 0, 0, 250, 1, 12, 0, 30})
	f.Fuzz(func(t *testing.T, data []byte) {
		ops := reflowOps(data, 2)
		s := New(Options{Cols: 12, Rows: 4, Scrollback: 1 << 20})
		var stream strings.Builder
		var chunks []string
		cols, rows := 12, 4
		for _, op := range ops {
			if op.write != "" {
				s.Write([]byte(op.write))
				stream.WriteString(op.write)
				chunks = append(chunks, op.write)
				continue
			}
			s.Resize(op.cols, op.rows)
			cols, rows = op.cols, op.rows
		}
		if got, want := s.Capture(CaptureOptions{Scrollback: true, Join: true}), plainText(stream.String()); got != want {
			t.Fatalf("text changed\nstream %q\ngot\n%s\nwant\n%s", stream.String(), got, want)
		}
		fresh := New(Options{Cols: cols, Rows: rows, Scrollback: 1 << 20})
		for _, c := range chunks {
			fresh.Write([]byte(c))
		}
		if got, want := look(s), look(fresh); got != want {
			t.Fatalf("ops %+v\nreflowed\n%s\nprinted at %dx%d\n%s", ops, got, cols, rows, want)
		}
	})
}

// FuzzResize: any stream, cut anywhere, with resizes between the pieces:
// no panic, the cursor on the screen, every row exactly the screen wide,
// text that is UTF-8.
func FuzzResize(f *testing.F) {
	f.Add([]byte("hello\x1b[2J\x1b[3;4Hworld"), []byte{3, 9, 1, 7, 5, 1})
	f.Add([]byte("\x1b[?1049habc\x1b[?1049l\x1b7\x1b]133;B\x07ls"), []byte{5, 2, 10, 1, 0, 0, 1, 1})
	f.Add([]byte("\x1b[44m\x1b[K中文\xcc\x81👍🏽\r\n\x1b[?7lxxxxxxxxxxxxxxx"), []byte{1, 1, 30, 3, 2, 2})
	f.Fuzz(func(t *testing.T, data, sizes []byte) {
		s := New(Options{Cols: 9, Rows: 4, Scrollback: 20})
		for len(data) > 0 || len(sizes) > 1 {
			n := len(data)
			if len(sizes) > 1 {
				n = min(n, int(sizes[0])%16)
			}
			s.Write(data[:n])
			data = data[n:]
			if len(sizes) > 1 {
				s.Resize(int(sizes[0]%40)+1, int(sizes[1]%9)+1)
				sizes = sizes[2:]
			}
			cols, rows := s.Size()
			x, y, _ := s.Cursor()
			if x < 0 || x >= cols || y < 0 || y >= rows {
				t.Fatalf("cursor %d,%d outside %dx%d", x, y, cols, rows)
			}
			for yy := 0; yy < rows; yy++ {
				w := 0
				for _, c := range s.Row(yy) {
					w += c.Width
				}
				if w != cols {
					t.Fatalf("row %d is %d wide on a %d wide screen", yy, w, cols)
				}
			}
			if txt := s.Capture(CaptureOptions{Scrollback: true, Join: true, ANSI: true}); !utf8.ValidString(txt) {
				t.Fatalf("capture is not UTF-8: %q", txt)
			}
			if n := s.ScrollbackLen(); n > 20 {
				t.Fatalf("%d history lines", n)
			}
		}
	})
}
