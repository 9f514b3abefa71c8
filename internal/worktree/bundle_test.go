package worktree_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/worktree"
)

// A worktree's commits and uncommitted work travel to another clone of
// the repository as a new branch there; the far repository is untouched.
func TestBundleAndPull(t *testing.T) {
	far := newRepo(t)
	ctx := context.Background()
	near := &fixture{t: t, env: far.env, data: t.TempDir(), g: far.g}
	near.root = filepath.Join(t.TempDir(), "api")
	near.git(filepath.Dir(near.root), "clone", "-q", far.root, near.root)

	fr := far.open(far.root)
	wt := far.add(fr, "fan/x")
	far.write(wt, "c.txt", "committed\n")
	far.git(wt, "add", "c.txt")
	far.git(wt, "commit", "-q", "-m", "c")
	far.write(wt, "a.txt", "hi\nedited\n")
	far.write(wt, "u.txt", "untracked\n")
	os.WriteFile(filepath.Join(wt, "bin.dat"), []byte{0, 1, 2, 3, 0xff}, 0o644)
	before := far.state(wt)
	b, err := fr.MakeBundle(ctx, wt, far.git(far.root, "rev-parse", "main"))
	if err != nil {
		t.Fatal(err)
	}
	if after := far.state(wt); after != before {
		t.Fatalf("bundling changed the far repository:\n%s\n---\n%s", before, after)
	}
	if b.Branch != "fan/x" || len(b.Bundle) == 0 || !strings.Contains(string(b.Patch), "u.txt") {
		t.Fatalf("bundle: %s %d bytes, patch %q", b.Branch, len(b.Bundle), b.Patch)
	}

	nr := near.open(near.root)
	path := worktree.Dir(near.data, "api", "fan/x")
	if err := nr.Pull(ctx, b, worktree.PullOptions{Branch: "fan/x", Path: path}); err != nil {
		t.Fatal(err)
	}
	if got := near.git(path, "log", "-1", "--format=%s"); got != "c" {
		t.Fatalf("the commit did not come: %q", got)
	}
	for name, want := range map[string]string{"a.txt": "hi\nedited\n", "u.txt": "untracked\n", "c.txt": "committed\n", "bin.dat": "\x00\x01\x02\x03\xff"} {
		if got, _ := os.ReadFile(filepath.Join(path, name)); string(got) != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if st := near.git(path, "status", "--porcelain"); !strings.Contains(st, "M a.txt") || !strings.Contains(st, "?? u.txt") {
		t.Fatalf("the uncommitted work is not uncommitted here: %q", st)
	}
	// Again: the branch exists now, refused, nothing changes.
	beforeNear := near.state(path)
	err = nr.Pull(ctx, b, worktree.PullOptions{Branch: "fan/x", Path: worktree.Dir(near.data, "api", "other")})
	if worktreeCode(err) != worktree.CodeInvalidParams || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("existing branch: %v", err)
	}
	if after := near.state(path); after != beforeNear {
		t.Fatal("a refused pull changed something")
	}
	// A repository without the base: refused, named.
	other := &fixture{t: t, env: far.env, data: t.TempDir(), g: far.g, root: filepath.Join(t.TempDir(), "api")}
	os.MkdirAll(other.root, 0o755)
	other.git(other.root, "init", "-q", "-b", "main")
	other.write(other.root, "z.txt", "another history\n")
	other.git(other.root, "add", "z.txt")
	other.git(other.root, "commit", "-q", "-m", "another first")
	or := other.open(other.root)
	err = or.Pull(ctx, b, worktree.PullOptions{Branch: "fan/x", Path: worktree.Dir(other.data, "api", "fan/x")})
	if err == nil || !strings.Contains(err.Error(), "does not have") {
		t.Fatalf("unrelated repository: %v", err)
	}
}

// Clone makes a repository from a URL, and refuses a folder that exists
// and a transport that would run a command.
func TestClone(t *testing.T) {
	f := newRepo(t)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "far", "api")
	if err := worktree.Clone(ctx, f.g, f.root, dir); err != nil {
		t.Fatal(err)
	}
	if r := f.open(dir); r.Root != dir {
		t.Fatalf("clone: %+v", r)
	}
	if err := worktree.Clone(ctx, f.g, f.root, dir); worktreeCode(err) != worktree.CodeInvalidParams {
		t.Fatalf("again: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "x")
	if err := worktree.Clone(ctx, f.g, "ext::sh -c touch% "+filepath.Join(t.TempDir(), "pwned"), bad); err == nil {
		t.Fatal("an ext:: URL was cloned")
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Fatal("a failed clone left its folder")
	}
	if err := worktree.Clone(ctx, f.g, "-u x", bad); worktreeCode(err) != worktree.CodeInvalidParams {
		t.Fatalf("an option as URL: %v", err)
	}
}
