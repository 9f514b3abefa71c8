package vt

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape makes text that came from a pane safe to print on a terminal:
// control characters (C0, DEL, C1), line and paragraph separators and
// bidirectional overrides become escapes, and invalid UTF-8 bytes \xNN, so
// the text cannot move the cursor, change colours or reorder what follows
// it. Text with nothing to escape is returned as it is, without allocating.
func Escape(s string) string {
	clean := true
	for _, r := range s {
		if needsEscape(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case needsEscape(r) && r != utf8.RuneError:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == '\u2028' || r == '\u2029':
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069', r == '\u200e', r == '\u200f', r == '\u061c':
		return true
	case r == utf8.RuneError:
		return true // may stand for an invalid byte; checked again when escaping
	}
	return false
}
