package vt

import (
	"strconv"
	"strings"
	"testing"
)

// stripSGR drops CSI ... m sequences, leaving what a terminal would draw.
func stripSGR(b []byte) string {
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '[' {
			j := i + 2
			for j < len(b) && b[j] != 'm' {
				j++
			}
			i = j
			continue
		}
		out.WriteByte(b[i])
	}
	return out.String()
}

func TestRowANSIIsExactlyTheScreenWide(t *testing.T) {
	s := New(Options{Cols: 10, Rows: 3})
	s.Write([]byte("ab\x1b[31mcd\x1b[0m\r\n\x1b[44m \x1b[0m\r\n日本"))
	for y, want := range []string{"abcd      ", "          ", "日本      "} {
		row := s.RowANSI(y, nil)
		if got := stripSGR(row); got != want {
			t.Errorf("row %d drawn %q, want %q (raw %q)", y, got, want, row)
		}
	}
	if got := string(s.RowANSI(0, nil)); !strings.Contains(got, "\x1b[0;31mcd") || !strings.HasSuffix(got, "      ") {
		t.Errorf("row 0 lost its colour or its padding: %q", got)
	}
	if got := s.RowANSI(3, []byte("x")); string(got) != "x" {
		t.Errorf("a row out of range must append nothing: %q", got)
	}
}

func TestFrameANSIMatchesRowANSI(t *testing.T) {
	s := New(Options{Cols: 8, Rows: 4})
	s.Write([]byte("one\r\n\x1b[1mtwo\x1b[0m\r\nthree\x1b]2;T\x07"))
	var f Frame
	for range 2 { // a reused frame gives the same answer
		s.FrameANSI(&f)
		if f.Cols != 8 || f.Rows != 4 || len(f.Ends) != 4 || f.Title != "T" || f.CursorX != 5 || f.CursorY != 2 {
			t.Fatalf("frame %+v", f)
		}
		for y := 0; y < 4; y++ {
			if got, want := string(f.Row(y)), string(s.RowANSI(y, nil)); got != want {
				t.Errorf("row %d: frame %q, RowANSI %q", y, got, want)
			}
		}
	}
	if n := testing.AllocsPerRun(50, func() { s.FrameANSI(&f) }); n != 0 {
		t.Errorf("a reused frame allocated %v times", n)
	}
}

func TestModesTrackWhatAProgramAsked(t *testing.T) {
	s := New(Options{Cols: 10, Rows: 3})
	if m := s.Modes(); m != (Modes{CursorVisible: true}) {
		t.Fatalf("power-on modes %+v", m)
	}
	s.Write([]byte("\x1b[?1h\x1b=\x1b[?2004h\x1b[?1049h\x1b[?1002h\x1b[?1006h\x1b[?1004h\x1b[?25l"))
	want := Modes{AppCursor: true, AppKeypad: true, BracketedPaste: true, AltScreen: true, Mouse: 1002, MouseSGR: true, FocusEvents: true}
	if m := s.Modes(); m != want {
		t.Fatalf("modes %+v, want %+v", m, want)
	}
	s.Write([]byte("\x1b>\x1b[?9h"))
	if m := s.Modes(); m.AppKeypad || m.Mouse != 9 {
		t.Fatalf("DECKPNM and X10 mouse: %+v", m)
	}
	if !s.Mode(Mode(9)) {
		t.Fatal("Mode(9) must report X10 mouse tracking")
	}
	s.Write([]byte("\x1b[?9l\x1b=\x1bc"))
	if m := s.Modes(); m != (Modes{CursorVisible: true}) {
		t.Fatalf("RIS must reset the modes: %+v", m)
	}
}

// A Frame filled again renders only the rows that changed and copies the
// rest: whatever is written between (colours past the style table's
// compaction, clusters, the alternate screen, a reset, a resize), its
// rows are what a fresh Frame reads.
func TestFrameANSIReusedEqualsFresh(t *testing.T) {
	s := New(Options{Cols: 20, Rows: 6})
	var kept Frame
	check := func(step string) {
		t.Helper()
		s.FrameANSI(&kept)
		var fresh Frame
		s.FrameANSI(&fresh)
		if string(kept.Text) != string(fresh.Text) || len(kept.Ends) != len(fresh.Ends) {
			t.Fatalf("after %s:\nkept  %q\nfresh %q", step, kept.Text, fresh.Text)
		}
		for y := range fresh.Ends {
			if kept.Ends[y] != fresh.Ends[y] {
				t.Fatalf("after %s: row %d ends at %d, fresh %d", step, y, kept.Ends[y], fresh.Ends[y])
			}
		}
	}
	check("nothing")
	s.Write([]byte("$ a"))
	check("a key")
	s.Write([]byte("\x08\x1b[K"))
	check("its erase")
	// More colours than the style table holds: it is compacted, and the
	// same index means another style.
	for i := 0; i < styleTableMax+50; i++ {
		s.Write([]byte("\x1b[38;2;" + itoa(i%256) + ";" + itoa(i/256) + ";7mx"))
		if i%977 == 0 {
			check("colours")
		}
	}
	check("the table compacted")
	for i := 0; i < graphemeTableMax+20; i++ {
		s.Write([]byte("e\u0301" + string(rune(0x300+i%100))))
		if i%501 == 0 {
			check("clusters")
		}
	}
	check("the cluster table compacted")
	s.Write([]byte("\x1b[?1049h\x1b[32mALT"))
	check("the alternate screen")
	s.Write([]byte("\x1b[?1049l"))
	check("back")
	s.Resize(15, 4)
	check("a resize")
	s.Write([]byte("\x1bc\x1b[1mafter reset"))
	check("a reset")
	if n := testing.AllocsPerRun(50, func() { s.FrameANSI(&kept) }); n != 0 {
		t.Errorf("a reused frame allocated %v times", n)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
