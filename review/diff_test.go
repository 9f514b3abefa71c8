package review_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/review"
)

// gitEnv keeps the user's git config out of the test repositories.
func gitEnv(t testing.TB) []string {
	home := t.TempDir()
	return append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
}

func gitRun(t testing.TB, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func write(t testing.TB, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// snapshot is what must not change: the status and the index's bytes.
func snapshot(t testing.TB, dir string, env []string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	objs := 0
	filepath.WalkDir(filepath.Join(dir, ".git", "objects"), func(string, os.DirEntry, error) error { objs++; return nil })
	// GIT_OPTIONAL_LOCKS=0: the check itself must not refresh the index.
	return gitRun(t, dir, append(env, "GIT_OPTIONAL_LOCKS=0"), "status", "--porcelain", "--untracked-files=all") + hex.EncodeToString(sum[:]) + fmt.Sprint(" objects ", objs)
}

func lines(n int, f string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, f+"\n", i)
	}
	return b.String()
}

// fanRepo makes a repository on main with a branch "work" that has
// committed, staged, unstaged and untracked changes, a rename, a binary
// file, a file without a final newline and a huge file.
func fanRepo(t testing.TB) (string, []string) {
	dir := t.TempDir()
	env := gitEnv(t)
	gitRun(t, dir, env, "init", "-q", "-b", "main")
	write(t, dir, "a.txt", "hi\n")
	write(t, dir, "old/name.go", lines(30, "line %d"))
	write(t, dir, "gone.txt", "bye\n")
	write(t, dir, "tail.txt", "one\ntwo")
	write(t, dir, ".gitignore", "*.log\n")
	write(t, dir, "big.txt", lines(10, "big %d"))
	gitRun(t, dir, env, "add", "-A")
	gitRun(t, dir, env, "commit", "-qm", "base")
	gitRun(t, dir, env, "checkout", "-qb", "work")
	write(t, dir, "a.txt", "hi\nchange\n")
	gitRun(t, dir, env, "commit", "-qam", "committed change")
	os.MkdirAll(filepath.Join(dir, "new"), 0o755)
	gitRun(t, dir, env, "mv", "old/name.go", "new/name.go")
	gitRun(t, dir, env, "rm", "-q", "gone.txt")
	write(t, dir, "tail.txt", "one\nTWO")
	write(t, dir, "bin.dat", "\x00\x01\x02binary\x00")
	write(t, dir, "b.txt", "untracked\n")
	write(t, dir, "skip.log", "ignored\n")
	write(t, dir, "big.txt", lines(6000, "huge %d"))
	return dir, env
}

func TestDiffFanOfEdits(t *testing.T) {
	dir, env := fanRepo(t)
	before := snapshot(t, dir, env)
	d, err := review.ComputeDiff(context.Background(), review.DiffOptions{Dir: filepath.Join(dir, "new"), Base: "main", Context: 3, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, dir, env); after != before {
		t.Fatalf("the repository changed:\n%s\n---\n%s", before, after)
	}
	got := map[string]review.File{}
	for _, f := range d.Files {
		got[f.Path] = f
	}
	want := map[string]string{"a.txt": "M", "new/name.go": "R", "gone.txt": "D", "tail.txt": "M", "bin.dat": "U", "b.txt": "U", "big.txt": "M"}
	for p, st := range want {
		if got[p].Status != st {
			t.Errorf("%s: status %q, want %q (%+v)", p, got[p].Status, st, got[p])
		}
	}
	if _, ok := got["skip.log"]; ok {
		t.Error("an ignored file is in the diff")
	}
	if f := got["new/name.go"]; f.OldPath != "old/name.go" || f.Added != 0 || f.Removed != 0 {
		t.Errorf("rename: %+v", f)
	}
	if f := got["bin.dat"]; !f.Binary || len(f.Hunks) != 0 {
		t.Errorf("binary: %+v", f)
	}
	if f := got["big.txt"]; !f.Truncated || len(f.Hunks) != 0 || f.Added != 6000 {
		t.Errorf("huge file (V6): %+v", f)
	}
	if !d.Truncated {
		t.Error("the diff should say truncated")
	}
	tail := got["tail.txt"]
	if len(tail.Hunks) != 1 {
		t.Fatalf("tail: %+v", tail)
	}
	var noNL int
	for _, l := range tail.Hunks[0].Lines {
		if l.NoNewline {
			noNL++
		}
	}
	if noNL != 2 {
		t.Errorf("no newline at end: %d lines marked, want 2: %+v", noNL, tail.Hunks[0].Lines)
	}
	a := got["a.txt"]
	if len(a.Hunks) != 1 || a.Hunks[0].Header != "@@ -1 +1,2 @@" || a.Hunks[0].Lines[1] != (review.Line{Op: review.OpAdd, New: 2, Text: "change"}) {
		t.Errorf("a.txt: %+v", a)
	}
	if d.Base != "main" || d.BaseSHA == "" || d.TreeSHA == "" || d.Worktree != dir {
		t.Errorf("header: base %q %q tree %q worktree %q", d.Base, d.BaseSHA, d.TreeSHA, d.Worktree)
	}

	// Only what is not committed: a.txt's committed change is gone.
	u, err := review.ComputeDiff(context.Background(), review.DiffOptions{Dir: dir, Uncommitted: true, Context: 3, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range u.Files {
		if f.Path == "a.txt" {
			t.Error("--uncommitted shows a committed change")
		}
	}
	// A path filter.
	p, err := review.ComputeDiff(context.Background(), review.DiffOptions{Dir: dir, Base: "main", Paths: []string{"a.txt"}, Context: 0, Env: env})
	if err != nil || len(p.Files) != 1 || p.Files[0].Path != "a.txt" {
		t.Fatalf("paths: %v %+v", err, p)
	}
	if after := snapshot(t, dir, env); after != before {
		t.Fatalf("the repository changed")
	}
}

func TestDiffBadInput(t *testing.T) {
	dir, env := fanRepo(t)
	code := func(err error) string {
		var de *review.DiffError
		if errors.As(err, &de) {
			return de.Code
		}
		return fmt.Sprint(err)
	}
	_, err := review.ComputeDiff(context.Background(), review.DiffOptions{Dir: t.TempDir(), Env: env})
	if code(err) != "not_repo" { // V1
		t.Errorf("outside a repo: %v", err)
	}
	_, err = review.ComputeDiff(context.Background(), review.DiffOptions{Dir: dir, Base: "nope", Env: env})
	if code(err) != "invalid_params" {
		t.Errorf("missing base: %v", err)
	}
	_, err = review.ComputeDiff(context.Background(), review.DiffOptions{Dir: dir, Paths: []string{"../x"}, Env: env})
	if code(err) != "invalid_params" {
		t.Errorf("path outside: %v", err)
	}
	_, err = review.ComputeDiff(context.Background(), review.DiffOptions{Dir: dir, Context: 21, Env: env})
	if code(err) != "invalid_params" {
		t.Errorf("context: %v", err)
	}
	_, err = review.ComputeDiff(context.Background(), review.DiffOptions{Dir: dir, Env: env, Git: "/bin/false"})
	if code(err) != "not_repo" && code(err) != "git_failed" {
		t.Errorf("broken git: %v", err)
	}
}

func TestDiffLimits(t *testing.T) {
	dir := t.TempDir()
	env := gitEnv(t)
	gitRun(t, dir, env, "init", "-q", "-b", "main")
	write(t, dir, "keep", "x\n")
	gitRun(t, dir, env, "add", "-A")
	gitRun(t, dir, env, "commit", "-qm", "base")
	for i := range 12 {
		write(t, dir, fmt.Sprintf("f%02d.txt", i), lines(200, "text of a line that is long enough %d"))
	}
	before := snapshot(t, dir, env)
	d, err := review.ComputeDiff(context.Background(), review.DiffOptions{Dir: dir, Context: 3, Env: env, MaxFiles: 10, MaxBytes: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Files) != 10 || d.Totals.Files != 12 || d.Totals.Added != 2400 || !d.Truncated {
		t.Fatalf("files %d totals %+v truncated %v", len(d.Files), d.Totals, d.Truncated)
	}
	whole := 0
	for _, f := range d.Files {
		if !f.Truncated {
			whole++
			if len(f.Hunks) != 1 || len(f.Hunks[0].Lines) != 200 {
				t.Errorf("%s: a file kept whole lost lines", f.Path)
			}
		}
	}
	if whole == 0 || whole == 10 {
		t.Errorf("the 20000 byte cap kept %d whole files", whole)
	}
	if snapshot(t, dir, env) != before {
		t.Fatal("the repository changed")
	}
}
