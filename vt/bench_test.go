package vt

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Streams are synthetic but shaped like real output: plain log lines, an
// `ls --color=always -la` listing, and full-screen TUI frames (cursor moves,
// SGR, box drawing), written in 4 KiB chunks as a PTY read loop would.

func plainStream(size int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the quick brown fox jumps over lazy dog build test error warning compiling linking module package INFO DEBUG")
	var b strings.Builder
	for b.Len() < size {
		n := 4 + r.IntN(14)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		b.WriteString("\r\n")
	}
	return []byte(b.String())
}

func listingStream(size int) []byte {
	r := rand.New(rand.NewPCG(3, 4))
	colors := []string{"01;34", "01;32", "01;36", "00", "01;31", "40;33;01"}
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "-rwxr-xr-x  1 root root %8d Nov 30 03:%02d \x1b[%sm%s-%d\x1b[0m\r\n",
			r.IntN(1<<24), i%60, colors[r.IntN(len(colors))], "binary-name", i)
	}
	return []byte(b.String())
}

func tuiStream(size, cols, rows int) []byte {
	r := rand.New(rand.NewPCG(5, 6))
	var b strings.Builder
	b.WriteString("\x1b[?1049h")
	for b.Len() < size {
		b.WriteString("\x1b[H\x1b[38;2;120;120;255m╭" + strings.Repeat("─", cols-2) + "╮")
		for y := 2; y < rows; y++ {
			fmt.Fprintf(&b, "\x1b[%d;1H│\x1b[0m \x1b[%dm%-*s\x1b[0m\x1b[38;2;120;120;255m\x1b[%d;%dH│", y, 31+r.IntN(7),
				cols-4, fmt.Sprintf("item %d  status %d  %s", y, r.IntN(1000), strings.Repeat("·", r.IntN(20))), y, cols)
		}
		fmt.Fprintf(&b, "\x1b[%d;1H╰%s╯\x1b[0m", rows, strings.Repeat("─", cols-2))
	}
	return []byte(b.String())
}

func writeChunks(w interface{ Write([]byte) (int, error) }, data []byte) {
	for len(data) > 0 {
		n := min(len(data), 4096)
		w.Write(data[:n])
		data = data[n:]
	}
}

func benchStream(b *testing.B, data []byte, cols, rows int) {
	b.Run("tuios", func(b *testing.B) {
		s := New(Options{Cols: cols, Rows: rows})
		// Warm until every scrollback slot has been reused once: the
		// steady state is what the allocation figure is about.
		for range 3 {
			writeChunks(s, data)
		}
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			writeChunks(s, data)
		}
	})
	b.Run("ansi-parser-only", func(b *testing.B) {
		// The floor: the x/ansi parser with empty callbacks, no grid.
		p := ansi.NewParser()
		p.SetHandler(ansi.Handler{Print: func(rune) {}, Execute: func(byte) {}})
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			for _, c := range data {
				p.Advance(c)
			}
		}
	})
	b.Run("xvt", func(b *testing.B) {
		o := newOracle(b, cols, rows)
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			writeChunks(o.e, data)
		}
	})
}

func BenchmarkPlain(b *testing.B)   { benchStream(b, plainStream(1<<20), 120, 40) }
func BenchmarkListing(b *testing.B) { benchStream(b, listingStream(1<<20), 120, 40) }
func BenchmarkTUI(b *testing.B)     { benchStream(b, tuiStream(1<<20, 120, 40), 120, 40) }

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkMemory reports the bytes an idle 120x40 pane holds and what
// 10,000 lines of 120-column history cost.
func BenchmarkMemory(b *testing.B) {
	b.Run("idle", func(b *testing.B) {
		for b.Loop() {
			before := heapInUse()
			s := New(Options{Cols: 120, Rows: 40})
			s.Write([]byte("$ "))
			after := heapInUse()
			b.ReportMetric(float64(after-before), "bytes/pane")
			runtime.KeepAlive(s)
		}
	})
	b.Run("history10k", func(b *testing.B) {
		line := []byte(strings.Repeat("0123456789abcdefghij", 6)[:118] + "\r\n")
		for b.Loop() {
			before := heapInUse()
			s := New(Options{Cols: 120, Rows: 40, Scrollback: 10000})
			// Three times the limit: every slot has been reused.
			for i := 0; i < 30040; i++ {
				s.Write(line)
			}
			after := heapInUse()
			b.ReportMetric(float64(after-before), "bytes/10k")
			runtime.KeepAlive(s)
		}
	})
}

// TestDumpStreams writes the benchmark streams to $VT_DUMP_STREAMS, to time
// another terminal (tmux) on exactly the same bytes.
func TestDumpStreams(t *testing.T) {
	dir := os.Getenv("VT_DUMP_STREAMS")
	if dir == "" {
		t.Skip("set VT_DUMP_STREAMS to a directory")
	}
	for name, data := range map[string][]byte{
		"plain":   plainStream(16 << 20),
		"listing": listingStream(16 << 20),
		"tui":     tuiStream(16<<20, 120, 40),
	} {
		if err := os.WriteFile(filepath.Join(dir, name+".bin"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkRead measures what a screen rule pays per look.
func BenchmarkRead(b *testing.B) {
	s := New(Options{Cols: 120, Rows: 40})
	writeChunks(s, listingStream(64<<10))
	b.Run("Tail6", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = s.Tail(6)
		}
	})
	b.Run("Text", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = s.Text()
		}
	})
	b.Run("Cell", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = s.Cell(10, 10)
		}
	})
}

// longStream is output of long lines, 150 columns, some coloured, some
// with wide characters: what a narrower window wraps.
func longStream(lines int) []byte {
	r := rand.New(rand.NewPCG(7, 8))
	var b strings.Builder
	for i := 0; i < lines; i++ {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "%06d %s\r\n", i, strings.Repeat("abcdefghij", 15)[:143])
		case 1:
			fmt.Fprintf(&b, "\x1b[32m%06d\x1b[0m %s \x1b[1;31m%s\x1b[0m\r\n", i, strings.Repeat("log line ", 12), strings.Repeat("x", 34+r.IntN(4)))
		default:
			fmt.Fprintf(&b, "%06d %s\r\n", i, strings.Repeat("中文字符", 18))
		}
	}
	return []byte(b.String())
}

// BenchmarkReflow resizes a pane whose 10,000-line history is full of
// 150-column lines between 160 and 80 columns: one op is the round trip
// (two reflows). The history is bounded in rows, so the first narrowing
// keeps the newest 10,000 rows; from then on each round trip reflows
// 10,000 rows one way and 5,000 lines the other.
func BenchmarkReflow(b *testing.B) {
	s := New(Options{Cols: 160, Rows: 50})
	writeChunks(s, longStream(10100))
	if s.ScrollbackLen() != 10000 {
		b.Fatalf("history %d", s.ScrollbackLen())
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Resize(80, 50)
		s.Resize(160, 50)
	}
	b.ReportMetric(float64(s.ScrollbackLen()), "history-lines")
}
