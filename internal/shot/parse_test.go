package shot

import (
	"testing"

	"github.com/tuios/tuios/vt"
)

func TestParseANSIStyles(t *testing.T) {
	rows := ParseANSI("\x1b[0;1;31mER\x1b[0m ok \x1b[0;38;2;1;2;3;48;5;200mT\x1b[4:2;7mU\x1b[0m\nsecond", 12, 10)
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	for i, r := range rows {
		if len(r) != 12 {
			t.Fatalf("row %d has %d cells, want 12", i, len(r))
		}
	}
	r := rows[0]
	if r[0].Content != "E" || r[0].Style != (vt.Style{Fg: vt.IndexColor(1), Attrs: vt.AttrBold}) {
		t.Errorf("cell 0 = %+v, want a bold red E", r[0])
	}
	if r[2].Style != (vt.Style{}) || r[3].Content != "o" {
		t.Errorf("the reset did not take: %+v %+v", r[2], r[3])
	}
	if want := (vt.Style{Fg: vt.RGBColor(1, 2, 3), Bg: vt.IndexColor(200)}); r[6].Content != "T" || r[6].Style != want {
		t.Errorf("cell 6 = %+v, want T in %+v", r[6], want)
	}
	if a := r[7].Style.Attrs; a&vt.AttrDoubleUnderline == 0 || a&vt.AttrReverse == 0 || r[7].Style.Fg != vt.RGBColor(1, 2, 3) {
		t.Errorf("cell 7 = %+v, want the colours kept, double underline and inverse added", r[7])
	}
	if r[11] != (vt.Cell{Content: " ", Width: 1}) {
		t.Errorf("padding = %+v, want a default blank", r[11])
	}
	if got := rowText(rows[1], 12); got != "second      " {
		t.Errorf("row 1 = %q", got)
	}
}

func TestParseANSIDropsEverythingButSGR(t *testing.T) {
	hostile := "a\x1b]0;pwned\x07b\x1b[2J\x1b[Hc\x1bPq#0\x1b\\d\x07\x08\x1b(Be\u009b31mf\u202eg\x1b[?25lh\x1b[1;2;3"
	rows := ParseANSI(hostile, 20, 5)
	// The C1 CSI (U+009B) is never read as one: it is shown as U+FFFD and
	// what follows it is text.
	if got := rowText(rows[0], 20); got != "abcde\ufffd31mfgh        " {
		t.Errorf("row = %q: only the printable text should be left", got)
	}
	for _, c := range rows[0] {
		if c.Style != (vt.Style{}) {
			t.Fatalf("a non-SGR sequence changed the style: %+v", c)
		}
	}
}

func TestParseANSIWideAndCut(t *testing.T) {
	rows := ParseANSI("日本x\tyz\n"+"abcdef日", 7, 1)
	if len(rows) != 1 {
		t.Fatalf("maxRows not honoured: %d rows", len(rows))
	}
	r := rows[0]
	if r[0].Content != "日" || r[0].Width != 2 || r[1].Width != 0 || r[2].Content != "本" || r[4].Content != "x" {
		t.Errorf("wide cells wrong: %+v", r)
	}
	// The tab goes to column 8, past the edge: the row is cut at 7.
	if len(r) != 7 || rowText(r, 7) != "日本x  " {
		t.Errorf("row = %q (%d cells)", rowText(r, 7), len(r))
	}
	r = ParseANSI("abcdef日", 7, 1)[0]
	if r[6] != (vt.Cell{Content: " ", Width: 1}) {
		t.Errorf("a wide character that does not fit must be dropped: %+v", r[6])
	}
}
