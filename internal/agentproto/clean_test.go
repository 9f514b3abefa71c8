package agentproto

import (
	"strings"
	"testing"
	"unicode"
)

func TestCleanRemovesSequencesWhole(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":                               "plain text",
		"\x1b[31mred\x1b[0m":                       "red",
		"\x1b]0;evil title\x07after":               "after",
		"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\": "link",
		"a\x1bPdcs stuff\x1b\\b":                   "ab",
		"\u009b2Jx":                                "x",
		"bell\x07 and\rcr":                         "bell andcr",
		"tab\there":                                "tab here",
		"rtl \u202egnp.exe":                        "rtl gnp.exe",
		"zero\u200bwidth":                          "zerowidth",
		"bad \xff byte":                            "bad  byte",
		"two\nlines":                               "two\nlines",
		"\x1b(Bcharset":                            "charset",
		"unterminated \x1b]0;title":                "unterminated ",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"\x1b[1;31mx", "\x1b]0;t\x07", "a\tb\nc", "\u009d8;;x\u009c", "\x1b", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Clean(s)
		for _, r := range out {
			if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
				t.Fatalf("Clean(%q) = %q keeps %U", s, out, r)
			}
		}
		if strings.ContainsRune(out, 0x1b) {
			t.Fatalf("an ESC survived: %q", out)
		}
		if Clean(out) != out {
			t.Fatalf("not idempotent: %q → %q", out, Clean(out))
		}
	})
}
