package review_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/review"
)

// Two attempts of a fan, each with committed, uncommitted and untracked
// work: --against diffs one's working state against the other's, and
// neither worktree, index nor object store changes.
func TestDiffAgainstAnotherAttempt(t *testing.T) {
	dir := t.TempDir()
	env := gitEnv(t)
	gitRun(t, dir, env, "init", "-q", "-b", "main")
	write(t, dir, "a.txt", "hi\n")
	gitRun(t, dir, env, "add", "-A")
	gitRun(t, dir, env, "commit", "-qm", "base")
	one, two := filepath.Join(t.TempDir(), "one"), filepath.Join(t.TempDir(), "two")
	gitRun(t, dir, env, "worktree", "add", "-q", "-b", "fan/x", one)
	gitRun(t, dir, env, "worktree", "add", "-q", "-b", "fan/x-2", two)
	write(t, one, "a.txt", "hi\none\n")
	gitRun(t, one, env, "commit", "-qam", "one")
	write(t, one, "only-one.txt", "1\n")
	write(t, two, "a.txt", "hi\ntwo\n")
	write(t, two, "only-two.txt", "2\n")
	before := snapshot(t, dir, env) + wtSnapshot(t, one, env) + wtSnapshot(t, two, env)

	d, err := review.ComputeDiff(context.Background(), review.DiffOptions{Dir: two, Against: one, Context: 3, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, dir, env) + wtSnapshot(t, one, env) + wtSnapshot(t, two, env); after != before {
		t.Fatal("an against diff changed a worktree")
	}
	got := map[string]review.File{}
	for _, f := range d.Files {
		got[f.Path] = f
	}
	if got["a.txt"].Status != "M" || got["only-one.txt"].Status != "D" || got["only-two.txt"].Status != "U" || len(got) != 3 {
		t.Fatalf("files: %+v", d.Files)
	}
	h := got["a.txt"].Hunks
	if len(h) != 1 || h[0].Lines[1] != (review.Line{Op: review.OpDelete, Old: 2, Text: "one"}) || h[0].Lines[2] != (review.Line{Op: review.OpAdd, New: 2, Text: "two"}) {
		t.Fatalf("a.txt: %+v", h)
	}
	if d.Against != one || d.AgainstTree == "" || d.BaseSHA != d.AgainstTree {
		t.Fatalf("header: %+v", d)
	}
	// Not with a base; not a worktree of another repository.
	if _, err := review.ComputeDiff(context.Background(), review.DiffOptions{Dir: two, Against: one, Base: "main", Env: env}); err == nil {
		t.Fatal("against and base together")
	}
	other := t.TempDir()
	gitRun(t, other, env, "init", "-q")
	if _, err := review.ComputeDiff(context.Background(), review.DiffOptions{Dir: two, Against: other, Env: env}); err == nil {
		t.Fatal("against another repository")
	}
}

// wtSnapshot is what must not change in a linked worktree: its status and
// its index's bytes.
func wtSnapshot(t testing.TB, dir string, env []string) string {
	t.Helper()
	idx := strings.TrimSpace(gitRun(t, dir, env, "rev-parse", "--path-format=absolute", "--git-path", "index"))
	b, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return gitRun(t, dir, append(env, "GIT_OPTIONAL_LOCKS=0"), "status", "--porcelain", "--untracked-files=all") + hex.EncodeToString(sum[:])
}
