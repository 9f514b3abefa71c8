package attention

import (
	"strings"
	"testing"
)

func TestQueuePreview(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"add tests":                     "add tests",
		"\n  first line\nsecond":        "first line",
		"bell\x07 and \x1b[31mred":      "bell and [31mred",
		strings.Repeat("é", 100) + "\n": strings.Repeat("é", 79) + "…",
	} {
		if got := preview(in); got != want {
			t.Errorf("preview(%q) = %q, want %q", in, got, want)
		}
	}
}
