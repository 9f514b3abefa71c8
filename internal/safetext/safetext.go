// Package safetext makes text that came from a pane, an agent or another
// machine safe to print on a terminal. Standard library only, so the pure
// packages (mail) and vt share one escaper.
package safetext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape writes control characters (C0, DEL, C1), line and paragraph
// separators, bidirectional controls and invalid UTF-8 bytes as visible
// escapes (\n, \x1b, \u202e, \xff), so the text cannot move the cursor,
// change colours or reorder what follows it. keepTab leaves tabs as they
// are. Text with nothing to escape is returned without allocating.
func Escape(s string, keepTab bool) string {
	clean := true
	for _, r := range s {
		if needsEscape(r, keepTab) {
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
		case r == '\t' && keepTab:
			b.WriteByte('\t')
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case needsEscape(r, keepTab) && r != utf8.RuneError:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(r rune, keepTab bool) bool {
	switch {
	case r == '\t':
		return !keepTab
	case r < 0x20 || r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == '\u2028' || r == '\u2029', r == '\u200e' || r == '\u200f', r == '\u061c':
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	case r == utf8.RuneError:
		return true // may stand for an invalid byte; decided when escaping
	}
	return false
}

// OneLine drops what cannot be drawn (control and format characters,
// invalid UTF-8: escape sequences lose their ESC and so their effect) and
// folds every run of whitespace, newlines included, into one space, with
// none at either end. For a row of a list, where Escape's visible escapes
// would be noise.
func OneLine(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == utf8.RuneError && n <= 1:
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0), unicode.Is(unicode.Cf, r), r == '\u2028', r == '\u2029':
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
