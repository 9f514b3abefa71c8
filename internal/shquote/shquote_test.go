package shquote

import (
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWord(t *testing.T) {
	t.Parallel()
	cases := []struct{ style, in, want string }{
		{"posix", "plain-word_1.txt", "plain-word_1.txt"},
		{"posix", "it's", `'it'\''s'`},
		{"posix", "", "''"},
		{"posix", "$HOME", "'$HOME'"},
		{"posix", "=cmd", "'=cmd'"},
		{"fish", "it's", `'it\'s'`},
		{"fish", `a\b`, `'a\\b'`},
		{"fish", "%self", "'%self'"},
	}
	for _, c := range cases {
		if got := Word(c.style, c.in); got != c.want {
			t.Errorf("Word(%s, %q) = %s, want %s", c.style, c.in, got, c.want)
		}
	}
}

// FuzzWord: whatever the word, sh reads the POSIX quoting of it
// back unchanged.
func FuzzWord(f *testing.F) {
	for _, s := range []string{"", "a b", "it's", `\`, "$(x)", "`x`", "!x", "~", "=a", "'", "''", "a'b'c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !Typable(s) || strings.ContainsRune(s, 0) || !utf8.ValidString(s) {
			return
		}
		out, err := exec.Command("sh", "-c", "printf '%s' "+Word("posix", s)).Output()
		if err != nil || string(out) != s {
			t.Fatalf("sh read %q back as %q (%v)", s, out, err)
		}
	})
}
