package vt

import (
	"fmt"
	"strings"
	"testing"
)

// lastLinesOracle is what LastLines must return: Capture's joined text
// with the history, its last n lines.
func lastLinesOracle(s *Screen, n int) []string {
	c := s.Capture(CaptureOptions{Scrollback: true, Join: true, Lines: n})
	if c == "" {
		return nil
	}
	return strings.Split(c, "\n")
}

// A dialog taller than a short, narrow pane: its top scrolled into the
// history and its rows were wrapped, yet LastLines reads it whole.
func TestLastLinesReadsADialogThatScrolledAndWrapped(t *testing.T) {
	s := New(Options{Cols: 64, Rows: 24})
	s.Write([]byte("earlier output\r\n"))
	box := []string{"╭" + strings.Repeat("─", 30) + "╮", "│ Bash command" + strings.Repeat(" ", 17) + "│",
		"│   rm -rf build/" + strings.Repeat(" ", 14) + "│", "│ Do you want to proceed?       │", "│ ❯ 1. Yes" + strings.Repeat(" ", 21) + "│",
		"╰" + strings.Repeat("─", 30) + "╯"}
	s.Write([]byte(strings.Join(box, "\r\n") + "\r\n"))
	s.Resize(20, 5) // narrower and shorter: each box row wraps, the top goes up
	if tail := strings.Join(s.Tail(5), "\n"); strings.Contains(tail, "rm -rf") {
		t.Fatalf("the screen still shows the command; the test reads nothing new:\n%s", tail)
	}
	got := s.LastLines(6)
	if strings.Join(got, "\n") != strings.Join(box, "\n") {
		t.Fatalf("LastLines(6):\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(box, "\n"))
	}
	if all := s.LastLines(100); len(all) != 7 || all[0] != "earlier output" {
		t.Fatalf("LastLines(100): %q", all)
	}
	if s.LastLines(0) != nil {
		t.Fatal("LastLines(0) is not nil")
	}
}

// The alternate screen has no history: only its rows are read.
func TestLastLinesOnTheAlternateScreen(t *testing.T) {
	s := New(Options{Cols: 10, Rows: 3})
	s.Write([]byte("a\r\nb\r\nc\r\nd\r\ne\r\n"))
	s.Write([]byte("\x1b[?1049h\x1b[HX\r\nY"))
	if got := strings.Join(s.LastLines(10), ","); got != "X,Y" {
		t.Fatalf("alternate screen: %q", got)
	}
}

// FuzzLastLines: any stream, any sizes: LastLines is Capture's joined
// text with the history, cut to its last n lines.
func FuzzLastLines(f *testing.F) {
	f.Add([]byte("hello\r\nworld wide web\r\n\r\n"), []byte{3, 2, 7, 4}, uint8(3))
	f.Add([]byte("\x1b[?1049habc\x1b[?1049lxyzxyzxyz\r\n\x1b[2J"), []byte{5, 2, 1, 1}, uint8(9))
	f.Fuzz(func(t *testing.T, data, sizes []byte, n uint8) {
		s := New(Options{Cols: 9, Rows: 4, Scrollback: 30})
		for len(data) > 0 || len(sizes) > 1 {
			k := len(data)
			if len(sizes) > 1 {
				k = min(k, int(sizes[0])%16)
			}
			s.Write(data[:k])
			data = data[k:]
			if len(sizes) > 1 {
				s.Resize(int(sizes[0]%30)+1, int(sizes[1]%9)+1)
				sizes = sizes[2:]
			}
			got, want := s.LastLines(int(n)), lastLinesOracle(s, int(n))
			if n == 0 {
				want = nil
			}
			if fmt.Sprint(got) != fmt.Sprint(want) || len(got) != len(want) {
				t.Fatalf("LastLines(%d) = %q, want %q", n, got, want)
			}
		}
	})
}

func BenchmarkLastLinesFullHistory(b *testing.B) {
	s := New(Options{Cols: 150, Rows: 50})
	line := strings.Repeat("x", 149) + "\r\n"
	for range 10000 {
		s.Write([]byte(line))
	}
	b.ReportAllocs()
	for b.Loop() {
		s.LastLines(200)
	}
}

func BenchmarkCaptureFullHistoryLast200(b *testing.B) {
	s := New(Options{Cols: 150, Rows: 50})
	line := strings.Repeat("x", 149) + "\r\n"
	for range 10000 {
		s.Write([]byte(line))
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Capture(CaptureOptions{Scrollback: true, Join: true, Lines: 200})
	}
}
