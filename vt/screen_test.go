package vt

import (
	"bytes"
	"strings"
	"testing"
)

func newTestScreen(cols, rows int) *Screen {
	return New(Options{Cols: cols, Rows: rows})
}

func TestSequences(t *testing.T) {
	tests := []struct {
		name       string
		cols, rows int
		in         string
		want       string
		cx, cy     int // -1: don't check
	}{
		{"plain", 10, 3, "hello", "hello", 5, 0},
		{"crlf", 10, 3, "ab\r\ncd", "ab\ncd", 2, 1},
		{"lf keeps column", 10, 3, "ab\ncd", "ab\n  cd", 4, 1},
		{"autowrap", 5, 3, "abcdefg", "abcde\nfg", 2, 1},
		{"pending wrap then CR", 5, 3, "abcde\rX", "Xbcde", 1, 0},
		{"pending wrap cursor", 5, 3, "abcde", "abcde", 4, 0},
		{"nowrap", 5, 3, "\x1b[?7labcdefg", "abcdg", 4, 0},
		{"scroll", 5, 2, "a\r\nb\r\nc", "b\nc", 1, 1},
		{"CUP", 10, 5, "\x1b[3;4HX", "\n\n   X", 4, 2},
		{"HVP", 10, 5, "\x1b[2;2fX", "\n X", 2, 1},
		{"CUP clamps", 5, 3, "\x1b[99;99HX", "\n\n    X", 4, 2},
		{"CUU/CUD/CUF/CUB", 10, 5, "\x1b[3;3H\x1b[AA\x1b[2BB\x1b[3CC\x1b[5DD", "\n  A\n\n   D   C", 4, 3},
		{"CHA", 10, 3, "abc\x1b[6GX", "abc  X", 6, 0},
		{"HPA", 10, 3, "abc\x1b[6`X", "abc  X", 6, 0},
		{"VPA", 10, 3, "ab\x1b[3dX", "ab\n\n  X", 3, 2},
		{"CNL", 10, 3, "ab\x1b[EX", "ab\nX", 1, 1},
		{"CPL", 10, 3, "\n\nab\x1b[2FX", "X\n\nab", 1, 0},
		{"ED0", 5, 3, "aaaaa\r\nbbbbb\r\nccccc\x1b[2;3H\x1b[J", "aaaaa\nbb", 2, 1},
		{"ED1", 5, 3, "aaaaa\r\nbbbbb\r\nccccc\x1b[2;3H\x1b[1J", "\n   bb\nccccc", 2, 1},
		{"ED2", 5, 3, "aaaaa\r\nbbbbb\x1b[2J", "", 4, 1},
		{"EL0", 5, 1, "abcde\x1b[3G\x1b[K", "ab", 2, 0},
		{"EL1", 5, 1, "abcde\x1b[3G\x1b[1K", "   de", 2, 0},
		{"EL2", 5, 1, "abcde\x1b[3G\x1b[2K", "", 2, 0},
		{"ECH", 5, 1, "abcde\x1b[2G\x1b[2X", "a  de", 1, 0},
		{"ICH", 6, 1, "abcde\x1b[2G\x1b[2@", "a  bcd", 1, 0},
		{"DCH", 6, 1, "abcdef\x1b[2G\x1b[2P", "adef", 1, 0},
		{"IL", 5, 4, "a\r\nb\r\nc\r\nd\x1b[2H\x1b[L", "a\n\nb\nc", 0, 1},
		{"DL", 5, 4, "a\r\nb\r\nc\r\nd\x1b[2H\x1b[2M", "a\nd", 0, 1},
		{"REP", 10, 1, "ab\x1b[3b", "abbbb", 5, 0},
		{"DECSTBM+IND", 5, 4, "1\r\n2\r\n3\r\n4\x1b[2;3r\x1b[3H\nX", "1\n3\nX\n4", 1, 2},
		{"RI at top", 5, 4, "1\r\n2\r\n3\r\n4\x1b[2;3r\x1b[2H\x1bMX", "1\nX\n2\n4", 1, 1},
		{"NEL", 5, 3, "ab\x1bEX", "ab\nX", 1, 1},
		{"SU", 5, 3, "1\r\n2\r\n3\x1b[S", "2\n3", 1, 2},
		{"SD", 5, 3, "1\r\n2\r\n3\x1b[2T", "\n\n1", 1, 2},
		{"SU in region", 5, 4, "1\r\n2\r\n3\r\n4\x1b[2;3r\x1b[S", "1\n3\n\n4", 0, 0},
		{"DECSC/DECRC", 10, 3, "ab\x1b7\x1b[3;5Hx\x1b8Y", "abY\n\n    x", 3, 0},
		{"CSI s/u", 10, 3, "ab\x1b[s\x1b[3;5Hx\x1b[uY", "abY\n\n    x", 3, 0},
		{"origin mode", 10, 5, "\x1b[2;4r\x1b[?6h\x1b[1;1HX\x1b[9;1HY", "\nX\n\nY", 1, 3},
		{"insert mode", 6, 1, "abcd\x1b[2G\x1b[4hXY\x1b[4lZ", "aXYZcd", 4, 0},
		{"tabs", 20, 1, "a\tb\tc", "a       b       c", 17, 0},
		{"HTS/TBC", 20, 1, "\x1b[3g\x1b[4G\x1bH\ra\tb", "a  b", 4, 0},
		{"CHT/CBT", 20, 1, "\x1b[2Ia\x1b[ZX", "                X", 17, 0},
		{"DEC graphics", 10, 1, "\x1b(0lqqk\x1b(Bx", "┌──┐x", 5, 0},
		{"SO/SI graphics", 10, 1, "\x1b)0\x0eqq\x0fq", "──q", 3, 0},
		{"wide", 10, 1, "中文x", "中文x", 5, 0},
		{"wide wraps", 5, 2, "abcd中", "abcd\n中", 2, 1},
		{"wide overwrite half", 10, 1, "中文\x1b[2GX", " X文", 2, 0},
		{"combining", 10, 1, "e\u0301x", "e\u0301x", 2, 0},
		{"emoji zwj", 10, 1, "👩\u200d💻x", "👩\u200d💻x", 3, 0},
		{"alt screen 1049", 10, 3, "main\x1b[?1049halt\x1b[?1049l", "main", 4, 0},
		{"alt screen shows", 10, 3, "main\x1b[?1049h\x1b[Halt", "alt", 3, 0},
		{"alt 47 keeps", 10, 3, "\x1b[?47hA\x1b[?47l\x1b[?47h", "A", 1, 0},
		{"RIS", 10, 3, "abc\x1b[?7l\x1bc", "", 0, 0},
		{"DECSTR", 10, 3, "\x1b[?7l\x1b[!pabcdefghijkl", "abcdefghij\nkl", 2, 1},
		{"BS", 10, 1, "abc\b\bX", "aXc", 2, 0},
		{"sgr doesn't print", 10, 1, "\x1b[1;31;48;2;1;2;3mab\x1b[0m", "ab", 2, 0},
		{"osc ignored", 10, 1, "\x1b]0;title\x07ab", "ab", 2, 0},
		{"split utf8", 10, 1, "", "", -1, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestScreen(tc.cols, tc.rows)
			s.Write([]byte(tc.in))
			if got := s.Text(); got != tc.want {
				t.Errorf("text:\n%q\nwant\n%q", got, tc.want)
			}
			if tc.cx >= 0 {
				x, y, _ := s.Cursor()
				if x != tc.cx || y != tc.cy {
					t.Errorf("cursor %d,%d want %d,%d", x, y, tc.cx, tc.cy)
				}
			}
			// Fed byte by byte, the screen must come out the same.
			s2 := newTestScreen(tc.cols, tc.rows)
			for i := 0; i < len(tc.in); i++ {
				s2.Write([]byte{tc.in[i]})
			}
			if got := s2.Text(); got != tc.want && !strings.ContainsAny(tc.in, "\u0301\u200d") {
				t.Errorf("bytewise text:\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestDifferentialTable(t *testing.T) {
	inputs := []string{
		"hello world\r\nsecond line",
		"abcdefghijklmnopqrstuvwxyz0123456789",
		"\x1b[2J\x1b[5;5Hbox\x1b[1;1Htop",
		"1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\r\n9\r\n10\r\n11\r\n12",
		"\x1b[2;4r\x1b[4Hx\ny\nz\nw\x1b[r",
		"\x1b[31mred\x1b[0m \x1b[1mbold\x1b[m",
		"abc中文字符测试和",
		"abc\x1b[2D\x1b[1@X\x1b[P",
		"tab\there\tand\tmore\tand\tmore",
		"\x1b(0lqqqqk\r\nx    x\r\nmqqqqj\x1b(B",
		"\x1b[?1049hin alt\x1b[?1049lback",
		"line\x1b[3;1Hthree\x1b[1;3H\x1b[K",
		"aaaa\x1b[2;1Hbbbb\x1b[1;2H\x1b[2M",
	}
	for _, in := range inputs {
		s := newTestScreen(20, 6)
		o := newOracle(t, 20, 6)
		s.Write([]byte(in))
		o.e.Write([]byte(in))
		if got, want := s.Text(), o.text(); got != want {
			t.Errorf("input %q:\nours\n%s\nx/vt\n%s", in, got, want)
		}
	}
}

func TestSplitUTF8(t *testing.T) {
	s := newTestScreen(10, 1)
	b := []byte("é中")
	for i := range b {
		s.Write(b[i : i+1])
	}
	if got := s.Text(); got != "é中" {
		t.Fatalf("got %q", got)
	}
}

func TestReplies(t *testing.T) {
	var out bytes.Buffer
	s := New(Options{Cols: 10, Rows: 5, Reply: &out})
	s.Write([]byte("\x1b[c\x1b[>c\x1b[5n\x1b[3;4H\x1b[6n\x1b[?2004h\x1b[?2004$p\x1b[?1004$p\x1b[4$p\x1b[?9999$p"))
	want := "\x1b[?62;22c\x1b[>1;10;0c\x1b[0n\x1b[3;4R\x1b[?2004;1$y\x1b[?1004;2$y\x1b[4;2$y\x1b[?9999;0$y"
	if out.String() != want {
		t.Fatalf("replies %q want %q", out.String(), want)
	}
	out.Reset()
	s.Write([]byte("\x1b[2;4r\x1b[?6h\x1b[2;1H\x1b[6n"))
	if out.String() != "\x1b[2;1R" {
		t.Fatalf("CPR in origin mode %q", out.String())
	}
	out.Reset()
	s.Write([]byte("\x1b]7501;?\x07\x1b]7501;?\x1b\\"))
	if out.String() != "\x1b]7501;?\x07\x1b]7501;?\x1b\\" {
		t.Fatalf("7501 query %q", out.String())
	}
}

func TestModes(t *testing.T) {
	s := newTestScreen(10, 3)
	s.Write([]byte("\x1b[?2004h\x1b[?1004h\x1b[?25l\x1b[4h"))
	if !s.Mode(ModeBracketedPaste) || !s.Mode(ModeFocusReporting) || s.Mode(ModeCursorVisible) || !s.Mode(ModeInsert) {
		t.Fatal("modes not set")
	}
	if _, _, vis := s.Cursor(); vis {
		t.Fatal("cursor visible")
	}
	s.Write([]byte("\x1b[?2004l\x1b[?1004l\x1b[?25h\x1b[4l\x1b[?1049h"))
	if s.Mode(ModeBracketedPaste) || s.Mode(ModeFocusReporting) || !s.Mode(ModeCursorVisible) || s.Mode(ModeInsert) {
		t.Fatal("modes not reset")
	}
	if !s.AltScreen() || !s.Mode(ModeAltScreen) {
		t.Fatal("alt screen")
	}
}

func TestEvents(t *testing.T) {
	var evs []Event
	s := New(Options{OnEvent: func(e Event) { evs = append(evs, e) }})
	s.Write([]byte("\x07\x1b]0;hello\x07\x1b]2;world\x1b\\\x1b]7;file://host/tmp/a%20b\x07" +
		"\x1b]9;build done\x07\x1b]777;notify;T;B\x07\x1b]99;i=1:d=0;Hi\x1b\\\x1b]99;i=1:p=body;there\x1b\\" +
		"\x1b]9;4;1;50\x07\x1bc"))
	kinds := []EventKind{EventBell, EventTitleChanged, EventTitleChanged, EventWorkingDirChanged,
		EventNotification, EventNotification, EventNotification, EventProgress, EventReset}
	if len(evs) != len(kinds) {
		t.Fatalf("events %+v", evs)
	}
	for i, k := range kinds {
		if evs[i].Kind != k {
			t.Fatalf("event %d kind %v want %v", i, evs[i].Kind, k)
		}
	}
	if evs[2].Text != "world" || evs[3].Text != "/tmp/a b" {
		t.Fatalf("texts %+v", evs[2:4])
	}
	if n := evs[4].Notification; n.Source != 9 || n.Body != "build done" {
		t.Fatalf("osc9 %+v", n)
	}
	if n := evs[5].Notification; n.Source != 777 || n.Title != "T" || n.Body != "B" {
		t.Fatalf("osc777 %+v", n)
	}
	if n := evs[6].Notification; n.Source != 99 || n.Title != "Hi" || n.Body != "there" {
		t.Fatalf("osc99 %+v", n)
	}
	if s.Title() != "" || s.WorkingDir() != "" {
		t.Fatal("RIS keeps title/cwd")
	}
	evs = nil
	s.Write([]byte("\x1b]9;" + strings.Repeat("x", 2000) + "\x07"))
	if len(evs) != 1 || len(evs[0].Notification.Body) != MaxNotificationField {
		t.Fatalf("cap: %d", len(evs[0].Notification.Body))
	}
}

func TestEventsCanReadScreen(t *testing.T) {
	var s *Screen
	var title string
	s = New(Options{OnEvent: func(e Event) { title = s.Title() }})
	s.Write([]byte("\x1b]2;x\x07"))
	if title != "x" {
		t.Fatal("callback could not read the screen")
	}
}

func TestTail(t *testing.T) {
	s := newTestScreen(20, 8)
	s.Write([]byte("one\r\n\r\ntwo  \t\r\nthree\r\n\r\n\r\n"))
	got := s.Tail(2)
	if strings.Join(got, "|") != "two|three" {
		t.Fatalf("tail %q", got)
	}
	if got := s.Tail(10); strings.Join(got, "|") != "one|two|three" {
		t.Fatalf("tail %q", got)
	}
}

func TestCaptureScrollback(t *testing.T) {
	s := New(Options{Cols: 10, Rows: 3, Scrollback: 5})
	for i := 0; i < 10; i++ {
		s.Write([]byte{'\r', '\n', byte('0' + i)})
	}
	// 11 lines total (first blank), 3 on screen, 5 in history.
	if got := s.Capture(CaptureOptions{Scrollback: true}); got != "2\n3\n4\n5\n6\n7\n8\n9" {
		t.Fatalf("capture %q", got)
	}
	if got := s.Capture(CaptureOptions{Scrollback: true, Lines: 3}); got != "7\n8\n9" {
		t.Fatalf("capture lines %q", got)
	}
	if got := s.Capture(CaptureOptions{}); got != "7\n8\n9" {
		t.Fatalf("visible %q", got)
	}
	s.Write([]byte("\x1b[31mred\x1b[0m"))
	if got := s.Capture(CaptureOptions{ANSI: true, Lines: 1}); got != "9\x1b[0;31mred\x1b[0m" {
		t.Fatalf("ansi %q", got)
	}
	s.Write([]byte("\r\n\x1b[1;32mgreen\x1b[m\r\n\r\n\r\n"))
	if got := s.Capture(CaptureOptions{ANSI: true, Scrollback: true, Lines: 4}); got != "7\n8\n9\x1b[0;31mred\x1b[0m\n\x1b[0;1;32mgreen\x1b[0m" {
		t.Fatalf("ansi scrollback %q", got)
	}
}

func TestNoScrollbackForAlt(t *testing.T) {
	s := New(Options{Cols: 10, Rows: 3})
	s.Write([]byte("\x1b[?1049h"))
	for i := 0; i < 50; i++ {
		s.Write([]byte("x\r\n"))
	}
	if s.ScrollbackLen() != 0 {
		t.Fatalf("alt screen filled scrollback: %d", s.ScrollbackLen())
	}
	s2 := New(Options{Cols: 10, Rows: 3, Scrollback: -1})
	for i := 0; i < 50; i++ {
		s2.Write([]byte("x\r\n"))
	}
	if s2.ScrollbackLen() != 0 {
		t.Fatal("negative scrollback kept lines")
	}
}

func TestCells(t *testing.T) {
	s := newTestScreen(10, 2)
	s.Write([]byte("\x1b[1;38;5;200m中\x1b[0ma"))
	c := s.Cell(0, 0)
	if c.Content != "中" || c.Width != 2 || c.Style.Attrs&AttrBold == 0 {
		t.Fatalf("cell %+v", c)
	}
	if i, ok := c.Style.Fg.Index(); !ok || i != 200 {
		t.Fatalf("fg %v", c.Style.Fg)
	}
	if c := s.Cell(1, 0); c.Width != 0 || c.Content != "" {
		t.Fatalf("cont %+v", c)
	}
	if c := s.Cell(2, 0); c.Content != "a" || c.Style != (Style{}) {
		t.Fatalf("a %+v", c)
	}
	if c := s.Cell(5, 1); c.Content != " " || c.Width != 1 {
		t.Fatalf("blank %+v", c)
	}
	if c := s.Cell(50, 50); c != (Cell{}) {
		t.Fatal("out of range")
	}
}

func TestResize(t *testing.T) {
	s := newTestScreen(10, 5)
	s.Write([]byte("1\r\n2\r\n3\r\n4\r\n5"))
	s.Resize(10, 3)
	if got := s.Text(); got != "3\n4\n5" {
		t.Fatalf("shrink %q", got)
	}
	if _, y, _ := s.Cursor(); y != 2 {
		t.Fatalf("cursor y %d", y)
	}
	s.Resize(10, 5)
	if got := s.Text(); got != "1\n2\n3\n4\n5" {
		t.Fatalf("grow %q", got)
	}
	s.Resize(3, 5)
	s.Write([]byte("\x1b[1;1Habcdef"))
	if got := s.Text(); got != "abc\ndef\n3\n4\n5" {
		t.Fatalf("narrow %q", got)
	}
	// Shrinking with the cursor at the top drops blank rows below it.
	s2 := newTestScreen(10, 5)
	s2.Write([]byte("top"))
	s2.Resize(10, 2)
	if got := s2.Text(); got != "top" || s2.ScrollbackLen() != 0 {
		t.Fatalf("blank drop %q %d", got, s2.ScrollbackLen())
	}
}

// A wide character that does not fit in the last column wraps whole, as in
// xterm and tmux (x/vt clips it: a documented difference).
func TestWideAtEdge(t *testing.T) {
	s := newTestScreen(20, 3)
	s.Write([]byte("abc中文字符测试和更多的"))
	if got := s.Text(); got != "abc中文字符测试和更\n多的" {
		t.Fatalf("got %q", got)
	}
	s = newTestScreen(4, 3)
	s.Write([]byte("中文字"))
	if got := s.Text(); got != "中文\n字" {
		t.Fatalf("got %q", got)
	}
}

// The ansi parser ends OSC strings at any 0x9c byte, which UTF-8 titles
// contain ("✳" is e2 9c b3); OSC strings are collected by the screen.
func TestOSCUTF8(t *testing.T) {
	for _, in := range []string{"\x1b]2;✳ Claude Code\x07", "\x1b]0;✳ Claude Code\x1b\\"} {
		s := newTestScreen(20, 2)
		s.Write([]byte(in + "ok"))
		if s.Title() != "✳ Claude Code" || s.Text() != "ok" {
			t.Fatalf("%q: title %q text %q", in, s.Title(), s.Text())
		}
	}
	// ESC that is not ST ends the string and starts a sequence.
	s := newTestScreen(20, 2)
	s.Write([]byte("\x1b]2;t\x1b[2;3HX"))
	if s.Title() != "t" || s.Text() != "\n  X" {
		t.Fatalf("title %q text %q", s.Title(), s.Text())
	}
	// CAN aborts the string.
	s.Write([]byte("\x1b]2;nope\x18Y"))
	if s.Title() != "t" {
		t.Fatalf("title %q", s.Title())
	}
}

func TestConcurrentReaders(t *testing.T) {
	s := newTestScreen(80, 24)
	data := plainStream(200 << 10)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; len(data) > 0; i++ {
			n := min(len(data), 4096)
			s.Write(data[:n])
			data = data[n:]
			if i%10 == 0 {
				s.Resize(60+i%40, 10+i%20)
			}
		}
	}()
	for {
		select {
		case <-done:
			return
		default:
			_ = s.Text()
			_ = s.Tail(6)
			_ = s.Cell(3, 3)
			_ = s.Grid()
			_ = s.Capture(CaptureOptions{Scrollback: true, Lines: 50})
			_, _, _ = s.Cursor()
		}
	}
}

// capture-pane -e trims a line's trailing blanks as the plain form does
// (tmux 3.3a prints "red plain", not "red plain   "), on the screen and
// in the history alike; a blank with a background colour is drawn, so it
// stays.
func TestCaptureANSITrimsDefaultTrailingBlanks(t *testing.T) {
	s := New(Options{Cols: 20, Rows: 2})
	s.Write([]byte("\x1b[31mred\x1b[0m plain   \r\nplain2   \r\n\x1b[42mgreen  \x1b[0m  \r\nplain3   "))
	want := "\x1b[0;31mred\x1b[0m plain\nplain2\n\x1b[0;42mgreen  \x1b[0m\nplain3"
	if got := s.Capture(CaptureOptions{ANSI: true, Scrollback: true}); got != want {
		t.Errorf("capture -e:\n got %q\nwant %q", got, want)
	}
	if got := s.Capture(CaptureOptions{Scrollback: true}); got != "red plain\nplain2\ngreen\nplain3" {
		t.Errorf("capture: %q", got)
	}
}
