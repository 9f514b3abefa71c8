package tui

import (
	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/vt"
)

// The built-in theme: tuios's own chrome drawn in the terminal's palette
// (the sixteen ANSI colours, never a fixed RGB), so it follows whatever
// theme the person gave their terminal. Every role also has a cue that
// needs no colour (reverse video, bold, a glyph or a marker), so the
// client reads the same under NO_COLOR or on a monochrome terminal,
// where the renderer drops the colours and keeps the rest.
//
// Each constant starts with a reset: a role's look never depends on what
// was drawn before it.
const (
	// sgrFocusBar is the focused tile's title bar: reverse video (the
	// cue), bold, green as tmux's active pane border.
	sgrFocusBar = "\x1b[0;1;7;32m"
	// sgrTitle is another tile's title text; the rest of its bar is a
	// border line (sgrBorder), so only the focused bar is a solid block.
	sgrTitle = "\x1b[0m"
	// sgrBorder is the line between tiles, and sgrFocusBorder its part
	// beside the focused tile (bold: the cue without colour).
	sgrBorder      = "\x1b[0;2m"
	sgrFocusBorder = "\x1b[0;1;32m"
	// sgrSelect is a selection: scrollback's, the Inbox's selected row,
	// the rail cursor. Reverse video on yellow, as tmux's mode-style.
	sgrSelect = "\x1b[0;7;33m"
	// sgrDots is the part of a larger client's screen the session does
	// not use (tmux fills it the same way), and sgrSizeNote the line that
	// says why.
	sgrDots     = "\x1b[0;2m"
	sgrSizeNote = "\x1b[0;7m"
)

// selectStyle is sgrSelect as a cell's rendition, for what is selected
// over a pane's cells.
func selectStyle() cellStyle { return cellStyle{fg: vt.IndexColor(3), attrs: vt.AttrReverse} }

// stateSGR is the colour an agent state's glyph is drawn in on the rail:
// the loud states in the warm colours. The glyph's shape is the cue.
func stateSGR(state string) string {
	st, err := agentstate.ParseState(state)
	if err != nil {
		return ""
	}
	switch st {
	case agentstate.NeedsInput:
		return "\x1b[33m" // yellow
	case agentstate.Errored:
		return "\x1b[31m" // red
	case agentstate.Working:
		return "\x1b[36m" // cyan
	case agentstate.Done:
		return "\x1b[32m" // green
	}
	return ""
}

// accentSGR is a session's accent colour (set-session-accent): one of the
// ANSI colour names, drawn in the terminal's own shade of it.
func accentSGR(accent string) string {
	for i, name := range [...]string{"red", "green", "yellow", "blue", "magenta", "cyan", "white"} {
		if accent == name {
			return "\x1b[3" + string(rune('1'+i)) + "m"
		}
	}
	return ""
}
