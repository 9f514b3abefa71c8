package agentproto

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitCommand(t *testing.T) {
	for in, want := range map[string][]string{
		"gemini --acp":                          {"gemini", "--acp"},
		"  opencode   acp ":                     {"opencode", "acp"},
		`npx '@zed-industries/claude-code-acp'`: {"npx", "@zed-industries/claude-code-acp"},
		`agent --name "my agent" a\ b`:          {"agent", "--name", "my agent", "a b"},
		`x "q\"uote" 'it''s'`:                   {"x", `q"uote`, "its"},
		`$HOME/bin/a ~`:                         {"$HOME/bin/a", "~"},
		`""`:                                    {""},
	} {
		got, err := SplitCommand(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`a 'b`, `a "b`, `a\`, "a\x00b", strings.Repeat("a ", 300)} {
		if _, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q) took it", bad)
		}
	}
}

func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{`a 'b c' "d\"e" f\ g`, `'`, `"\`, "x\ty\nz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := SplitCommand(s)
		if err != nil {
			return
		}
		if len(words) > 256 {
			t.Fatalf("%d words", len(words))
		}
		for _, w := range words {
			if strings.ContainsRune(w, 0) {
				t.Fatalf("a NUL in %q", w)
			}
		}
	})
}
