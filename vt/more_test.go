package vt

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestProgressAndProgramStatusEvents(t *testing.T) {
	var evs []Event
	s := New(Options{OnEvent: func(e Event) { evs = append(evs, e) }})
	s.Write([]byte("\x1b]9;4;1;150\x07\x1b]9;4;9\x07\x1b]9;4\x1b\\\x1b]7501;state=working:app=build\x07"))
	if len(evs) != 4 {
		t.Fatalf("events %+v", evs)
	}
	if p := evs[0].Progress; evs[0].Kind != EventProgress || !p.Valid || p.State != 1 || p.Percent != 100 {
		t.Fatalf("progress %+v", evs[0])
	}
	if evs[1].Kind != EventProgress || evs[1].Progress.Valid {
		t.Fatalf("malformed progress must arrive with Valid=false: %+v", evs[1])
	}
	if evs[2].Kind != EventProgress || !evs[2].Progress.Valid || evs[2].Progress.State != 0 {
		t.Fatalf("bare 4: %+v", evs[2])
	}
	if ps := evs[3].ProgramStatus; evs[3].Kind != EventProgramStatus || ps.State != "working" || ps.App != "build" {
		t.Fatalf("7501 %+v", evs[3])
	}
	// A 7501 string longer than the limit is dropped, not cut and misread.
	evs = nil
	s.Write([]byte("\x1b]7501;state=working:app=x:msg=" + strings.Repeat("QUFB", 1100) + "\x07"))
	if len(evs) != 0 {
		t.Fatalf("oversized 7501 produced %+v", evs)
	}
}

func TestNotificationCapUTF8(t *testing.T) {
	var got Notification
	s := New(Options{OnEvent: func(e Event) { got = e.Notification }})
	s.Write([]byte("\x1b]777;notify;" + strings.Repeat("é", 400) + ";b\x07"))
	if len(got.Title) > MaxNotificationField || !strings.HasPrefix(got.Title, "éé") || strings.ContainsRune(got.Title, '\uFFFD') {
		t.Fatalf("title cut badly: %d bytes", len(got.Title))
	}
	s.Write([]byte("\x1b]99;e=1:p=body;aGVsbG8=\x1b\\"))
	if got.Source != 99 || got.Body != "hello" || got.Title != "" {
		t.Fatalf("osc99 base64 %+v", got)
	}
}

func TestWorkingDir(t *testing.T) {
	s := newTestScreen(10, 2)
	s.Write([]byte("\x1b]7;file:///home/u\x07"))
	if s.WorkingDir() != "/home/u" {
		t.Fatalf("%q", s.WorkingDir())
	}
	s.Write([]byte("\x1b]7;kitty-shell-cwd://h/a b\x07"))
	if s.WorkingDir() != "/a b" {
		t.Fatalf("%q", s.WorkingDir())
	}
	s.Write([]byte("\x1b]7;/plain/path\x1b\\"))
	if s.WorkingDir() != "/plain/path" {
		t.Fatalf("%q", s.WorkingDir())
	}
}

func TestRISClearsEverything(t *testing.T) {
	s := New(Options{Cols: 10, Rows: 2})
	s.Write([]byte("\x1b]2;t\x07a\r\nb\r\nc\x1b[?1049h\x1b[?2004hx\x1b[31m"))
	s.Write([]byte("\x1bc"))
	if s.Text() != "" || s.ScrollbackLen() != 0 || s.AltScreen() || s.Mode(ModeBracketedPaste) || s.Title() != "" {
		t.Fatalf("after RIS: %q sb=%d alt=%v", s.Text(), s.ScrollbackLen(), s.AltScreen())
	}
	s.Write([]byte("z"))
	if c := s.Cell(0, 0); c.Content != "z" || c.Style != (Style{}) {
		t.Fatalf("pen survived RIS: %+v", c)
	}
}

func TestDECSTRKeepsScreen(t *testing.T) {
	s := newTestScreen(10, 3)
	s.Write([]byte("keep\x1b[2;3r\x1b[?6h\x1b[4h\x1b[1m\x1b[?25l\x1b[!p"))
	if s.Text() != "keep" || s.Mode(ModeOrigin) || s.Mode(ModeInsert) || !s.Mode(ModeCursorVisible) {
		t.Fatal("DECSTR")
	}
	s.Write([]byte("\x1b[3;1Hx"))
	if c := s.Cell(0, 2); c.Content != "x" || c.Style.Attrs != 0 {
		t.Fatalf("after DECSTR %+v", c)
	}
}

func TestSGR(t *testing.T) {
	s := newTestScreen(20, 1)
	s.Write([]byte("\x1b[1;2;3;4;5;7;9;31;42ma\x1b[22;23;24;25;27;29;39;49mb\x1b[38;2;1;2;3;48;5;17mc\x1b[38:2::10:20:30;4:3md\x1b[0;95;104me"))
	want := []Style{
		{Fg: IndexColor(1), Bg: IndexColor(2), Attrs: AttrBold | AttrDim | AttrItalic | AttrUnderline | AttrBlink | AttrReverse | AttrStrike},
		{},
		{Fg: RGBColor(1, 2, 3), Bg: IndexColor(17)},
		{Fg: RGBColor(10, 20, 30), Bg: IndexColor(17), Attrs: AttrCurlyUnderline},
		{Fg: IndexColor(13), Bg: IndexColor(12)},
	}
	for i, w := range want {
		if got := s.Cell(i, 0).Style; got != w {
			t.Errorf("cell %d style %+v want %+v", i, got, w)
		}
	}
}

func TestStyleTableBounded(t *testing.T) {
	s := newTestScreen(20, 2)
	var b bytes.Buffer
	for i := 0; i < 70000; i++ {
		fmt.Fprintf(&b, "\x1b[38;2;%d;%d;%dmx", i>>16, (i>>8)&255, i&255)
	}
	s.Write(b.Bytes())
	if len(s.styles) > styleTableMax {
		t.Fatalf("style table %d", len(s.styles))
	}
	// The last cell written keeps its exact colour.
	x, y, _ := s.Cursor()
	_ = x
	last := s.Cell(19, y)
	if r, g, bl, ok := last.Style.Fg.RGB(); !ok || int(r)<<16|int(g)<<8|int(bl) != 69999 {
		t.Fatalf("last colour %+v", last.Style)
	}
}

func TestGraphemeTableBounded(t *testing.T) {
	s := newTestScreen(10, 2)
	var b bytes.Buffer
	for i := 0; i < graphemeTableMax+100; i++ {
		// base letter + two distinct combining marks → a cluster per i
		fmt.Fprintf(&b, "%c%c%c", 'a'+rune(i%26), 0x300+rune(i/26%112), 0x300+rune(i/(26*112)%112))
	}
	s.Write(b.Bytes())
	if len(s.graphemes) > graphemeTableMax {
		t.Fatalf("grapheme table %d", len(s.graphemes))
	}
	for y := 0; y < 2; y++ {
		for x := 0; x < 10; x++ {
			if c := s.Cell(x, y); c.Content == "" {
				t.Fatalf("cell %d,%d empty", x, y)
			}
		}
	}
}

func TestResizeAltScreen(t *testing.T) {
	s := newTestScreen(10, 5)
	s.Write([]byte("main1\r\nmain2\x1b[?1049h\x1b[5;1Halt"))
	s.Resize(6, 3)
	if got := s.Text(); got != "\n\nalt" {
		t.Fatalf("alt after resize %q", got)
	}
	s.Write([]byte("\x1b[?1049l"))
	if got := s.Text(); got != "main1\nmain2" {
		t.Fatalf("main after resize %q", got)
	}
	if x, y, _ := s.Cursor(); x != 5 || y != 1 {
		t.Fatalf("restored cursor %d,%d", x, y)
	}
}

// A wide character that no longer fits moves whole to the next row; the
// column it leaves is blank. The alternate screen is cut instead.
func TestResizeMovesWideWhole(t *testing.T) {
	s := newTestScreen(6, 2)
	s.Write([]byte("ab中文"))
	s.Resize(5, 2)
	if got := s.Text(); got != "ab中\n文" {
		t.Fatalf("%q", got)
	}
	if c := s.Cell(4, 0); c.Content != " " || c.Width != 1 {
		t.Fatalf("half wide char left: %+v", c)
	}
	s = newTestScreen(6, 2)
	s.Write([]byte("\x1b[?1049hab中文"))
	s.Resize(5, 2)
	if got := s.Text(); got != "ab中" {
		t.Fatalf("alternate screen: %q", got)
	}
	if c := s.Cell(4, 0); c.Content != " " || c.Width != 1 {
		t.Fatalf("half wide char left on the alternate screen: %+v", c)
	}
}

func TestScrollbackKeepsStylesAndWide(t *testing.T) {
	s := New(Options{Cols: 10, Rows: 1})
	s.Write([]byte("\x1b[31m中\x1b[0mé\u0301x\r\n"))
	got := s.Capture(CaptureOptions{Scrollback: true, ANSI: true})
	if got != "\x1b[0;31m中\x1b[0mé\u0301x" {
		t.Fatalf("%q", got)
	}
	// Growing the screen brings the line back as cells.
	s.Resize(10, 2)
	if c := s.Cell(0, 0); c.Content != "中" || c.Width != 2 || c.Style.Fg != IndexColor(1) {
		t.Fatalf("pulled back %+v", c)
	}
	if c := s.Cell(2, 0); c.Content != "é\u0301" {
		t.Fatalf("cluster %+v", c)
	}
}

func TestPinnedFooterFeedsHistory(t *testing.T) {
	s := New(Options{Cols: 10, Rows: 4})
	s.Write([]byte("\x1b[4;1Hfooter\x1b[1;3r\x1b[3;1H"))
	for i := 0; i < 5; i++ {
		fmt.Fprintf(s, "\r\nl%d", i)
	}
	if got := s.Capture(CaptureOptions{Scrollback: true}); got != "\n\n\nl0\nl1\nl2\nl3\nl4\nfooter" {
		t.Fatalf("%q", got)
	}
	// A region lower down does not feed the history.
	s2 := New(Options{Cols: 10, Rows: 4})
	s2.Write([]byte("\x1b[2;3r\x1b[3;1H\n\n\n"))
	if s2.ScrollbackLen() != 0 {
		t.Fatal("mid-screen region fed the history")
	}
}

func TestSimpleRunes(t *testing.T) {
	for r := rune(0x80); r < 0x3000; r++ {
		if !simpleRune(r) {
			continue
		}
		str := string(r)
		cl, w := ansi.FirstGraphemeCluster(str, ansi.GraphemeWidth)
		if cl != str || w != 1 {
			t.Errorf("U+%04X: segmenter says %q width %d", r, cl, w)
		}
		// Nothing that follows may join it, except marks (handled by the
		// caller, which only takes the fast path before ASCII or another
		// simple rune).
		for _, next := range []string{"a", "─", "é"} {
			if cl, _ := ansi.FirstGraphemeCluster(str+next, ansi.GraphemeWidth); cl != str {
				t.Errorf("U+%04X joins %q", r, next)
			}
		}
	}
}

func TestPromptMarks(t *testing.T) {
	var marks []string
	s := New(Options{OnEvent: func(e Event) {
		if e.Kind == EventPromptMark {
			marks = append(marks, e.Text)
		}
	}})
	s.Write([]byte("\x1b]133;A;aid=7\x07$ \x1b]133;B\x07ls\r\n\x1b]133;C\x07out\r\n\x1b]133;D;1\x07"))
	if strings.Join(marks, ",") != "A,B,C,D;1" {
		t.Fatalf("marks %q", marks)
	}
}

func TestLongClusterCapped(t *testing.T) {
	s := newTestScreen(10, 2)
	s.Write([]byte("a" + strings.Repeat("\u0301", 100000) + "b"))
	c := s.Cell(0, 0)
	if len(c.Content) > maxClusterBytes || !strings.HasPrefix(c.Content, "a\u0301") {
		t.Fatalf("cluster %d bytes", len(c.Content))
	}
	if s.Cell(1, 0).Content != "b" {
		t.Fatal("text after the cluster lost")
	}
	// Marks arriving one write at a time join the cell, capped too.
	for i := 0; i < 1000; i++ {
		s.Write([]byte("\u0301"))
	}
	if c := s.Cell(1, 0); len(c.Content) > maxClusterBytes || !strings.HasPrefix(c.Content, "b\u0301") {
		t.Fatalf("appended cluster %q", c.Content)
	}
}

// In the pending-wrap state the cursor acts as tmux's, past the last
// column (each case checked against tmux 3.3a on this machine).
func TestPendingWrapLikeTmux(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"xxxxxxxxxxxx\bhello", "xxxxxxxxxxxh\nello"},
		{"xxxxxxxxxxxx\x1b[Dhello", "xxxxxxxxxxxh\nello"},
		{"xxxxxxxxxxyy\x1b[2Dhello", "xxxxxxxxxxhe\nllo"},
		{"xxxxxxxxxxyy\x1b[Jhello", "xxxxxxxxxxyy\nhello"},
		{"xxxxxxxxxxyy\x1b[Khello", "xxxxxxxxxxyy\nhello"},
		{"xxxxxxxxxxyy\x1b[1Xhello", "xxxxxxxxxxyy\nhello"},
		{"xxxxxxxxxxyy\x1b[1@hello", "xxxxxxxxxxyy\nhello"},
		{"xxxxxxxxxxyy\x1b[1Phello", "xxxxxxxxxxyy\nhello"},
		{"xxxxxxxxxxyy\x1b7\x1b[H\x1b8hello", "xxxxxxxxxxyh\nello"},
		{"xxxxxxxxxxy中hello", "xxxxxxxxxxy\n中hello"},
		{"xxxxxxxxxxyy\x1b[1Ghello", "helloxxxxxyy"},
		{"\x1b[?7l0123456789ab中", "0123456789ab"},
		{"\x1b[2;3r\x1b[H\r\n\r\x1b[4Lhello", "\nhello"},
		{"\x1b[11G\tx", "           x"},
		{"ab\x1b[20bc", "abbbbbbbbbbb\nc"},
		{"\x1b[9Gx\x1b[2b", "        xxx"},
		{"\x1b[?7l0123456789a中", "0123456789a"},
		{"\r\n\r\nxxxxxxxxxxxx\nhello", "\n\nxxxxxxxxxxxx\n\nhello"},
		{"\r\n\r\nxxxxxxxxxxxx\x1bDhello", "\n\nxxxxxxxxxxxx\n\nhello"},
		{"\r\n\r\nxxxxxxxxxxxx\x1bMhello", "\n\nhelloxxxxxxx"},
		{"\r\n\r\nxxxxxxxxxxxx\x1b[Ahello", "\n           h\nelloxxxxxxxx"},
		{"\r\n\r\nxxxxxxxxxxxx\x1b[Bhello", "\n\nxxxxxxxxxxxx\n           h\nello"},
		{"\r\n\r\nxxxxxxxxxxxx\x1b[1dhello", "\nhello\nxxxxxxxxxxxx"},
	} {
		s := newTestScreen(12, 5)
		s.Write([]byte(tc.in))
		if got := s.Text(); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestCellASCIIContent(t *testing.T) {
	s := newTestScreen(100, 1)
	var b strings.Builder
	for c := byte(0x20); c < 0x7f; c++ {
		b.WriteByte(c)
	}
	s.Write([]byte(b.String()))
	for i := 0; i < 0x7f-0x20; i++ {
		if got := s.Cell(i, 0).Content; got != string(rune(0x20+i)) {
			t.Fatalf("cell %d: %q", i, got)
		}
	}
}

func TestGridFindsBoxes(t *testing.T) {
	s := newTestScreen(30, 6)
	s.Write([]byte("text\r\n╭──────╮\r\n│中 ok │\r\n╰──────╯"))
	g := s.Grid()
	if len(g) != 6 || len(g[0]) != 30 || g[2][1] != "中" || g[2][2] != "" {
		t.Fatalf("grid %q", g[2])
	}
	boxes := FindBoxes(g)
	if len(boxes) != 1 || !strings.Contains(boxes[0].Text(), "中 ok") {
		t.Fatalf("boxes %+v", boxes)
	}
}

func TestAltScreenFreedOnExit(t *testing.T) {
	s := newTestScreen(20, 5)
	s.Write([]byte("\x1b[?1049h\x1b[2;3H\x1b7full screen\x1b[?1049l"))
	if s.alt != nil {
		t.Fatal("alternate grid kept after 1049l")
	}
	// Its saved cursor survives for the next visit, as in xterm.
	s.Write([]byte("\x1b[?1049h\x1b8X"))
	if x, y, _ := s.Cursor(); x != 3 || y != 1 {
		t.Fatalf("alt DECRC %d,%d", x, y)
	}
	// Mode 47 keeps the content across a switch.
	s.Write([]byte("\x1b[?1049l\x1b[?47hkeep\x1b[?47l\x1b[?47h"))
	if !strings.Contains(s.Text(), "keep") {
		t.Fatalf("47 lost content: %q", s.Text())
	}
}

// Shrinking drops rows below the cursor even when they hold text (tmux).
func TestResizeDropsBelowCursor(t *testing.T) {
	s := newTestScreen(10, 5)
	s.Write([]byte("a\r\nb\r\nc\r\nd\r\ne\x1b[2;1H"))
	s.Resize(10, 2)
	if got := s.Text(); got != "a\nb" {
		t.Fatalf("%q", got)
	}
	if _, y, _ := s.Cursor(); y != 1 {
		t.Fatalf("cursor row %d", y)
	}
	s.Resize(10, 1)
	if got := s.Text(); got != "b" || s.ScrollbackLen() != 1 {
		t.Fatalf("%q sb=%d", got, s.ScrollbackLen())
	}
}

func TestInvalidUTF8(t *testing.T) {
	for in, want := range map[string]string{
		"a\xffb":         "a\uFFFDb",
		"a\xc3(b":        "a\uFFFD(b",
		"a\xe4\xb8b":     "a\uFFFD\uFFFDb",
		"\xed\xa0\x80x":  "\uFFFD\uFFFD\uFFFDx",
		"e\u0301\xff":    "e\u0301\uFFFD",
		"a\x80\x9bb[31m": "a\uFFFD\uFFFDb[31m",
	} {
		s := newTestScreen(20, 2)
		s.Write([]byte(in))
		if got := s.Text(); got != want {
			t.Errorf("%q: got %q want %q", in, got, want)
		}
	}
}

func TestTitleStack(t *testing.T) {
	var titles []string
	s := New(Options{OnEvent: func(e Event) {
		if e.Kind == EventTitleChanged {
			titles = append(titles, e.Text)
		}
	}})
	s.Write([]byte("\x1b]2;shell\x07\x1b[22;0t\x1b]2;vim file\x07\x1b[23;0t"))
	if s.Title() != "shell" || strings.Join(titles, "|") != "shell|vim file|shell" {
		t.Fatalf("title %q events %q", s.Title(), titles)
	}
	s.Write([]byte("\x1b[23;0t")) // empty stack: nothing
	if s.Title() != "shell" {
		t.Fatal("pop of an empty stack changed the title")
	}
	for i := 0; i < 50; i++ {
		s.Write([]byte("\x1b[22t"))
	}
	if len(s.titles) > maxTitleStack {
		t.Fatalf("stack %d", len(s.titles))
	}
}

// An ANSI capture replayed into a fresh screen gives the same cells.
func TestCaptureANSIRoundTrip(t *testing.T) {
	for name, data := range map[string][]byte{
		"listing": listingStream(32 << 10),
		"tui":     tuiStream(32<<10, 120, 40),
	} {
		s := New(Options{Cols: 120, Rows: 40})
		writeChunks(s, data)
		c := s.Capture(CaptureOptions{ANSI: true})
		r := New(Options{Cols: 120, Rows: 40})
		r.Write([]byte(strings.ReplaceAll(c, "\n", "\r\n")))
		for y := 0; y < 40; y++ {
			for x := 0; x < 120; x++ {
				a, b := s.Cell(x, y), r.Cell(x, y)
				if a.Content != b.Content || a.Width != b.Width || (a.Content != " " && a.Style != b.Style) {
					t.Fatalf("%s: cell %d,%d: %+v vs replay %+v", name, x, y, a, b)
				}
			}
		}
	}
}
