package worktree_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/worktree"
)

// An agent's last edit can be the same size as the file it replaced and
// land in the same instant as the worktree's index was written: git sees
// it only by comparing the entry's time with the index file's. Keep stages
// through a private copy of the index, and must still take that edit.
func TestKeepTakesAnEditInTheIndexsOwnInstant(t *testing.T) {
	f := newRepo(t)
	// ctime cannot be set from a test; without this git would notice the
	// edit by ctime alone and the test would prove nothing.
	f.git(f.root, "config", "core.trustctime", "false")
	r := f.open(f.root)
	wt := f.add(r, "fan/racy-1")

	stamp := time.Now().Add(-time.Hour).Truncate(time.Second)
	file := filepath.Join(wt, "a.txt")
	if err := os.Chtimes(file, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	f.git(wt, "update-index", "--refresh")
	f.write(wt, "a.txt", "HI\n")
	index := f.git(wt, "rev-parse", "--path-format=absolute", "--git-path", "index")
	for _, p := range []string{file, index} {
		if err := os.Chtimes(p, stamp, stamp); err != nil {
			t.Fatal(err)
		}
	}

	if _, err := r.Keep(context.Background(), worktree.KeepOptions{Worktree: wt, Branch: "fan/racy-1", Into: "main", Mode: worktree.MergeNoFF}); err != nil {
		t.Fatal(err)
	}
	if got := f.git(f.root, "show", "main:a.txt"); got != "HI" {
		t.Fatalf("main:a.txt = %q: the agent's edit was lost", got)
	}
}
