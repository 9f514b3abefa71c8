package vt

import (
	"github.com/clipperhouse/displaywidth"
	"github.com/clipperhouse/uax29/v2/graphemes"
)

// Widths: text is cut into grapheme clusters by the Unicode segmentation
// rules (UAX #29, clipperhouse/uax29) and a cluster's width in cells is what
// clipperhouse/displaywidth says, with East Asian ambiguous characters one
// cell wide. This is the "grapheme width" method of charmbracelet/x/ansi and
// x/vt, so screens agree with theirs; unlike x/ansi, the RUNEWIDTH_EASTASIAN
// environment variable is not consulted.
var widthOpts = displaywidth.Options{EastAsianWidth: false}

// firstCluster returns the first grapheme cluster of b and its width.
func firstCluster(b []byte) ([]byte, int) {
	cl := graphemes.FromBytes(b).First()
	return cl, widthOpts.Bytes(cl)
}

// firstClusterString is firstCluster for a string.
func firstClusterString(str string) (string, int) {
	cl := graphemes.FromString(str).First()
	return cl, widthOpts.String(cl)
}

// textWidth is the width of text in cells: the sum of its clusters' widths.
func textWidth(str string) int { return widthOpts.String(str) }
