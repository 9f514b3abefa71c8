package review_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tuios/tuios/review"
)

// An edit of the same size made in the same instant the index was written
// is "racily clean" to git's stat check: git finds it only because the
// entry's time is not older than the index file's. The diff works on a
// copy of the index, and must still see such an edit.
func TestDiffSeesAnEditInTheIndexsOwnInstant(t *testing.T) {
	dir := t.TempDir()
	env := gitEnv(t)
	gitRun(t, dir, env, "init", "-q", "-b", "main")
	// ctime cannot be set from a test; without this git would notice the
	// edit by ctime alone and the test would prove nothing.
	gitRun(t, dir, env, "config", "core.trustctime", "false")
	write(t, dir, "f.txt", "one\ntwo\n")
	gitRun(t, dir, env, "add", "-A")
	gitRun(t, dir, env, "commit", "-qm", "base")

	stamp := time.Now().Add(-time.Hour).Truncate(time.Second)
	path := filepath.Join(dir, "f.txt")
	// The entry and the index both carry this instant.
	if err := os.Chtimes(path, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, env, "update-index", "--refresh")
	write(t, dir, "f.txt", "one\nTWO\n")
	index := filepath.Join(dir, ".git", "index")
	for _, p := range []string{path, index} {
		if err := os.Chtimes(p, stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}

	d, err := review.ComputeDiff(context.Background(), review.DiffOptions{Dir: dir, Base: "main", Context: 3, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Files) != 1 || d.Files[0].Path != "f.txt" || d.Files[0].Status != "M" {
		t.Fatalf("the same-size edit is missing from the diff: %+v", d.Files)
	}
}
