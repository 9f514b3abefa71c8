package worktree

import (
	"context"
	"os"
	"path/filepath"
	"strings"
)

// MaxBundle bounds what a worktree sends another machine: its commits'
// bundle and its uncommitted patch together.
const MaxBundle = 8 << 20

// Bundle is a worktree's work, made to travel: the commits since its base
// as a git bundle, and what is not committed as a binary patch against
// its HEAD (untracked files included).
type Bundle struct {
	Branch string `json:"branch"`
	Base   string `json:"base_sha"`
	Head   string `json:"head_sha"`
	// Bundle is empty when the worktree has no commits since Base.
	Bundle []byte `json:"bundle"`
	Patch  []byte `json:"patch"`
}

// MakeBundle packs a worktree's work. It changes nothing in the
// repository: the patch is made through a copy of the index and a
// temporary object folder, and the bundle goes to a temporary file.
func (r *Repo) MakeBundle(ctx context.Context, dir, base string) (*Bundle, error) {
	branch, head, err := r.Head(ctx, dir)
	if err != nil {
		return nil, err
	}
	if branch == "" {
		return nil, errf(CodeNotWorktree, "check a branch out in it first", "", "%s has no branch checked out", clip(dir, 300))
	}
	b := &Bundle{Branch: branch, Base: base, Head: head}
	if base == "" {
		b.Base = head
	}
	tmp, err := os.MkdirTemp("", "tuios-bundle-*")
	if err != nil {
		return nil, failed(err)
	}
	defer os.RemoveAll(tmp)
	if b.Base != head {
		if !r.isAncestor(ctx, b.Base, head) {
			return nil, errf(CodeGitFailed, "the branch was rewritten past its base; push it instead", "", "%s is not an ancestor of %s", short(b.Base), branch)
		}
		file := filepath.Join(tmp, "work.bundle")
		if _, err := r.git.run(ctx, dir, nil, "bundle", "create", "--quiet", file, "refs/heads/"+branch, "^"+b.Base); err != nil {
			return nil, failed(err)
		}
		if b.Bundle, err = readCapped(file, MaxBundle); err != nil {
			return nil, err
		}
	}
	// The patch: the working state's tree, written with a copy of the
	// index into a temporary object folder that borrows the repository's.
	out, err := r.git.run(ctx, dir, nil, "rev-parse", "--path-format=absolute", "--git-path", "index", "--git-path", "objects")
	if err != nil {
		return nil, failed(err)
	}
	paths := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(paths) != 2 {
		return nil, failed(errf(CodeGitFailed, "", "", "git rev-parse gave %d paths", len(paths)))
	}
	index := filepath.Join(tmp, "index")
	if err := copyIndex(paths[0], index); err != nil {
		return nil, failed(err)
	}
	objects := filepath.Join(tmp, "objects")
	if err := os.Mkdir(objects, 0o700); err != nil {
		return nil, failed(err)
	}
	env := []string{"GIT_INDEX_FILE=" + index, "GIT_OBJECT_DIRECTORY=" + objects, "GIT_ALTERNATE_OBJECT_DIRECTORIES=" + paths[1]}
	if _, err := r.git.runEnv(ctx, dir, env, nil, "add", "-A", "--", "."); err != nil {
		return nil, failed(err)
	}
	tree, err := r.git.runEnv(ctx, dir, env, nil, "write-tree")
	if err != nil {
		return nil, failed(err)
	}
	patch, err := r.git.runEnv(ctx, dir, env, nil, "diff", "--binary", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", head, strings.TrimSpace(string(tree)))
	if err != nil {
		return nil, failed(err)
	}
	if len(patch)+len(b.Bundle) > MaxBundle {
		return nil, errf(CodeInvalidParams, "commit and push the work instead, then check the branch out here", "",
			"the work is %d bytes: at most %d travel over a link", len(patch)+len(b.Bundle), MaxBundle)
	}
	b.Patch = patch
	return b, nil
}

// PullOptions say where pulled work goes.
type PullOptions struct {
	// Branch is the new branch here (it must not exist), Path its
	// worktree's folder.
	Branch, Path string
}

// Pull makes a worktree here from another machine's Bundle: a new branch
// at the bundle's head (its base must be in this repository), the
// uncommitted patch applied on top and left uncommitted. On failure
// nothing is left.
func (r *Repo) Pull(ctx context.Context, b *Bundle, o PullOptions) error {
	if len(b.Bundle)+len(b.Patch) > MaxBundle {
		return errf(CodeInvalidParams, "", "", "the work is larger than %d bytes", MaxBundle)
	}
	if ok, err := r.BranchExists(ctx, o.Branch); err != nil {
		return err
	} else if ok {
		return errf(CodeInvalidParams, "name another branch with --branch", "branch", "branch %q already exists here", clip(o.Branch, 100))
	}
	if _, err := r.git.run(ctx, r.Root, nil, "cat-file", "-e", b.Base+"^{commit}"); err != nil {
		return errf(CodeGitFailed, "fetch from the remote both machines share first (git fetch), so this repository has the base", "",
			"the work starts from %s, which this repository does not have", short(b.Base))
	}
	tmp, err := os.MkdirTemp("", "tuios-pull-*")
	if err != nil {
		return failed(err)
	}
	defer os.RemoveAll(tmp)
	head := b.Base
	if len(b.Bundle) > 0 {
		file := filepath.Join(tmp, "work.bundle")
		if err := os.WriteFile(file, b.Bundle, 0o600); err != nil {
			return failed(err)
		}
		if _, err := r.git.run(ctx, r.Root, nil, "bundle", "verify", "--quiet", file); err != nil {
			return errf(CodeGitFailed, "fetch from the remote both machines share first (git fetch)", "", "the bundle does not apply here: %s", err.Error())
		}
		// Fetched into no branch: the worktree's new branch is made
		// from the commit.
		if _, err := r.git.run(ctx, r.Root, nil, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", file, "refs/heads/"+b.Branch); err != nil {
			return failed(err)
		}
		head = b.Head
		if _, err := r.git.run(ctx, r.Root, nil, "cat-file", "-e", head+"^{commit}"); err != nil {
			return errf(CodeGitFailed, "", "", "the bundle did not hold %s", short(head))
		}
	}
	if err := r.Add(ctx, AddOptions{Path: o.Path, Branch: o.Branch, Base: head}); err != nil {
		return err
	}
	if len(b.Patch) > 0 {
		if _, err := r.git.run(ctx, o.Path, b.Patch, "apply", "--binary", "--whitespace=nowarn", "-"); err != nil {
			r.Undo(ctx, o.Path, o.Branch)
			return failed(err)
		}
	}
	return nil
}

func readCapped(path string, max int) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, failed(err)
	}
	if fi.Size() > int64(max) {
		return nil, errf(CodeInvalidParams, "commit and push the work instead, then check the branch out here", "",
			"the work's commits are %d bytes: at most %d travel over a link", fi.Size(), max)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, failed(err)
	}
	return b, nil
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
