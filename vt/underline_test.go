package vt

import (
	"strings"
	"testing"
)

// Every underline style and the underline colour are kept and written
// back: a client drawing the screen's rows shows them as the program set
// them.
func TestUnderlineStylesAndColourRoundTrip(t *testing.T) {
	s := New(Options{Cols: 20, Rows: 2})
	s.Write([]byte("\x1b[4:4mA\x1b[4:5mB\x1b[4:3;58:2::1:2:3mC\x1b[59mD\x1b[24;58;5;196mE\x1b[21mF\x1b[0mG"))
	want := []Style{
		{Attrs: AttrDottedUnderline},
		{Attrs: AttrDashedUnderline},
		{Attrs: AttrCurlyUnderline, Ul: RGBColor(1, 2, 3)},
		{Attrs: AttrCurlyUnderline},
		{Ul: IndexColor(196)},
		{Ul: IndexColor(196), Attrs: AttrDoubleUnderline},
		{},
	}
	for x, w := range want {
		if got := s.Cell(x, 0).Style; got != w {
			t.Errorf("cell %d: %+v, want %+v", x, got, w)
		}
	}
	// The row's SGR text, read by another screen, gives the same cells.
	row := string(s.RowANSI(0, nil))
	for _, seq := range []string{"4:4", "4:5", "4:3", "58;2;1;2;3", "58;5;196", "4:2"} {
		if !strings.Contains(row, seq) {
			t.Errorf("the row's text lacks %q: %q", seq, row)
		}
	}
	o := New(Options{Cols: 20, Rows: 2})
	o.Write([]byte(row))
	for x := range want {
		if a, b := s.Cell(x, 0), o.Cell(x, 0); a != b {
			t.Errorf("cell %d after a round trip: %+v, was %+v", x, b, a)
		}
	}
}
