package worktree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Repo is a git repository as a fan sees it.
type Repo struct {
	// Root is the main checkout's top folder: the repository a fan's
	// worktrees belong to, wherever it was opened from.
	Root string
	// Name is Root's base name, the <repo> of worktree folders and
	// session names.
	Name string
	// Dir is the top of the checkout Open was given a folder of (Root,
	// or a linked worktree).
	Dir string
	// CommonDir is the repository's shared git directory.
	CommonDir string

	git Git
}

// Open finds the repository holding dir.
func Open(ctx context.Context, g Git, dir string) (*Repo, error) {
	if dir == "" {
		return nil, errf(CodeInvalidParams, "name the repository's folder with --repo", "repo", "no folder was named")
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, errf(CodeRepoNotFound, "name a folder that exists (--repo DIR)", "repo", "there is no folder %s", clip(dir, 300))
	case err != nil:
		return nil, errf(CodeRepoNotFound, "name a folder this user can read", "repo", "%s cannot be read: %v", clip(dir, 300), err)
	case !fi.IsDir():
		return nil, errf(CodeRepoNotFound, "name the repository's folder, not a file in it", "repo", "%s is not a folder", clip(dir, 300))
	}
	out, err := g.run(ctx, dir, nil, "rev-parse", "--path-format=absolute", "--is-bare-repository", "--show-toplevel", "--git-common-dir")
	if err != nil {
		if ctx.Err() != nil || exitCode(err) == 0 {
			return nil, failed(err)
		}
		return nil, errf(CodeNotRepo, "run it inside a git repository, or name one with --repo", "repo", "%s is not inside a git repository", clip(dir, 300))
	}
	f := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(f) < 2 || f[0] == "true" || len(f) != 3 {
		return nil, errf(CodeNotRepo, "a worktree needs a repository with a checkout, not a bare one", "repo", "%s is a bare repository", clip(dir, 300))
	}
	r := &Repo{Dir: f[1], CommonDir: f[2], git: g}
	// The main checkout is the first entry git lists, whichever checkout
	// (or separate git dir) this folder is.
	list, err := r.List(ctx)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 || list[0].Bare {
		return nil, errf(CodeNotRepo, "a worktree needs a repository with a checkout, not a bare one", "repo", "%s belongs to a bare repository", clip(dir, 300))
	}
	r.Root = list[0].Path
	r.Name = filepath.Base(r.Root)
	return r, nil
}

// Git is how the repository's git calls run.
func (r *Repo) Git() Git { return r.git }

// Head is a checkout's branch ("" when detached) and commit.
func (r *Repo) Head(ctx context.Context, dir string) (branch, sha string, err error) {
	if dir == "" {
		dir = r.Dir
	}
	out, gerr := r.git.run(ctx, dir, nil, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	sha = strings.TrimSpace(string(out))
	if gerr != nil || sha == "" {
		if ctx.Err() != nil {
			return "", "", failed(ctx.Err())
		}
		return "", "", errf(CodeInvalidParams, "commit something first: a worktree starts from a commit", "base", "%s has no commits yet", clip(dir, 300))
	}
	if b, err := r.git.run(ctx, dir, nil, "symbolic-ref", "--quiet", "--short", "HEAD"); err == nil {
		branch = strings.TrimSpace(string(b))
	}
	return branch, sha, nil
}

// Resolve is the commit a ref names, or invalid_params naming param.
func (r *Repo) Resolve(ctx context.Context, ref, param string) (string, error) {
	if ref == "" || strings.HasPrefix(ref, "-") || strings.ContainsAny(ref, "\x00\n") {
		return "", errf(CodeInvalidParams, "name a branch, tag or commit", param, "%q is not a ref", clip(ref, 100))
	}
	out, err := r.git.run(ctx, r.Dir, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	sha := strings.TrimSpace(string(out))
	if err != nil || sha == "" {
		if ctx.Err() != nil {
			return "", failed(ctx.Err())
		}
		return "", errf(CodeInvalidParams, "name a branch, tag or commit that exists (git branch -a, git tag)", param,
			"%q does not exist in %s", clip(ref, 100), r.Name)
	}
	return sha, nil
}

// CheckBranch refuses a name git would not take for a branch.
func (r *Repo) CheckBranch(ctx context.Context, name string) error {
	if name == "" || strings.HasPrefix(name, "-") || strings.ContainsAny(name, "\x00\n") || len(name) > 200 {
		return errf(CodeInvalidParams, "use letters, digits, '-', '_', '.' and '/'", "branch", "%q is not a branch name", clip(name, 100))
	}
	if _, err := r.git.run(ctx, r.Dir, nil, "check-ref-format", "--branch", name); err != nil {
		if ctx.Err() != nil {
			return failed(ctx.Err())
		}
		return errf(CodeInvalidParams, "use letters, digits, '-', '_', '.' and '/' (git check-ref-format)", "branch", "%q is not a branch name git takes", clip(name, 100))
	}
	return nil
}

// BranchExists says whether refs/heads/name exists.
func (r *Repo) BranchExists(ctx context.Context, name string) (bool, error) {
	_, err := r.git.run(ctx, r.Dir, nil, "rev-parse", "--verify", "--quiet", "refs/heads/"+name)
	if err == nil {
		return true, nil
	}
	if ctx.Err() != nil || exitCode(err) == 0 {
		return false, failed(err)
	}
	return false, nil
}

// Branches is the set of the repository's branches (one git call, for a
// fan that checks many names).
func (r *Repo) Branches(ctx context.Context) (map[string]bool, error) {
	out, err := r.git.run(ctx, r.Dir, nil, "for-each-ref", "--format=%(refname)", "refs/heads/")
	if err != nil {
		return nil, failed(err)
	}
	set := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		if b, ok := strings.CutPrefix(l, "refs/heads/"); ok {
			set[b] = true
		}
	}
	return set, nil
}

// BranchSHA is the commit refs/heads/name points at.
func (r *Repo) BranchSHA(ctx context.Context, name string) (string, error) {
	out, err := r.git.run(ctx, r.Dir, nil, "rev-parse", "--verify", "--quiet", "refs/heads/"+name)
	if err != nil {
		if ctx.Err() != nil {
			return "", failed(ctx.Err())
		}
		return "", errf(CodeInvalidParams, "git branch lists the branches", "branch", "there is no branch %q in %s", clip(name, 100), r.Name)
	}
	return strings.TrimSpace(string(out)), nil
}

// Changes counts a checkout's changes: tracked files changed (staged or
// not), and untracked files that are not ignored.
type Changes struct {
	Tracked   int      `json:"tracked"`
	Untracked int      `json:"untracked"`
	Paths     []string `json:"paths,omitempty"` // the first few, for a message
}

// Dirty is whether anything would be lost by removing the checkout.
func (c Changes) Dirty() bool { return c.Tracked+c.Untracked > 0 }

// Status reads a checkout's changes without taking its index lock.
func (r *Repo) Status(ctx context.Context, dir string) (Changes, error) {
	out, err := r.git.run(ctx, dir, nil, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=none")
	if err != nil {
		return Changes{}, failed(err)
	}
	return ParseStatus(out), nil
}

// ParseStatus reads git status --porcelain=v1 -z: "XY path" entries, a
// rename or copy followed by its source path. Anything else is skipped,
// never guessed at.
func ParseStatus(out []byte) Changes {
	var c Changes
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 || f[2] != ' ' {
			continue
		}
		xy, path := f[:2], f[3:]
		switch {
		case xy == "??":
			c.Untracked++
		case xy == "!!":
			continue
		default:
			c.Tracked++
			if xy[0] == 'R' || xy[0] == 'C' {
				i++ // the source path
			}
		}
		if len(c.Paths) < 5 {
			c.Paths = append(c.Paths, path)
		}
	}
	return c
}
