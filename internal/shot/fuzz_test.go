package shot

import (
	"bytes"
	"image/png"
	"regexp"
	"testing"
	"unicode/utf8"
)

var sgrOnly = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// FuzzParseANSI feeds arbitrary pane text through the parser and every
// encoder: rows are always exactly as wide as asked, cell text never holds
// a control, the ANSI output carries no escape but SGR, and the PNG
// decodes.
func FuzzParseANSI(f *testing.F) {
	for _, s := range []string{
		"\x1b[1;31mred\x1b[0m plain", "日本\tx\n\x1b[38:2::1:2:3mrgb", "\x1b]0;t\x07\x1b[2J\x1bP\x1b\\",
		"\x1b[38;5", "\x1b[4:3m~\x1b[?1h", "e\u0301\u202e\u0085", "\xff\xfe", "</svg><script>",
	} {
		f.Add(s, 12)
	}
	f.Fuzz(func(t *testing.T, s string, cols int) {
		cols = cols%40 + 1
		if cols < 1 {
			cols += 40
		}
		rows := ParseANSI(s, cols, 8)
		if len(rows) == 0 || len(rows) > 8 {
			t.Fatalf("%d rows", len(rows))
		}
		for _, r := range rows {
			if len(r) != cols {
				t.Fatalf("row of %d cells, want %d", len(r), cols)
			}
			for i, c := range r {
				if c.Width == 2 && (i+1 >= len(r) || r[i+1].Width != 0) {
					t.Fatalf("wide cell %d without its second column", i)
				}
				if !utf8.ValidString(c.Content) || clean(c.Content) != c.Content {
					t.Fatalf("cell text %q is not clean", c.Content)
				}
			}
		}
		p := Picture{Title: s, Cols: cols, Rows: rows, History: 1}
		var b bytes.Buffer
		if _, err := Render(&b, p, ANSI); err != nil {
			t.Fatal(err)
		}
		for _, r := range sgrOnly.ReplaceAllString(b.String(), "") {
			if r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 {
				t.Fatalf("control %U in the ANSI output", r)
			}
		}
		for _, f := range []Format{SVG, HTML, TXT} {
			if _, err := Render(&b, p, f); err != nil {
				t.Fatal(err)
			}
		}
		b.Reset()
		if _, err := Render(&b, p, PNG); err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(&b); err != nil {
			t.Fatal(err)
		}
	})
}
