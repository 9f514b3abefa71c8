package vt

import (
	"strings"
	"testing"

	xvt "github.com/charmbracelet/x/vt"
)

// oracle wraps charmbracelet/x/vt, used only to compare screens.
type oracle struct {
	e *xvt.Emulator
}

func newOracle(tb testing.TB, cols, rows int) *oracle {
	// x/vt blocks a Write that produces a reply until someone reads it,
	// and its Close races with a pending Read; streams given to the
	// oracle therefore never query the terminal, and nothing drains it.
	return &oracle{e: xvt.NewEmulator(cols, rows)}
}

// text renders the oracle's active screen the way Screen.Text does.
func (o *oracle) text() string {
	w, h := o.e.Width(), o.e.Height()
	lines := make([]string, h)
	for y := 0; y < h; y++ {
		var b strings.Builder
		covered := 0 // columns still covered by the last wide character
		for x := 0; x < w; x++ {
			c := o.e.CellAt(x, y)
			if c == nil {
				b.WriteByte(' ')
				covered = 0
				continue
			}
			if c.Width == 0 {
				if covered == 0 {
					// x/vt leaves the orphaned half of a cut wide
					// character; a terminal shows a blank there.
					b.WriteByte(' ')
				} else {
					covered--
				}
				continue
			}
			covered = c.Width - 1
			if c.Content == "" {
				b.WriteByte(' ')
			} else {
				b.WriteString(c.Content)
			}
		}
		lines[y] = strings.TrimRight(b.String(), " \t")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	// x/vt draws DEC graphics y/z as ⩽⩾; xterm and tmux use ≤≥ (as we do).
	return strings.NewReplacer("⩽", "≤", "⩾", "≥").Replace(strings.Join(lines, "\n"))
}
