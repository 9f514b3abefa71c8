package worktree_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/worktree"
)

// An attempt that left its work uncommitted is kept with a merge: its
// work is committed on its branch, main gets a merge commit, and main's
// checkout has the files.
func TestKeepMergesUncommittedWork(t *testing.T) {
	f := newRepo(t)
	r := f.open(f.root)
	ctx := context.Background()
	wt := f.add(r, "fan/demo-2")
	f.write(wt, "a.txt", "hi\nchange\n")
	f.write(wt, "b.txt", "new\n")
	k, err := r.Keep(ctx, worktree.KeepOptions{Worktree: wt, Branch: "fan/demo-2", Into: "main", Mode: worktree.MergeNoFF})
	if err != nil {
		t.Fatal(err)
	}
	if k.Committed == "" || k.Checkout != f.root || k.Before == k.After {
		t.Fatalf("kept: %+v", k)
	}
	if st := f.git(wt, "status", "--porcelain"); st != "" {
		t.Fatalf("the attempt is not clean after its work was committed: %q", st)
	}
	if parents := f.git(f.root, "log", "-1", "--format=%P", "main"); len(strings.Fields(parents)) != 2 {
		t.Fatalf("no merge commit: %q", parents)
	}
	if log := f.git(f.root, "log", "--format=%s", "main"); !strings.Contains(log, "Merge branch 'fan/demo-2'") || !strings.Contains(log, "Work the agent left uncommitted") {
		t.Fatalf("history:\n%s", log)
	}
	if got := f.git(f.root, "show", "main:b.txt"); got != "new" {
		t.Fatalf("main:b.txt = %q", got)
	}
	if st := f.git(f.root, "status", "--porcelain"); st != "" {
		t.Fatalf("main's checkout after the merge: %q", st)
	}
}

func TestKeepSquashAndFastForward(t *testing.T) {
	f := newRepo(t)
	r := f.open(f.root)
	ctx := context.Background()
	a := f.add(r, "fan/a")
	f.write(a, "x.txt", "x\n")
	f.git(a, "add", "x.txt")
	f.git(a, "commit", "-q", "-m", "x one")
	f.write(a, "x.txt", "x\nx\n")
	f.git(a, "commit", "-q", "-am", "x two")
	k, err := r.Keep(ctx, worktree.KeepOptions{Worktree: a, Branch: "fan/a", Into: "main", Mode: worktree.MergeSquash})
	if err != nil || k.Committed != "" {
		t.Fatalf("squash: %+v %v", k, err)
	}
	if n := f.git(f.root, "rev-list", "--count", "main"); n != "2" {
		t.Fatalf("squash made %s commits on main, want 2", n)
	}
	if p := f.git(f.root, "log", "-1", "--format=%P", "main"); len(strings.Fields(p)) != 1 {
		t.Fatalf("a squash has one parent: %q", p)
	}

	b := f.add(r, "fan/b")
	f.write(b, "y.txt", "y\n")
	k, err = r.Keep(ctx, worktree.KeepOptions{Worktree: b, Branch: "fan/b", Into: "main", Mode: worktree.MergeFFOnly})
	if err != nil || k.After != f.git(f.root, "rev-parse", "fan/b") {
		t.Fatalf("ff-only: %+v %v", k, err)
	}

	// main moved on: ff-only is refused, and nothing changed.
	c := worktree.Dir(f.data, "api", "fan/c")
	if err := r.Add(ctx, worktree.AddOptions{Path: c, Branch: "fan/c", Base: f.git(f.root, "rev-parse", "main~1")}); err != nil {
		t.Fatal(err)
	}
	f.write(c, "z.txt", "z\n")
	before := f.state(c)
	_, err = r.Keep(ctx, worktree.KeepOptions{Worktree: c, Branch: "fan/c", Into: "main", Mode: worktree.MergeFFOnly})
	if codeOf(err) != worktree.CodeInvalidParams || !strings.Contains(err.Error(), "cannot fast-forward") {
		t.Fatalf("diverged ff-only: %v", err)
	}
	if after := f.state(c); after != before {
		t.Fatalf("a refused keep changed something:\n%s\n---\n%s", before, after)
	}
}

// Conflicts are found before anything moves: every ref, both checkouts
// and the attempt's uncommitted files are as they were, and the error
// names the files and what to do.
func TestKeepWithConflictsChangesNothing(t *testing.T) {
	f := newRepo(t)
	r := f.open(f.root)
	ctx := context.Background()
	wt := f.add(r, "fan/x")
	f.write(wt, "a.txt", "theirs\n")
	f.write(f.root, "a.txt", "ours\n")
	f.git(f.root, "commit", "-q", "-am", "ours")
	before := f.state(wt)
	for _, mode := range []string{worktree.MergeNoFF, worktree.MergeSquash} {
		_, err := r.Keep(ctx, worktree.KeepOptions{Worktree: wt, Branch: "fan/x", Into: "main", Mode: mode})
		e, _ := err.(*worktree.Error)
		if e == nil || e.Code != worktree.CodeGitFailed || !strings.Contains(e.Message, "conflicts with main in a.txt") ||
			!strings.Contains(e.Hint, "nothing was merged") || !strings.Contains(e.Hint, "merge fan/x") || len(e.Files) != 1 {
			t.Fatalf("%s: %v", mode, err)
		}
		if after := f.state(wt); after != before {
			t.Fatalf("%s: a refused keep changed something:\n%s\n---\n%s", mode, before, after)
		}
	}
	// main's checkout with changes of its own: refused before anything.
	f.git(f.root, "reset", "-q", "--hard", "HEAD~1")
	f.write(wt, "a.txt", "hi\n")
	f.write(wt, "n.txt", "n\n")
	f.write(f.root, "a.txt", "local edit\n")
	before = f.state(wt)
	_, err := r.Keep(ctx, worktree.KeepOptions{Worktree: wt, Branch: "fan/x", Into: "main", Mode: worktree.MergeNoFF})
	if codeOf(err) != worktree.CodeDirty || !strings.Contains(err.Error(), "nothing was merged") {
		t.Fatalf("dirty main checkout: %v", err)
	}
	if after := f.state(wt); after != before {
		t.Fatal("a refused keep changed something")
	}
}

// A merge that fails in the checkout after the checks (here: an
// untracked file there that the merge would overwrite) is taken back,
// the attempt's work commit too.
func TestKeepThatFailsLateIsTakenBack(t *testing.T) {
	f := newRepo(t)
	r := f.open(f.root)
	wt := f.add(r, "fan/x")
	f.write(wt, "n.txt", "from the attempt\n")
	f.write(f.root, "n.txt", "the person's own untracked file\n")
	before := f.state(wt)
	_, err := r.Keep(context.Background(), worktree.KeepOptions{Worktree: wt, Branch: "fan/x", Into: "main", Mode: worktree.MergeNoFF})
	if err == nil || !strings.Contains(err.(*worktree.Error).Hint, "nothing was merged") {
		t.Fatalf("late failure: %v", err)
	}
	if after := f.state(wt); after != before {
		t.Fatalf("a failed keep changed something:\n%s\n---\n%s", before, after)
	}
}

// Into checked out nowhere: the merge is made without a checkout.
func TestKeepIntoABranchNoCheckoutHas(t *testing.T) {
	f := newRepo(t)
	r := f.open(f.root)
	ctx := context.Background()
	f.git(f.root, "branch", "release")
	wt := f.add(r, "fan/x")
	f.write(wt, "r.txt", "r\n")
	k, err := r.Keep(ctx, worktree.KeepOptions{Worktree: wt, Branch: "fan/x", Into: "release", Mode: worktree.MergeNoFF})
	if err != nil || k.Checkout != "" {
		t.Fatalf("%+v %v", k, err)
	}
	if got := f.git(f.root, "show", "release:r.txt"); got != "r" {
		t.Fatalf("release:r.txt = %q", got)
	}
	if p := f.git(f.root, "log", "-1", "--format=%P", "release"); len(strings.Fields(p)) != 2 {
		t.Fatalf("a merge has two parents: %q", p)
	}
	if main := f.git(f.root, "rev-list", "--count", "main"); main != "1" {
		t.Fatal("main moved")
	}
	// Nothing to keep.
	_, err = r.Keep(ctx, worktree.KeepOptions{Worktree: wt, Branch: "fan/x", Into: "release", Mode: worktree.MergeNoFF})
	if codeOf(err) != worktree.CodeInvalidParams || !strings.Contains(err.Error(), "already has everything") {
		t.Fatalf("again: %v", err)
	}
}
