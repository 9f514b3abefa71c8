// Package shquote quotes words for a shell to read back unchanged: the
// POSIX shells' single quotes and fish's. It owns no knowledge of which
// shell a pane runs (callers name the style).
package shquote

import "strings"

// Typable says whether a word can be typed at a prompt at all: a control
// character (a newline above all) would act as a key, not as text.
func Typable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return false
		}
	}
	return true
}

// Bare says whether a word means itself unquoted in both POSIX shells
// and fish.
func Bare(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("-_./:=+,@%", r):
		default:
			return false
		}
	}
	// A leading '=' is zsh's command expansion and '%' fish's job
	// expansion: quote those.
	return s[0] != '=' && s[0] != '%'
}

// Word quotes one word so the shell reads it back unchanged; style is
// "fish" for fish, anything else for a POSIX shell. POSIX: inside single
// quotes nothing is special, a quote is closed, escaped and reopened.
// fish: inside single quotes only \ and ' are special, each escaped with
// a backslash.
func Word(style, s string) string {
	if Bare(s) {
		return s
	}
	if style == "fish" {
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
