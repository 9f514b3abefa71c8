package worktree_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/worktree"
)

// gitEnv keeps the user's git config out of the test repositories.
func gitEnv(t testing.TB) []string {
	home := t.TempDir()
	return append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
}

type fixture struct {
	t    testing.TB
	env  []string
	root string // the main checkout
	data string // where worktrees go
	g    worktree.Git
}

// newRepo makes a repository named api with one commit on main: a.txt.
func newRepo(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{t: t, env: gitEnv(t)}
	f.root = filepath.Join(t.TempDir(), "api")
	f.data = t.TempDir()
	os.MkdirAll(f.root, 0o755)
	f.git(f.root, "init", "-q", "-b", "main")
	f.write(f.root, "a.txt", "hi\n")
	f.git(f.root, "add", "a.txt")
	f.git(f.root, "commit", "-q", "-m", "first")
	f.g = worktree.Git{Env: f.env}
	return f
}

func (f *fixture) git(dir string, args ...string) string {
	f.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, f.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		f.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (f *fixture) write(dir, name, text string) {
	f.t.Helper()
	p := filepath.Join(dir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) open(dir string) *worktree.Repo {
	f.t.Helper()
	r, err := worktree.Open(context.Background(), f.g, dir)
	if err != nil {
		f.t.Fatalf("open %s: %v", dir, err)
	}
	return r
}

// add makes a worktree of a new branch from main.
func (f *fixture) add(r *worktree.Repo, branch string) string {
	f.t.Helper()
	path := worktree.Dir(f.data, r.Name, branch)
	base := f.git(f.root, "rev-parse", "main")
	if err := r.Add(context.Background(), worktree.AddOptions{Path: path, Branch: branch, Base: base}); err != nil {
		f.t.Fatalf("add %s: %v", branch, err)
	}
	return path
}

// state is everything a refused call must leave as it was: every ref,
// each checkout's status and index bytes, and the stash.
func (f *fixture) state(dirs ...string) string {
	f.t.Helper()
	var b strings.Builder
	b.WriteString(f.git(f.root, "for-each-ref", "--format=%(refname) %(objectname)"))
	b.WriteString("\nstash:" + f.gitOK(f.root, "stash", "list"))
	for _, d := range append([]string{f.root}, dirs...) {
		b.WriteString("\n" + d + ":\n" + f.git(d, "status", "--porcelain", "--untracked-files=all"))
		idx := f.git(d, "rev-parse", "--path-format=absolute", "--git-path", "index")
		data, _ := os.ReadFile(idx)
		sum := sha256.Sum256(data)
		b.WriteString(" index " + hex.EncodeToString(sum[:8]))
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if e.Name() == ".git" {
				continue
			}
			data, _ := os.ReadFile(filepath.Join(d, e.Name()))
			b.WriteString(" " + e.Name() + "=" + string(data))
		}
	}
	return b.String()
}

func (f *fixture) gitOK(dir string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, f.env
	out, _ := cmd.CombinedOutput()
	return strings.TrimSpace(string(out))
}

func codeOf(err error) string {
	var e *worktree.Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err == nil {
		return ""
	}
	return "not an *Error: " + err.Error()
}
