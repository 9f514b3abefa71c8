package shot

import (
	"fmt"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
)

// The PNG's text is Go Mono (golang.org/x/image/font/gofont), regular
// and bold, antialiased, at fontSize pixels: its advance is 0.6 em, so a
// cell is exactly cellW pixels wide, and its ascent and descent make
// cellH. The fonts are parsed the first time a PNG is drawn, never at
// start-up: the TTF bytes are static data, and a process that draws no
// PNG (every other tuios verb) parses nothing.
const (
	fontSize = 15
	ascent   = 15 // Go Mono's ascent at fontSize, hinted: the baseline's offset in a cell
)

// monoFonts are the parsed Go Mono fonts. An sfnt.Font is safe for
// concurrent use; the faces drawn with are not, so each PNG makes its own
// (newFaces).
type monoFonts struct {
	regular, bold *sfnt.Font
}

// parsedFonts parses Go Mono once per process, on first use. It is the
// memo of a constant (the same bytes always parse the same), not state
// anything changes.
var parsedFonts = sync.OnceValues(func() (monoFonts, error) {
	r, err := opentype.Parse(gomono.TTF)
	if err != nil {
		return monoFonts{}, fmt.Errorf("parse Go Mono: %w", err)
	}
	b, err := opentype.Parse(gomonobold.TTF)
	if err != nil {
		return monoFonts{}, fmt.Errorf("parse Go Mono Bold: %w", err)
	}
	return monoFonts{regular: r, bold: b}, nil
})

// faces are one PNG's font faces and what it needs to tell a glyph the
// font has from one it lacks.
type faces struct {
	fonts         monoFonts
	regular, bold font.Face
	buf           sfnt.Buffer
}

func newFaces() (*faces, error) {
	fs, err := parsedFonts()
	if err != nil {
		return nil, err
	}
	opt := &opentype.FaceOptions{Size: fontSize, DPI: 72, Hinting: font.HintingFull}
	r, err := opentype.NewFace(fs.regular, opt)
	if err != nil {
		return nil, err
	}
	b, err := opentype.NewFace(fs.bold, opt)
	if err != nil {
		return nil, err
	}
	return &faces{fonts: fs, regular: r, bold: b}, nil
}

// has says whether Go Mono draws r (rather than its empty .notdef).
func (f *faces) has(r rune) bool {
	i, err := f.fonts.regular.GlyphIndex(&f.buf, r)
	return err == nil && i != 0
}
