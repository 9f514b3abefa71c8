package attention

import (
	"strings"
	"testing"
)

// Fuzz: the daemon's line check never panics and never passes a line
// with what a held line may not hold (over 160 bytes, a doubled space,
// control, bidi or zero-width characters).
func FuzzShownWhole(f *testing.F) {
	for _, s := range []string{"approve Bash: make test", "a  b", "x\u200by", "\u202eabc", "tab\there", "token=abc", strings.Repeat("é", 90), "ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !shownWhole(s) {
			return
		}
		if len(s) > 160 || strings.Contains(s, "  ") || strings.ContainsAny(s, "\t\n\r\u200b\u200c\u200d\u2060\ufeff\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069") {
			t.Fatalf("passed: %q", s)
		}
	})
}
