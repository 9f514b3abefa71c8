package worktree_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/worktree"
)

func TestRemoveRefusesChangesUnlessStashedOrForced(t *testing.T) {
	f := newRepo(t)
	r := f.open(f.root)
	ctx := context.Background()

	clean := f.add(r, "fan/clean")
	if res, err := r.Remove(ctx, clean, worktree.RemoveOptions{}); err != nil || res.Stashed || res.Forced || res.Gone {
		t.Fatalf("clean: %+v %v", res, err)
	}
	if _, err := os.Stat(clean); !os.IsNotExist(err) {
		t.Fatal("the folder is still there")
	}
	if ok, _ := r.BranchExists(ctx, "fan/clean"); !ok {
		t.Fatal("remove deleted the branch")
	}

	dirty := f.add(r, "fan/dirty")
	f.write(dirty, "a.txt", "changed\n")
	f.write(dirty, "b.txt", "new\n")
	before := f.state(dirty)
	_, err := r.Remove(ctx, dirty, worktree.RemoveOptions{})
	if codeOf(err) != worktree.CodeDirty || !strings.Contains(err.Error(), "1 changed file and 1 untracked file") || !strings.Contains(err.(*worktree.Error).Hint, "--stash") {
		t.Fatalf("dirty: %v", err)
	}
	if after := f.state(dirty); after != before {
		t.Fatal("a refused remove changed something")
	}

	res, err := r.Remove(ctx, dirty, worktree.RemoveOptions{Stash: true, StashMessage: "tuios: fan/dirty"})
	if err != nil || !res.Stashed || res.Stash != "tuios: fan/dirty" {
		t.Fatalf("stash: %+v %v", res, err)
	}
	if list := f.git(f.root, "stash", "list"); !strings.Contains(list, "tuios: fan/dirty") {
		t.Fatalf("stash list: %q", list)
	}
	if show := f.git(f.root, "stash", "show", "--include-untracked", "--name-only", "stash@{0}"); !strings.Contains(show, "a.txt") || !strings.Contains(show, "b.txt") {
		t.Fatalf("the stash holds: %q", show)
	}

	forced := f.add(r, "fan/forced")
	f.write(forced, "c.txt", "lost\n")
	if res, err := r.Remove(ctx, forced, worktree.RemoveOptions{Force: true}); err != nil || !res.Forced {
		t.Fatalf("force: %+v %v", res, err)
	}
	for _, b := range []string{"fan/dirty", "fan/forced"} {
		if ok, _ := r.BranchExists(ctx, b); !ok {
			t.Fatalf("branch %s deleted", b)
		}
	}
}

func TestRemoveAFolderGoneBehindItsBackPrunesNothing(t *testing.T) {
	f := newRepo(t)
	r := f.open(f.root)
	ctx := context.Background()
	wt := f.add(r, "fan/gone")
	os.RemoveAll(wt)
	res, err := r.Remove(ctx, wt, worktree.RemoveOptions{})
	if err != nil || !res.Gone {
		t.Fatalf("gone: %+v %v", res, err)
	}
	list, _ := r.List(ctx)
	if e, ok := worktree.Find(list, wt); !ok || !e.Prunable {
		t.Fatalf("git's record of it was pruned: %+v", list)
	}
	// The main checkout and a folder that is no worktree are refused.
	if _, err := r.Remove(ctx, f.root, worktree.RemoveOptions{Force: true}); codeOf(err) != worktree.CodeNotWorktree {
		t.Fatalf("main checkout: %v", err)
	}
	if _, err := r.Remove(ctx, t.TempDir(), worktree.RemoveOptions{}); codeOf(err) != worktree.CodeNotWorktree {
		t.Fatalf("no worktree: %v", err)
	}
}
