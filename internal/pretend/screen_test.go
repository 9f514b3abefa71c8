package pretend

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWrapHangsUnderTheLabel(t *testing.T) {
	got := wrap("  2. No, and tell the agent what to do differently (esc)", 30)
	want := []string{"  2. No, and tell the agent", "     what to do differently", "     (esc)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("wrap = %q, want %q", got, want)
	}
	for _, l := range wrap("  a plain line of several words that goes on", 16) {
		if utf8.RuneCountInString(l) > 16 || !strings.HasPrefix(l, "  ") {
			t.Fatalf("piece %q", l)
		}
	}
	if got := wrap("short", 30); len(got) != 1 || got[0] != "short" {
		t.Fatalf("short: %q", got)
	}
	if h := optionHang("❯ 1. Yes"); h != 5 {
		t.Fatalf("optionHang = %d", h)
	}
}

func FuzzWrap(f *testing.F) {
	f.Add("  2. No, and tell the agent what to do differently (esc)", 20)
	f.Add("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 9)
	f.Fuzz(func(t *testing.T, line string, n int) {
		if n < 8 || n > 200 || !utf8.ValidString(line) || strings.ContainsAny(line, "\r\n") {
			return
		}
		got := wrap(line, n)
		squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
		if squeeze(strings.Join(got, " ")) != squeeze(line) {
			t.Fatalf("wrap(%q, %d) lost text: %q", line, n, got)
		}
	})
}
