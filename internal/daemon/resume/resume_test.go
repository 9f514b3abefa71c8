package resume

import (
	"strings"
	"testing"
)

// An id becomes one shell word on a prompt: only what cannot break out
// of it, or read as an option, is typed.
func TestBadID(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"abc-123", "0f8e_x.y/z:w", strings.Repeat("a", maxID)} {
		if why := badID(id); why != "" {
			t.Errorf("%q refused: %s", id, why)
		}
	}
	for id, want := range map[string]string{
		"":                       "is empty",
		"-rf":                    "starts with -",
		"a b":                    "holds ' '",
		"a;rm":                   "holds ';'",
		"$(id)":                  "holds '$'",
		"x\ny":                   `holds '\n'`,
		"é":                      "holds 'é'",
		strings.Repeat("x", 300): "is 300 bytes, over 256",
	} {
		if why := badID(id); why != want {
			t.Errorf("%q: %q, want %q", id, why, want)
		}
	}
}

// Whatever a hook reports as the id, badID answers and never panics; an
// id it lets through is one safe shell word.
func FuzzBadID(f *testing.F) {
	for _, s := range []string{"abc-123", "-x", "a b", "$(id)", "\xff", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if badID(id) != "" {
			return
		}
		if id == "" || len(id) > maxID || id[0] == '-' || strings.ContainsAny(id, " \t\n;$`'\"\\|&<>(){}*?[]~#!") {
			t.Fatalf("%q let through", id)
		}
	})
}
