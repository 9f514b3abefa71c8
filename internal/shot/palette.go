package shot

import (
	"fmt"
	"image/color"

	"github.com/tuios/tuios/vt"
)

// The picture's colours: the pane's default colours are a light grey on a
// near-black background, the frame a shade lighter than the pane.
var (
	defaultFg   = color.RGBA{0xd0, 0xd0, 0xd0, 0xff}
	defaultBg   = color.RGBA{0x1c, 0x1c, 0x1c, 0xff}
	frameBg     = color.RGBA{0x30, 0x30, 0x30, 0xff}
	frameLine   = color.RGBA{0x60, 0x60, 0x60, 0xff}
	titleColour = color.RGBA{0xe8, 0xe8, 0xe8, 0xff}
)

// ansi16 is xterm's default palette for the 16 ANSI colours.
var ansi16 = [16][3]uint8{
	{0x00, 0x00, 0x00}, {0xcd, 0x00, 0x00}, {0x00, 0xcd, 0x00}, {0xcd, 0xcd, 0x00},
	{0x00, 0x00, 0xee}, {0xcd, 0x00, 0xcd}, {0x00, 0xcd, 0xcd}, {0xe5, 0xe5, 0xe5},
	{0x7f, 0x7f, 0x7f}, {0xff, 0x00, 0x00}, {0x00, 0xff, 0x00}, {0xff, 0xff, 0x00},
	{0x5c, 0x5c, 0xff}, {0xff, 0x00, 0xff}, {0x00, 0xff, 0xff}, {0xff, 0xff, 0xff},
}

// RGB is the colour c stands for, with def for the default colour: the
// 16 ANSI colours as xterm draws them, 16–231 the 6×6×6 cube, 232–255 the
// grey ramp, and true colours as given.
func RGB(c vt.Color, def color.RGBA) color.RGBA {
	if c.IsDefault() {
		return def
	}
	if r, g, b, ok := c.RGB(); ok {
		return color.RGBA{r, g, b, 0xff}
	}
	i, _ := c.Index()
	switch {
	case i < 16:
		p := ansi16[i]
		return color.RGBA{p[0], p[1], p[2], 0xff}
	case i < 232:
		i -= 16
		level := func(v uint8) uint8 {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		return color.RGBA{level(i / 36), level(i / 6 % 6), level(i % 6), 0xff}
	}
	g := 8 + 10*(i-232)
	return color.RGBA{g, g, g, 0xff}
}

// colours is the foreground and background a cell is drawn in: inverse
// swaps them, dim takes the foreground half-way to the background.
func colours(st vt.Style) (fg, bg color.RGBA) {
	fg, bg = RGB(st.Fg, defaultFg), RGB(st.Bg, defaultBg)
	if st.Attrs&vt.AttrReverse != 0 {
		fg, bg = bg, fg
	}
	if st.Attrs&vt.AttrDim != 0 {
		fg = mix(fg, bg)
	}
	return fg, bg
}

func mix(a, b color.RGBA) color.RGBA {
	return color.RGBA{uint8((int(a.R) + int(b.R)) / 2), uint8((int(a.G) + int(b.G)) / 2), uint8((int(a.B) + int(b.B)) / 2), 0xff}
}

// hex is a colour as CSS and SVG write it.
func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
