package worktree_test

import (
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/worktree"
)

// git's porcelain output is read, never trusted to be well formed.
func FuzzParseStatus(f *testing.F) {
	f.Add([]byte(" M a.txt\x00?? b.txt\x00R  c\x00d\x00!! x.log\x00"))
	f.Add([]byte("XY\x00\x00 M\x00R  only\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c := worktree.ParseStatus(b)
		if c.Tracked < 0 || c.Untracked < 0 || len(c.Paths) > 5 {
			t.Fatalf("%+v", c)
		}
	})
}

func FuzzParseList(f *testing.F) {
	f.Add([]byte("worktree /r\x00HEAD abc\x00branch refs/heads/main\x00\x00worktree /w\x00detached\x00locked\x00prunable gone\x00\x00"))
	f.Add([]byte("HEAD x\x00worktree \x00branch y\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, e := range worktree.ParseList(b) {
			if e.Path == "" {
				t.Fatal("an entry without a path")
			}
		}
	})
}

// Agent strings come from the person or from a pane.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"claude", `codex --model 'o 3' "a\"b"`, "a\\\nb", "a 'b", "$x", ",,", `'a,b',c`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := worktree.SplitCommand(s)
		if err == nil && len(words) == 0 {
			t.Fatal("no error and no words")
		}
		for _, w := range words {
			if strings.ContainsRune(w, 0) {
				t.Fatal("a NUL in a word")
			}
		}
		if list, err := worktree.SplitAgents(s); err == nil && len(list) == 0 {
			t.Fatal("no error and no agents")
		}
	})
}
