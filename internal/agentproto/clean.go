package agentproto

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean makes text an agent sent safe to draw: escape sequences (CSI,
// OSC, DCS, SOS, PM, APC, and two-byte ESC sequences, in their 7-bit and
// C1 forms) are removed whole, parameters and all; other control
// characters, bidirectional and zero-width format characters, line and
// paragraph separators and invalid UTF-8 are dropped; a tab becomes
// spaces to the next multiple of four (counted from the last newline); a
// carriage return is dropped. Newlines stay. Text with nothing to clean
// is returned as it is.
func Clean(s string) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	col := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			i++
			continue
		case r == 0x1b:
			i = skipEscape(s, i+1)
			continue
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i+n)
			continue
		case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // C1 OSC, DCS, SOS, PM, APC
			i = skipString(s, i+n)
			continue
		case r == '\n':
			b.WriteByte('\n')
			col = 0
		case r == '\t':
			pad := 4 - col%4
			b.WriteString("    "[:pad])
			col += pad
		case drop(r):
		default:
			b.WriteString(s[i : i+n])
			col++
		}
		i += n
	}
	return b.String()
}

func isClean(s string) bool {
	for _, r := range s {
		if r == '\n' {
			continue
		}
		if r == utf8.RuneError || r == '\t' || drop(r) {
			return false
		}
	}
	return true
}

// drop: a character that is not drawn.
func drop(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == '\u2028' || r == '\u2029':
		return true
	case unicode.Is(unicode.Cf, r): // bidi controls, zero-width joiners and spaces, BOM
		return true
	}
	return false
}

// skipEscape skips what follows an ESC at i: a CSI, a string sequence, or
// one more character.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// ESC ( B and the like: an intermediate byte, then a final one.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) {
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	return i
}

// skipCSI skips a CSI's parameter and intermediate bytes and its final
// byte; a byte that cannot be in a CSI ends it there (and is read again).
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x30 && c <= 0x3f, c >= 0x20 && c <= 0x2f:
			i++
		case c >= 0x40 && c <= 0x7e:
			return i + 1
		default:
			return i
		}
	}
	return i
}

// skipString skips an OSC, DCS, SOS, PM or APC body up to its terminator
// (BEL, ESC \ or C1 ST), or to the end of the text.
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i + 1
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		}
		i++
	}
	return i
}

// oneLine is text for a single row: cleaned, every run of white space one
// space, cut to max bytes on a rune boundary with "…".
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(Clean(s)), " ")
	if len(s) <= max {
		return s
	}
	cut := max - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
