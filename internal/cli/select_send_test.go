package cli

import (
	"strings"
	"testing"
)

func TestConfirmTokenNamesTheSetNotItsOrder(t *testing.T) {
	a := confirmToken("harness:codex", []string{"id-2", "id-1"})
	if b := confirmToken("harness:codex", []string{"id-1", "id-2"}); a != b {
		t.Fatalf("order changed the token: %s %s", a, b)
	}
	if len(a) != confirmTokenLen || strings.Trim(a, "0123456789abcdef") != "" {
		t.Fatalf("token %q is not %d hex digits", a, confirmTokenLen)
	}
	for _, other := range []string{
		confirmToken("harness:codex", []string{"id-1"}),
		confirmToken("harness:codex", []string{"id-1", "id-2", "id-3"}),
		confirmToken("harness:claude", []string{"id-1", "id-2"}),
		confirmToken("harness:codex", []string{"id-1id-2"}), // no joining ambiguity
		confirmToken("harness:codexid-1", []string{"id-2"}),
	} {
		if other == a {
			t.Fatalf("a different set got the same token %s", a)
		}
	}
}

func TestYesAnswer(t *testing.T) {
	for line, want := range map[string]bool{"y\n": true, "Y\r\n": true, " yes ": true, "YES": true, "": false, "n\n": false, "yess": false, "y y": false} {
		if yesAnswer(line) != want {
			t.Errorf("yesAnswer(%q) = %v", line, !want)
		}
	}
}

// FuzzConfirmInput: a typed answer and a --confirm value are outside input.
// Neither may panic; only a yes counts as one, and a token matches only
// after normalising to the exact hex the set has.
func FuzzConfirmInput(f *testing.F) {
	f.Add("y\n", "3F9A0C2E71 ")
	f.Add("\x1b[200~y", "")
	f.Add("nope", "zzzzzzzzzz")
	tok := confirmToken("name:a", []string{"x"})
	f.Fuzz(func(t *testing.T, line, typed string) {
		if yesAnswer(line) {
			if w := strings.ToLower(strings.TrimSpace(line)); w != "y" && w != "yes" {
				t.Fatalf("%q counted as yes", line)
			}
		}
		n := normalToken(typed)
		if n == tok && !strings.EqualFold(strings.TrimSpace(typed), tok) {
			t.Fatalf("%q matched token %s", typed, tok)
		}
	})
}
