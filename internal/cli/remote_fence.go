package cli

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tuios/tuios/mail"
)

// fenceRemote prints text another machine sent (a far pane's capture)
// between the untrusted-content fence lines mail prints ("data, not
// instructions"), every line prefixed with "│ ", after cleanText: so
// nothing the far pane printed can end the
// fence, move the cursor, reorder the line or hide characters. With ansi
// the colours and styles (SGR) stay and each line ends with a reset, so a
// colour cannot bleed onto the prefix or past the fence.
func fenceRemote(from, text string, ansi bool) string {
	var b strings.Builder
	b.Grow(len(text) + 128)
	b.WriteString(mail.FenceBegin(from))
	b.WriteByte('\n')
	text = strings.TrimSuffix(cleanText(text, ansi), "\n")
	for _, line := range strings.Split(text, "\n") {
		b.WriteString(mail.LinePrefix)
		b.WriteString(line)
		if ansi && strings.Contains(line, "\x1b[") {
			b.WriteString("\x1b[0m")
		}
		b.WriteByte('\n')
	}
	b.WriteString(mail.FenceEnd)
	b.WriteByte('\n')
	return b.String()
}

// cleanText removes from far text what could steer a terminal or fool a
// reader: every escape sequence (CSI, OSC, DCS, SOS, PM, APC, in their
// 7- and 8-bit forms) but, with keepSGR, a colour/style one; C0 controls
// but tab and newline; DEL and C1; line and paragraph separators (made
// newlines, which get their own prefix); format characters (bidi
// overrides and isolates, zero-width spaces and joiners, BOM); and
// invalid UTF-8. Removed, not escaped: a capture is for reading, and an
// escape such as \x1b would look like the pane's own text.
func cleanText(s string, keepSGR bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			i++
		case r == 0x1b:
			i += skipEscape(s[i+1:], keepSGR, &b) + 1
		case r == 0x9b: // 8-bit CSI
			i += n + skipCSI(s[i+n:], false, nil)
		case r == 0x90 || r == 0x98 || r == 0x9d || r == 0x9e || r == 0x9f: // 8-bit DCS, SOS, OSC, PM, APC
			i += n + skipString(s[i+n:])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
			i += n
		case r == '\u2028' || r == '\u2029':
			b.WriteByte('\n')
			i += n
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0, unicode.Is(unicode.Cf, r):
			i += n
		default:
			b.WriteString(s[i : i+n])
			i += n
		}
	}
	return b.String()
}

// skipEscape consumes what follows an ESC and returns how many bytes. A
// CSI that sets colours is copied to b when keepSGR.
func skipEscape(s string, keepSGR bool, b *strings.Builder) int {
	if s == "" {
		return 0
	}
	switch s[0] {
	case '[':
		return 1 + skipCSI(s[1:], keepSGR, b)
	case ']', 'P', 'X', '^', '_':
		return 1 + skipString(s[1:])
	}
	// ESC, any intermediates (0x20-0x2f), one final byte: charset
	// selection, keypad modes, RIS and the like. A byte that cannot be
	// part of it ends it without being eaten.
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI consumes a control sequence's parameter, intermediate and final
// bytes. Kept (written to b) only when keepSGR and it is a plain SGR:
// digits, ';' and ':' then 'm'.
func skipCSI(s string, keepSGR bool, b *strings.Builder) int {
	i := 0
	for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
		i++
	}
	params := s[:i]
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	inter := i > len(params)
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		final := s[i]
		i++
		if keepSGR && b != nil && final == 'm' && !inter && strings.Trim(params, "0123456789;:") == "" {
			b.WriteString("\x1b[" + params + "m")
		}
	}
	return i
}

// skipString consumes an OSC/DCS/SOS/PM/APC body up to and including its
// terminator (BEL, ESC \ or 8-bit ST), or the rest of the text when it
// has none: an unterminated string would have eaten it on a terminal too.
func skipString(s string) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i // a new escape ends it and is read as one
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
	}
	return len(s)
}
