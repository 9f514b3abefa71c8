package mux

import (
	"strings"
	"unicode/utf8"
)

// namedKeys maps key names (case-insensitive) to the bytes a terminal sends.
var namedKeys = map[string]string{
	"enter": "\r", "return": "\r", "cr": "\r", "escape": "\x1b", "esc": "\x1b", "tab": "\t",
	"space": " ", "backspace": "\x7f", "bspace": "\x7f", "bs": "\x7f",
	"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
	"home": "\x1b[H", "end": "\x1b[F", "pageup": "\x1b[5~", "pgup": "\x1b[5~", "ppage": "\x1b[5~",
	"pagedown": "\x1b[6~", "pgdn": "\x1b[6~", "npage": "\x1b[6~", "delete": "\x1b[3~", "del": "\x1b[3~",
	"insert": "\x1b[2~", "ic": "\x1b[2~", "dc": "\x1b[3~", "btab": "\x1b[Z",
	"f1": "\x1bOP", "f2": "\x1bOQ", "f3": "\x1bOR", "f4": "\x1bOS", "f5": "\x1b[15~", "f6": "\x1b[17~",
	"f7": "\x1b[18~", "f8": "\x1b[19~", "f9": "\x1b[20~", "f10": "\x1b[21~", "f11": "\x1b[23~", "f12": "\x1b[24~",
}

// KeyBytes turns a send-keys argument into bytes: it is split on spaces and
// commas, and each token is a named key (Enter, Escape, Up, F5…), a control
// or alt combination (ctrl+c, C-c, alt+x, M-x), or else typed as it is. So
// 'echo hello' types "echohello": send-keys is for keys, send-text for text.
func KeyBytes(spec string) []byte {
	var out []byte
	for _, tok := range strings.FieldsFunc(spec, func(r rune) bool { return r == ' ' || r == ',' }) {
		out = append(out, KeyToken(tok)...)
	}
	return out
}

// KeyToken is the bytes one key token of send-keys types, as a string
// (tok itself when it names no key).
func KeyToken(tok string) string {
	lower := strings.ToLower(tok)
	if k, ok := namedKeys[lower]; ok {
		return k
	}
	for _, p := range []string{"ctrl+", "ctrl-", "c-", "^"} {
		if strings.HasPrefix(lower, p) && len(tok) > len(p) {
			rest := tok[len(p):]
			if k, ok := namedKeys[strings.ToLower(rest)]; ok {
				return k // ctrl+enter and friends: the plain key
			}
			if r, n := utf8.DecodeRuneInString(rest); n == len(rest) {
				return ctrl(r)
			}
		}
	}
	for _, p := range []string{"alt+", "alt-", "m-", "meta+"} {
		if strings.HasPrefix(lower, p) && len(tok) > len(p) {
			return "\x1b" + KeyToken(tok[len(p):])
		}
	}
	return tok
}

// ctrl is the control character for a letter or one of @[\]^_ and ?.
func ctrl(r rune) string {
	switch {
	case r >= 'a' && r <= 'z':
		return string(rune(r - 'a' + 1))
	case r >= 'A' && r <= 'Z':
		return string(rune(r - 'A' + 1))
	case r == '@' || r == ' ' || r == '2':
		return "\x00"
	case r >= '[' && r <= '_':
		return string(rune(r - '@'))
	case r == '?':
		return "\x7f"
	}
	return string(r)
}
