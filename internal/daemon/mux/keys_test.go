package mux

import "testing"

func TestKeyBytes(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"ctrl+c":     "\x03",
		"C-a":        "\x01",
		"^d":         "\x04",
		"Enter":      "\r",
		"Escape":     "\x1b",
		"alt+x":      "\x1bx",
		"M-Up":       "\x1b\x1b[A",
		"echo hello": "echohello",
		"ctrl+b,n":   "\x02n",
		"F5":         "\x1b[15~",
		"Up,Up Down": "\x1b[A\x1b[A\x1b[B",
		"ctrl+[":     "\x1b",
		"ctrl+enter": "\r",
		"plainword":  "plainword",
	} {
		if got := string(KeyBytes(in)); got != want {
			t.Errorf("KeyBytes(%q) = %q, want %q", in, got, want)
		}
	}
}
