package worktree_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/worktree"
)

func TestOpenFindsTheMainCheckoutFromAnyFolder(t *testing.T) {
	f := newRepo(t)
	os.MkdirAll(filepath.Join(f.root, "sub", "dir"), 0o755)
	r := f.open(filepath.Join(f.root, "sub", "dir"))
	if r.Root != f.root || r.Name != "api" || r.Dir != f.root {
		t.Fatalf("from a subfolder: %+v", r)
	}
	wt := f.add(r, "feat/x")
	r2 := f.open(wt)
	if r2.Root != f.root || r2.Name != "api" || r2.Dir != wt {
		t.Fatalf("from a linked worktree: root %s name %s dir %s", r2.Root, r2.Name, r2.Dir)
	}
	branch, sha, err := r2.Head(context.Background(), wt)
	if err != nil || branch != "feat/x" || sha != f.git(f.root, "rev-parse", "main") {
		t.Fatalf("head: %q %q %v", branch, sha, err)
	}
}

func TestOpenRefusesWhatIsNoRepository(t *testing.T) {
	f := newRepo(t)
	ctx := context.Background()
	plain := t.TempDir()
	file := filepath.Join(plain, "f")
	os.WriteFile(file, nil, 0o644)
	bare := filepath.Join(t.TempDir(), "bare.git")
	f.git(plain, "init", "-q", "--bare", bare)
	for _, c := range []struct{ dir, code, says string }{
		{filepath.Join(plain, "nope"), worktree.CodeRepoNotFound, "there is no folder"},
		{file, worktree.CodeRepoNotFound, "is not a folder"},
		{plain, worktree.CodeNotRepo, "is not inside a git repository"},
		{bare, worktree.CodeNotRepo, "bare"},
		{"", worktree.CodeInvalidParams, "no folder"},
	} {
		_, err := worktree.Open(ctx, f.g, c.dir)
		if codeOf(err) != c.code || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q: %v (%s), want %s saying %q", c.dir, err, codeOf(err), c.code, c.says)
		}
	}
}

func TestResolveAndBranchChecks(t *testing.T) {
	f := newRepo(t)
	r := f.open(f.root)
	ctx := context.Background()
	if sha, err := r.Resolve(ctx, "main", "base"); err != nil || sha != f.git(f.root, "rev-parse", "main") {
		t.Fatalf("main: %q %v", sha, err)
	}
	for _, ref := range []string{"nope", "-x", "main\nx", ""} {
		_, err := r.Resolve(ctx, ref, "base")
		var e *worktree.Error
		if codeOf(err) != worktree.CodeInvalidParams || !errorsAs(err, &e) || e.Param != "base" {
			t.Errorf("ref %q: %v", ref, err)
		}
	}
	for _, b := range []string{"a..b", "-x", "x y", "x~", ""} {
		if err := r.CheckBranch(ctx, b); codeOf(err) != worktree.CodeInvalidParams {
			t.Errorf("branch %q: %v", b, err)
		}
	}
	if ok, err := r.BranchExists(ctx, "main"); !ok || err != nil {
		t.Fatalf("main exists: %v %v", ok, err)
	}
	if ok, err := r.BranchExists(ctx, "nope"); ok || err != nil {
		t.Fatalf("nope exists: %v %v", ok, err)
	}
	f.git(f.root, "branch", "fan/x-2")
	if set, err := r.Branches(ctx); err != nil || len(set) != 2 || !set["main"] || !set["fan/x-2"] {
		t.Fatalf("branches: %v %v", set, err)
	}
}

func TestStatusCountsTrackedAndUntracked(t *testing.T) {
	f := newRepo(t)
	r := f.open(f.root)
	ctx := context.Background()
	if ch, err := r.Status(ctx, f.root); err != nil || ch.Dirty() {
		t.Fatalf("clean: %+v %v", ch, err)
	}
	f.write(f.root, "a.txt", "changed\n")
	f.write(f.root, "new/b.txt", "b\n")
	f.write(f.root, ".gitignore", "*.log\n")
	f.write(f.root, "x.log", "ignored\n")
	ch, err := r.Status(ctx, f.root)
	if err != nil || ch.Tracked != 1 || ch.Untracked != 2 || !ch.Dirty() {
		t.Fatalf("dirty: %+v %v", ch, err)
	}
	f.git(f.root, "add", "-A")
	f.git(f.root, "commit", "-q", "-m", "two")
	f.git(f.root, "mv", "a.txt", "c.txt")
	ch, _ = r.Status(ctx, f.root)
	if ch.Tracked != 1 || ch.Untracked != 0 || len(ch.Paths) != 1 || ch.Paths[0] != "c.txt" {
		t.Fatalf("a rename is one change: %+v", ch)
	}
}

func TestAddMakesAWorktreeOnANewBranch(t *testing.T) {
	f := newRepo(t)
	r := f.open(f.root)
	ctx := context.Background()
	wt := f.add(r, "fan/demo")
	if want := filepath.Join(f.data, "worktrees", "api", "fan-demo"); wt != want {
		t.Fatalf("folder %s, want %s", wt, want)
	}
	if b, _ := os.ReadFile(filepath.Join(wt, "a.txt")); string(b) != "hi\n" {
		t.Fatalf("the checkout: %q", b)
	}
	if up := f.gitOK(wt, "rev-parse", "--abbrev-ref", "@{upstream}"); !strings.Contains(up, "no upstream") {
		t.Fatalf("a new branch has no upstream: %q", up)
	}
	// A branch that exists, a folder that exists: refused, nothing made.
	before := f.state(wt)
	base := f.git(f.root, "rev-parse", "main")
	err := r.Add(ctx, worktree.AddOptions{Path: worktree.Dir(f.data, "api", "fan/other"), Branch: "fan/demo", Base: base})
	if codeOf(err) != worktree.CodeInvalidParams || !strings.Contains(err.Error(), "already") {
		t.Fatalf("existing branch: %v", err)
	}
	err = r.Add(ctx, worktree.AddOptions{Path: wt, Branch: "fan/new", Base: base})
	if codeOf(err) != worktree.CodeInvalidParams || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("existing folder: %v", err)
	}
	if after := f.state(wt); after != before {
		t.Fatalf("a refused add changed the repository:\n%s\n---\n%s", before, after)
	}
	if _, err := os.Stat(worktree.Dir(f.data, "api", "fan/other")); !os.IsNotExist(err) {
		t.Fatal("a refused add left a folder")
	}
	// An existing branch checked out (no base).
	f.git(f.root, "branch", "feat/old")
	wt2 := worktree.Dir(f.data, "api", "feat/old")
	if err := r.Add(ctx, worktree.AddOptions{Path: wt2, Branch: "feat/old"}); err != nil {
		t.Fatal(err)
	}
	if b, _, _ := r.Head(ctx, wt2); b != "feat/old" {
		t.Fatalf("checked out %q", b)
	}
	// The branch checked out elsewhere.
	err = r.Add(ctx, worktree.AddOptions{Path: worktree.Dir(f.data, "api", "again"), Branch: "feat/old"})
	if codeOf(err) != worktree.CodeInvalidParams {
		t.Fatalf("checked out twice: %v", err)
	}
	list, err := r.List(ctx)
	if err != nil || len(list) != 3 || list[0].Path != f.root || list[1].Branch != "fan/demo" {
		t.Fatalf("list: %+v %v", list, err)
	}
}

func TestUndoTakesBackAWorktreeAndItsBranch(t *testing.T) {
	f := newRepo(t)
	r := f.open(f.root)
	before := f.state()
	wt := f.add(r, "fan/x")
	f.write(wt, "junk.txt", "j\n")
	r.Undo(context.Background(), wt, "fan/x")
	if after := f.state(); after != before {
		t.Fatalf("undo left:\n%s\n---\n%s", before, after)
	}
	if _, err := os.Stat(wt); !os.IsNotExist(err) {
		t.Fatal("the folder is still there")
	}
}

func errorsAs(err error, target **worktree.Error) bool {
	e, ok := err.(*worktree.Error)
	if ok {
		*target = e
	}
	return ok
}
