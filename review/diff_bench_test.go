package review_test

import (
	"context"
	"fmt"
	"os/exec"
	"testing"

	"github.com/tuios/tuios/review"
)

// A 400-file change (each file 40 lines, 10 changed), review's diff (temp
// index, write-tree, numstat, patch, parse) beside a plain `git diff HEAD`
// of the same change in the same run: git's own cost is the floor.
func BenchmarkDiff400Files(b *testing.B) {
	dir := b.TempDir()
	env := gitEnv(b)
	gitRun(b, dir, env, "init", "-q", "-b", "main")
	for i := range 400 {
		write(b, dir, fmt.Sprintf("pkg%02d/f%03d.go", i%20, i), lines(40, "original line %d"))
	}
	gitRun(b, dir, env, "add", "-A")
	gitRun(b, dir, env, "commit", "-qm", "base")
	for i := range 400 {
		write(b, dir, fmt.Sprintf("pkg%02d/f%03d.go", i%20, i), lines(30, "original line %d")+lines(10, "changed line %d"))
	}
	b.Run("review", func(b *testing.B) {
		for b.Loop() {
			d, err := review.ComputeDiff(context.Background(), review.DiffOptions{Dir: dir, Context: 3, Env: env})
			if err != nil || len(d.Files) != 400 || d.Truncated {
				b.Fatal(err, d.Truncated)
			}
		}
	})
	b.Run("git-diff", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("git", "diff", "HEAD")
			cmd.Dir, cmd.Env = dir, append(env, "GIT_OPTIONAL_LOCKS=0")
			if out, err := cmd.Output(); err != nil || len(out) == 0 {
				b.Fatal(err)
			}
		}
	})
}
