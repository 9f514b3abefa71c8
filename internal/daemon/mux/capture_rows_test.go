package mux

import "testing"

func TestFullHeight(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		rows int
		want string
	}{
		{"a\nb", 4, "a\nb\n\n"},
		{"", 3, "\n\n"},
		{"", 1, ""},
		{"a\nb\nc", 3, "a\nb\nc"},
		{"a\nb\nc\nd", 3, "a\nb\nc\nd"}, // shrunk meanwhile: never cut
	} {
		if got := fullHeight(c.in, c.rows); got != c.want {
			t.Errorf("fullHeight(%q, %d) = %q, want %q", c.in, c.rows, got, c.want)
		}
	}
}
