package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/safetext"
)

// clean makes text that came from a pane or an agent safe to draw on one
// line: control and format characters (escape sequences, bidi overrides,
// zero-width joins) are dropped, whitespace runs become one space.
func clean(s string) string { return safetext.OneLine(ansi.Strip(s)) }

// fit makes a styled line exactly w cells wide, cut or padded, and ends
// its styles so they cannot leak into what is drawn next to it.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := ansi.StringWidth(s)
	switch {
	case n > w:
		s = ansi.Truncate(s, w, "")
		n = ansi.StringWidth(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s + "\x1b[m"
}

// fitPlain is fit for text without styles, cut with an ellipsis.
func fitPlain(s string, w int, ascii bool) string {
	if w <= 0 {
		return ""
	}
	if printableASCII(s) { // most chrome: its width is its length
		if len(s) > w {
			tail := "…"
			if ascii {
				tail = "~"
			}
			return s[:w-1] + tail
		}
		return s + strings.Repeat(" ", w-len(s))
	}
	if ansi.StringWidth(s) > w {
		tail := "…"
		if ascii {
			tail = "~"
		}
		s = ansi.Truncate(s, w, tail)
	}
	if n := ansi.StringWidth(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// printableASCII reports whether s is printable ASCII only, one cell a
// byte.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// glyph draws a wire state name as the title bar and rail draw it; "" for
// no agent. seen turns a done pane's ■ into ○.
func glyph(state string, seen, ascii bool) string {
	st, err := agentstate.ParseState(state)
	if err != nil || st == agentstate.None {
		return ""
	}
	if ascii {
		return st.ASCII(seen)
	}
	return st.Glyph(seen)
}

// shownState is the state a pane is drawn with: a pane with an open
// ask-human question needs the person, whatever the daemon's agent state
// says (the state itself is not changed).
func shownState(state string, asking bool) string {
	if asking {
		return agentstate.NeedsInput.String()
	}
	return state
}

// stateWord is a state's name as a person reads it.
func stateWord(state string) string {
	if state == "none" {
		return ""
	}
	return strings.ReplaceAll(state, "_", " ")
}

const (
	sgrReverse = "\x1b[7m"
	sgrBold    = "\x1b[1m"
	sgrReset   = "\x1b[m"
)
