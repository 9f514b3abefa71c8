package shot

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/tuios/tuios/vt"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/opentype"
)

// decode renders p as a PNG and decodes it back.
func decode(t *testing.T, p Picture) (image.Image, Result) {
	t.Helper()
	var b bytes.Buffer
	res, err := Render(&b, p, PNG)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	if img.Bounds().Dx() != res.Width || img.Bounds().Dy() != res.Height || res.Unit != "px" {
		t.Fatalf("result says %dx%d %s, image is %v", res.Width, res.Height, res.Unit, img.Bounds())
	}
	return img, res
}

func rgba(c color.Color) color.RGBA {
	r, g, b, a := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

// cellPixels is every pixel of cell (x, y) of a PNG picture.
func cellPixels(img image.Image, x, y int) map[color.RGBA]int {
	ox, oy := frameBorder+framePad+x*cellW, frameBorder+titleH+framePad+y*cellH
	seen := map[color.RGBA]int{}
	for py := oy; py < oy+cellH; py++ {
		for px := ox; px < ox+cellW; px++ {
			seen[rgba(img.At(px, py))]++
		}
	}
	return seen
}

func TestPNGColours(t *testing.T) {
	red, green := color.RGBA{0xcd, 0, 0, 0xff}, color.RGBA{0, 0xcd, 0, 0xff}
	rows := ParseANSI("\x1b[41m \x1b[0;32mX\x1b[0;7;32mY\x1b[0;4;38;2;10;20;30mU\x1b[0;2;38;2;200;100;50;48;2;0;0;0mD\x1b[0;1;32mX\x1b[0m─ꙮ", 10, 2)
	img, res := decode(t, Picture{Title: "work:build", Cols: 10, Rows: rows})
	if px := cellPixels(img, 0, 0); len(px) != 1 || px[red] != cellW*cellH {
		t.Errorf("a red-background blank should be all red, got %v", px)
	}
	// Antialiased: full green where the glyph covers a pixel, the
	// background around it, and only blends of the two at its edges.
	if px := cellPixels(img, 1, 0); px[green] == 0 || px[defaultBg] == 0 || !onlyBlends(px, green, defaultBg) {
		t.Errorf("a green X on the default background: got %v", px)
	}
	if px := cellPixels(img, 2, 0); px[green] < px[defaultBg] || px[defaultBg] == 0 {
		t.Errorf("inverse should paint the cell green with the glyph in the background colour: %v", px)
	}
	under := color.RGBA{10, 20, 30, 0xff}
	ox, oy := frameBorder+framePad+3*cellW, frameBorder+titleH+framePad
	for x := ox; x < ox+cellW; x++ {
		if got := rgba(img.At(x, oy+cellH-1)); got != under {
			t.Fatalf("underline row pixel %d = %v, want %v", x, got, under)
		}
	}
	if px := cellPixels(img, 4, 0); px[color.RGBA{100, 50, 25, 0xff}] == 0 {
		t.Errorf("dim should draw the glyph half-way to the background: %v", px)
	}
	if bold, plain := cellPixels(img, 5, 0)[green], cellPixels(img, 1, 0)[green]; plain == 0 || bold <= plain {
		t.Errorf("a bold X should have more ink than a plain one: %d vs %d pixels", bold, plain)
	}
	boxRow := frameBorder + titleH + framePad + cellH/2
	bx := frameBorder + framePad + 6*cellW
	for x := bx; x < bx+cellW; x++ {
		if got := rgba(img.At(x, boxRow)); got != defaultFg {
			t.Fatalf("─ should be a line across the cell: pixel %d = %v", x, got)
		}
	}
	if px := cellPixels(img, 7, 0); px[defaultFg] == 0 {
		t.Errorf("ꙮ (in no font here) should be drawn as a visible box: %v", px)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "1 character") || !strings.Contains(res.Warnings[0], "ꙮ") {
		t.Errorf("warnings = %q, want one counting the ꙮ", res.Warnings)
	}
	// The frame: the border pixel and the title bar.
	if got := rgba(img.At(0, 0)); got != frameLine {
		t.Errorf("border pixel = %v, want %v", got, frameLine)
	}
	titleInk := 0
	for y := frameBorder; y < frameBorder+titleH-1; y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			if rgba(img.At(x, y)) == titleColour {
				titleInk++
			}
		}
	}
	if titleInk < 20 {
		t.Errorf("the title is not drawn (%d title pixels)", titleInk)
	}
}

// onlyBlends says whether every colour in px lies between fg and bg.
func onlyBlends(px map[color.RGBA]int, fg, bg color.RGBA) bool {
	in := func(v, a, b uint8) bool { return int(v) >= int(min(a, b))-1 && int(v) <= int(max(a, b))+1 }
	for c := range px {
		if !in(c.R, fg.R, bg.R) || !in(c.G, fg.G, bg.G) || !in(c.B, fg.B, bg.B) {
			return false
		}
	}
	return true
}

// The characters agent CLIs draw their state with, accented letters and
// a braille spinner frame are drawn (Go Mono, or a shape where it has no
// glyph), never as the hollow box of a missing glyph; two different
// marks draw differently.
func TestPNGDrawsAgentGlyphs(t *testing.T) {
	const glyphs = "●▲■✳❯✓—éñü×○✗⏺⎿◐✻⠋⠙✢✶✽▶▾◇✦⚠☐"
	n := len([]rune(glyphs))
	img, res := decode(t, Picture{Cols: n, Rows: ParseANSI(glyphs, n, 1)})
	if len(res.Warnings) != 0 {
		t.Fatalf("warnings: %q", res.Warnings)
	}
	box, _ := decode(t, Picture{Cols: 1, Rows: ParseANSI("ꙮ", 1, 1)})
	hollow := cellPixels(box, 0, 0)
	cells := make([]map[color.RGBA]int, n)
	for i, r := range []rune(glyphs) {
		px := cellPixels(img, i, 0)
		cells[i] = px
		if px[defaultBg] == cellW*cellH {
			t.Errorf("%c drew nothing", r)
		}
		if same(px, hollow) {
			t.Errorf("%c is drawn as the hollow box", r)
		}
	}
	if same(cells[5], cells[12]) {
		t.Error("✓ and ✗ draw alike")
	}
	// A letter and a combining mark in one cell draw the letter accented.
	acc, res := decode(t, Picture{Cols: 2, Rows: [][]vt.Cell{{{Content: "e\u0301", Width: 1}, {Content: "e", Width: 1}}}})
	if len(res.Warnings) != 0 || cellPixels(acc, 0, 0)[defaultBg] >= cellPixels(acc, 1, 0)[defaultBg] {
		t.Errorf("e + U+0301 does not draw more than e: %q", res.Warnings)
	}
}

func same(a, b map[color.RGBA]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestPNGMarksWhereTheScreenStarts(t *testing.T) {
	img, _ := decode(t, Picture{Cols: 4, History: 2, Rows: ParseANSI("old\nolder\nnow", 4, 3)})
	y := frameBorder + titleH + framePad + 2*cellH - 1
	x := frameBorder + framePad
	if got, next := rgba(img.At(x, y)), rgba(img.At(x+1, y)); got != frameLine || next != defaultBg {
		t.Errorf("no dotted line above the screen: %v %v", got, next)
	}
	if got := rgba(img.At(x, y-cellH)); got != defaultBg {
		t.Errorf("a line where none belongs: %v", got)
	}
}

func TestPNGTooLarge(t *testing.T) {
	rows := make([][]vt.Cell, 1000)
	if _, err := Render(io.Discard, Picture{Cols: 1000, Rows: rows}, PNG); err == nil || !strings.Contains(err.Error(), "bound") {
		t.Fatalf("a 1000x1000 PNG should be refused, got %v", err)
	}
}

// hostile is pane text that would break out of markup if it were not
// escaped.
const hostile = `</svg><script>alert(1)</script>"><img src=x onerror=alert(2)>&amp;'`

func hostilePicture() Picture {
	return Picture{
		Title: `"><img src=x onerror=alert(3)></title><script>`,
		Cols:  90,
		Rows:  ParseANSI("\x1b[31m"+hostile+"\x1b[0m\n"+hostile, 90, 5),
	}
}

func TestSVGEscapesPaneText(t *testing.T) {
	var b bytes.Buffer
	if _, err := Render(&b, hostilePicture(), SVG); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"<script", "<img", `"><`, "</svg><"} {
		if strings.Contains(out, bad) {
			t.Errorf("SVG contains %q:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "&lt;/svg&gt;&lt;script&gt;") {
		t.Errorf("the text is not shown escaped:\n%s", out)
	}
	// Well-formed XML with exactly the elements the renderer writes.
	dec := xml.NewDecoder(&b)
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
			switch e.Name.Local {
			case "svg", "title", "rect", "text", "line":
			default:
				t.Errorf("unexpected element <%s>", e.Name.Local)
			}
		case xml.EndElement:
			depth--
		}
	}
	if roots != 1 {
		t.Errorf("%d root elements, want 1", roots)
	}
}

func TestHTMLEscapesPaneText(t *testing.T) {
	var b bytes.Buffer
	if _, err := Render(&b, hostilePicture(), HTML); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"<script", "<img", `"><`, "</svg>"} {
		if strings.Contains(out, bad) {
			t.Errorf("HTML contains %q", bad)
		}
	}
	if !strings.Contains(out, "&lt;/svg&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img") || !strings.Contains(out, `<span style="color:#cd0000">`) {
		t.Errorf("the text is not shown escaped in its colour:\n%s", out)
	}
	if !strings.Contains(out, "default-src 'none'") {
		t.Errorf("no Content-Security-Policy")
	}
	// Every tag in the page is one the renderer writes.
	tags := regexp.MustCompile(`</?([a-zA-Z!]+)`).FindAllStringSubmatch(out, -1)
	for _, m := range tags {
		switch strings.ToLower(m[1]) {
		case "!doctype", "html", "head", "meta", "title", "style", "body", "figure", "figcaption", "pre", "span", "hr":
		default:
			t.Errorf("unexpected tag %s", m[0])
		}
	}
}

func TestANSIOnlySGR(t *testing.T) {
	p := Picture{Title: "t\x1b]0;x\x07", Cols: 30, History: 1, Rows: ParseANSI(
		"\x1b[1;31mred\x1b[0m\x1b]0;title\x07\x1b[2J\x1b[10;10Hmoved\x1bc\x07\u009b2J\u202eRLO\n\x1b[38;5;200mpink\x1b[0m", 30, 5)}
	var b bytes.Buffer
	res, err := Render(&b, p, ANSI)
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	rest := regexp.MustCompile("\x1b\\[[0-9;:]*m").ReplaceAllString(out, "")
	for _, r := range rest {
		if r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0 || r == 0x202e {
			t.Fatalf("a control %U passed through:\n%q", r, out)
		}
	}
	if !strings.Contains(out, "\x1b[0;1;31mred") || !strings.Contains(out, "\x1b[0;38;5;200mpink") {
		t.Errorf("styles lost:\n%q", out)
	}
	lines := strings.Split(strings.TrimSuffix(rest, "\n"), "\n")
	if len(lines) != 5 || res.Height != 4 || !strings.HasPrefix(lines[0], "╭─ t") || !strings.HasPrefix(lines[2], "├") {
		t.Errorf("frame wrong (%d lines, height %d):\n%s", len(lines), res.Height, rest)
	}
	for _, l := range lines {
		if w := widths.String(l); w != 32 {
			t.Errorf("line %q is %d wide, want 32", l, w)
		}
	}
}

func TestTXT(t *testing.T) {
	var b bytes.Buffer
	res, err := Render(&b, Picture{Cols: 10, Rows: ParseANSI("\x1b[31mhello\x1b[0m  \n\nbye", 10, 5)}, TXT)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "hello\n\nbye\n" || res.Width != 10 || res.Height != 3 {
		t.Errorf("txt = %q %+v", got, res)
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range Formats() {
		if g, ok := ParseFormat(strings.ToUpper(string(f))); !ok || g != f {
			t.Errorf("ParseFormat(%q) = %q %v", f, g, ok)
		}
	}
	if _, ok := ParseFormat("jpeg"); ok {
		t.Error("jpeg accepted")
	}
}

// BenchmarkPNG draws an 80×24 screen of text, colours and agent glyphs
// (the fonts are parsed once, before the timer).
func BenchmarkPNG(b *testing.B) {
	line := "\x1b[32m✓\x1b[0m café ● working ⠋ \x1b[1;31merror\x1b[0m ❯ ✳ Claude Code — résumé 0123456789 abcdefghij\n"
	rows := ParseANSI(strings.Repeat(line, 24), 80, 24)
	p := Picture{Title: "work:build", Cols: 80, Rows: rows}
	if _, err := Render(io.Discard, p, PNG); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Render(io.Discard, p, PNG)
	}
}

// BenchmarkParseFonts is the one-off cost of the first PNG a process
// draws: parsing Go Mono and Go Mono Bold.
func BenchmarkParseFonts(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := opentype.Parse(gomono.TTF); err != nil {
			b.Fatal(err)
		}
		if _, err := opentype.Parse(gomonobold.TTF); err != nil {
			b.Fatal(err)
		}
	}
}
