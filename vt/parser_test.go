package vt

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestParser checks the parser through what the screen does with the
// sequences: text, cursor and replies.
func TestParser(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		text  string
		reply string
	}{
		{"CSI", "ab\x1b[5GX", "ab  X", ""},
		{"missing params take defaults", "ab\x1b[;GX", "Xb", ""},
		{"private prefix", "\x1b[?2004h\x1b[?2004$p", "", "\x1b[?2004;1$y"},
		{"intermediate", "\x1b[4$p", "", "\x1b[4;2$y"},
		{"prefix and empty params", "\x1b[?$p", "", "\x1b[?0;0$y"},
		{"DA2 prefix", "\x1b[>c", "", "\x1b[>1;10;0c"},
		{"other prefix ignored", "\x1b[=c\x1b[<c", "", ""},
		{"large values saturate", "\x1b[?99999999999999999999999$p", "", fmt.Sprintf("\x1b[?%d;0$y", paramMax)},
		{"value at the old missing mark", "\x1b[?2147483647$p", "", fmt.Sprintf("\x1b[?%d;0$y", paramMax)},
		{"C0 inside CSI executes", "ab\x1b[\r3GX", "abX", ""},
		{"C0 inside CSI keeps prefix", "\x1b[?\n2004h\x1b[?2004$p", "", "\x1b[?2004;1$y"},
		{"ESC restarts", "\x1b[31\x1b[2GX", " X", ""},
		{"CAN aborts", "\x1b[3\x18GX", "GX", ""},
		{"SUB aborts", "\x1b[3\x1aGX", "GX", ""},
		{"DEL ignored", "\x1b[\x7f3GX", "  X", ""},
		{"marker after params ignores", "\x1b[2?GX", "X", ""},
		{"param after intermediate ignores", "\x1b[ 2GX", "X", ""},
		{"ignored up to final", "\x1b[ 2;;?!GX", "X", ""},
		{"last intermediate kept", "\x1b[?2004h\x1b[?!$p", "", "\x1b[?0;0$y"},
		{"ESC dispatch", "ab\x1b7\x1b[5GX\x1b8Y", "abY X", ""},
		{"ESC intermediate", "\x1b(0q\x1b(Bq", "─q", ""},
		{"ESC ESC", "\x1b\x1b7\x1b[3GX\x1b8Y", "Y X", ""},
		{"ESC C0", "\x1b\r7", "", ""},
		{"C1 CSI inside a sequence", "\x1b\x9b2GX", " X", ""},
		{"raw C1 in text", "\x9b2GX", "\uFFFD2GX", ""},
		{"C1 ST ends a sequence", "\x1b[2\x9cGX", "GX", ""},
		{"other C1 ends a sequence", "\x1b[2\x85GX", "GX", ""},
		{"bad byte ends a sequence", "\x1b[2\xffGX", "GX", ""},
		{"UTF-8 ends a sequence and prints", "\x1b[2é", "é", ""},
		{"UTF-8 cluster after ESC", "\x1b👍🏽x", "👍🏽x", ""},
		{"DCS", "\x1bPq#0;2;0;0;0#0!10~\x1b\\X", "X", ""},
		{"DCS with UTF-8 and C1", "\x1bP1$rë\x85\x9b\x07\x1b\\X", "X", ""},
		{"DCS C1 ST", "\x1bP+q544e\x9cX", "X", ""},
		{"DCS CAN", "\x1bP+q abc\x18X", "X", ""},
		{"empty DCS", "\x1bP\x1b\\X", "X", ""},
		{"DCS ignore state", "\x1bP1 2q abc\x1b\\X", "X", ""},
		{"C1 DCS", "\x1b\x90q abc\x1b\\X", "X", ""},
		{"APC", "\x1b_Gf=24,s=1;AAAA\x1b\\X", "X", ""},
		{"PM takes BEL", "\x1b^pm\x07more\x1b\\X", "X", ""},
		{"SOS", "\x1bXsos\x9cX", "X", ""},
		{"C1 APC", "\x1b\x9fGf=1\x1b\\X", "X", ""},
		{"UTF-8 ends APC", "\x1b_abcé", "é", ""},
		{"CSI split everywhere", "\x1b[?2004h", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, chunk := range []int{0, 1, 2, 3} {
				var reply bytes.Buffer
				s := New(Options{Cols: 10, Rows: 3, Reply: &reply})
				in := []byte(tc.in)
				if chunk == 0 {
					s.Write(in)
				} else {
					for len(in) > 0 {
						n := min(chunk, len(in))
						s.Write(in[:n])
						in = in[n:]
					}
				}
				if got := s.Text(); got != tc.text {
					t.Errorf("chunk %d: text %q, want %q", chunk, got, tc.text)
				}
				if got := reply.String(); got != tc.reply {
					t.Errorf("chunk %d: reply %q, want %q", chunk, got, tc.reply)
				}
				if chunk == 0 && tc.name == "CSI split everywhere" && !s.Mode(ModeBracketedPaste) {
					t.Error("mode not set")
				}
			}
		})
	}
}

func TestParserSubParams(t *testing.T) {
	s := New(Options{Cols: 10, Rows: 1})
	s.Write([]byte("\x1b[38:2::1:2:3;48;5;4;4:3mX"))
	st := s.Cell(0, 0).Style
	want := Style{}
	applySGR(&want, []int{38, 2, 0, 1, 2, 3, 48, 5, 4, 4, 3}, []bool{true, true, true, true, true, false, false, false, false, true, false})
	if st != want || st == (Style{}) {
		t.Fatalf("style %+v, want %+v", st, want)
	}
}

// At most maxParams parameters are kept: a 33rd is dropped.
func TestParserMaxParams(t *testing.T) {
	for _, tc := range []struct {
		zeros int
		bold  bool
	}{{maxParams - 1, true}, {maxParams, false}, {maxParams + 5, false}} {
		s := New(Options{Cols: 10, Rows: 1})
		s.Write([]byte("\x1b[" + strings.Repeat("0;", tc.zeros) + "1mX"))
		if got := s.Cell(0, 0).Style.Attrs&AttrBold != 0; got != tc.bold {
			t.Errorf("%d leading params: bold %v, want %v", tc.zeros, got, tc.bold)
		}
	}
}

func TestParserOSCTerminators(t *testing.T) {
	for _, tc := range []struct {
		in, title, text string
	}{
		{"\x1b]0;a\x07X", "a", "X"},
		{"\x1b]2;b\x1b\\X", "b", "X"},
		{"\x1b]2;✳ c\x1b\\X", "✳ c", "X"}, // 0x9c inside UTF-8 is data
		{"\x1b]2;d\x1b[2GX", "d", " X"},   // ESC ends it and starts a sequence
		{"\x1b]2;e\x18X", "", "X"},        // CAN cancels
		{"\x1b\x9d2;f\x07X", "f", "X"},    // C1 OSC inside a sequence
		{"\x1b]2;g\x01h\x07", "gh", ""},   // C0 ignored inside
	} {
		s := New(Options{Cols: 10, Rows: 1})
		s.Write([]byte(tc.in))
		if s.Title() != tc.title || s.Text() != tc.text {
			t.Errorf("%q: title %q text %q, want %q %q", tc.in, s.Title(), s.Text(), tc.title, tc.text)
		}
	}
}

func TestSizeBounds(t *testing.T) {
	s := New(Options{Cols: 5000, Rows: 1 << 20})
	if c, r := s.Size(); c != MaxCols || r != MaxRows {
		t.Fatalf("New: %dx%d", c, r)
	}
	s.Resize(MaxCols+1, 3)
	if c, r := s.Size(); c != MaxCols || r != 3 {
		t.Fatalf("Resize: %dx%d", c, r)
	}
	s.Resize(0, 1<<40) // a zero size is unknown: nothing changes
	s.Resize(7, -1)
	if c, r := s.Size(); c != MaxCols || r != 3 {
		t.Fatalf("Resize with an unknown size: %dx%d", c, r)
	}
	s.Resize(2, 1<<40)
	if c, r := s.Size(); c != 2 || r != MaxRows {
		t.Fatalf("Resize: %dx%d", c, r)
	}
	s.Write([]byte("hello\x1b[9999;9999Hx"))
	if x, y, _ := s.Cursor(); x != 1 || y != MaxRows-1 { // the last column of two, wrap pending
		t.Fatalf("cursor %d,%d", x, y)
	}
}

// FuzzParserChunks: the parser keeps its state between writes, so a stream
// gives the same screen, replies and events however it is cut. Lead bytes
// of multi-byte UTF-8 are mapped away (a grapheme cluster cut by a write is
// deliberately not joined); raw C1 and other high bytes stay.
func FuzzParserChunks(f *testing.F) {
	f.Add([]byte("ab\x1b[31;1mX\x1b]0;t\x07\x1b[?2004h\x1b[?2004$p\x1b[6n"), []byte{1, 2, 3})
	f.Add([]byte("\x1bP1$r\x9c\x1b\x9b2G\x1b_x\x1b\\\x9b\x1b]2;a\x1bc"), []byte{5})
	f.Add([]byte("\x1b]7;file://h/a%20b\x1b\\\x1b]9;4;1;50\x07\x1b]133;A\x07\x07"), []byte{7, 1})
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		data = bytes.Clone(data)
		for i, b := range data {
			if b >= 0xc0 && b <= 0xf7 {
				data[i] = '?'
			}
		}
		whole := chunkedRun(data, nil)
		if got := chunkedRun(data, cuts); got != whole {
			t.Fatalf("input %q cuts %v\nwhole:\n%s\nchunked:\n%s", data, cuts, whole, got)
		}
	})
}

func chunkedRun(data, cuts []byte) string {
	var reply bytes.Buffer
	var events []string
	s := New(Options{Cols: 9, Rows: 4, Scrollback: 5, Reply: &reply, OnEvent: func(e Event) {
		events = append(events, fmt.Sprintf("%+v", e))
	}})
	for i := 0; len(data) > 0; i++ {
		n := len(data)
		if len(cuts) > 0 {
			n = min(int(cuts[i%len(cuts)]%16)+1, len(data))
		}
		s.Write(data[:n])
		data = data[n:]
	}
	x, y, vis := s.Cursor()
	return fmt.Sprintf("%s\ncursor %d,%d,%v title %q cwd %q\nreply %q\nevents %v",
		s.Capture(CaptureOptions{Scrollback: true, ANSI: true}), x, y, vis, s.Title(), s.WorkingDir(), reply.String(), events)
}
