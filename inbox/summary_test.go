package inbox_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tuios/tuios/inbox"
)

func TestCleanSummary(t *testing.T) {
	tests := []struct{ in, want string }{
		{"approve Bash: make", "approve Bash: make"},
		{"  two\n\nlines\tand  tabs  ", "two lines and tabs"},
		{"bell\a and escape\x1b[2J and del\x7f", "bell and escape[2J and del"},
		{"bidi\u202eevil\u200b zero width", "bidievil zero width"},
		{"c1 \u0085\u009b controls", "c1 controls"},
		{"bad \xff utf8", "bad utf8"},
		{`curl -H "Authorization: Bearer abc.def" https://x`, `curl -H "Authorization: Bearer [redacted]" https://x`},
		{"export GITHUB_TOKEN=ghp_abcdefghijklmnop", "export GITHUB_TOKEN=[redacted]"},
		{"db --password=hunter2 --user me", "db --password=[redacted] --user me"},
		{"password: hunter2 ok", "password: [redacted] ok"},
		{"AWS_SECRET_ACCESS_KEY=abc123 aws s3 ls", "AWS_SECRET_ACCESS_KEY=[redacted] aws s3 ls"},
		{"api-key=xyz private_key=k credentials=c", "api-key=[redacted] private_key=[redacted] credentials=[redacted]"},
		{"use key sk-live0123456789abcdef now", "use key [redacted] now"},
		{"open https://example.com:8080/path", "open https://example.com:8080/path"},
	}
	for _, tt := range tests {
		if got := inbox.CleanSummary(tt.in); got != tt.want {
			t.Errorf("CleanSummary(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCleanSummaryCutsOnARuneBoundary(t *testing.T) {
	for _, unit := range []string{"x", "é", "日本", "🙂"} {
		s := inbox.CleanSummary(strings.Repeat(unit, 200))
		if len(s) > inbox.MaxSummaryBytes || !utf8.ValidString(s) || len(s) < inbox.MaxSummaryBytes-3 {
			t.Errorf("%q: %d bytes, valid %v", unit, len(s), utf8.ValidString(s))
		}
	}
	if got := inbox.CleanSummary(strings.Repeat("a ", 100)); strings.HasSuffix(got, " ") {
		t.Errorf("a cut left a trailing space: %q", got)
	}
}

// Clean text is its own summary, and cleaning is idempotent.
func FuzzCleanSummary(f *testing.F) {
	for _, s := range []string{"approve Bash: make", "a\tb", "Bearer x", "token=1", "é\u202e", strings.Repeat("日", 80)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := inbox.CleanSummary(s)
		if len(c) > inbox.MaxSummaryBytes || !utf8.ValidString(c) || strings.ContainsAny(c, "\n\t\r\x1b") || strings.Contains(c, "  ") {
			t.Fatalf("CleanSummary(%q) = %q", s, c)
		}
		if again := inbox.CleanSummary(c); again != c {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, c, again)
		}
	})
}
