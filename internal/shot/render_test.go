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
	rows := ParseANSI("\x1b[41m \x1b[0;32mX\x1b[0;7;32mY\x1b[0;4;38;2;10;20;30mU\x1b[0;2;38;2;200;100;50;48;2;0;0;0mD\x1b[0;1;32mX\x1b[0m─é", 10, 2)
	img, res := decode(t, Picture{Title: "work:build", Cols: 10, Rows: rows})
	if px := cellPixels(img, 0, 0); len(px) != 1 || px[red] != cellW*cellH {
		t.Errorf("a red-background blank should be all red, got %v", px)
	}
	if px := cellPixels(img, 1, 0); px[green] == 0 || px[defaultBg] == 0 || len(px) != 2 {
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
		t.Errorf("é should be drawn as a visible box: %v", px)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "1 character") || !strings.Contains(res.Warnings[0], "é") {
		t.Errorf("warnings = %q, want one counting the é", res.Warnings)
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
