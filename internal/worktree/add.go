package worktree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// AddOptions say where a worktree goes and what it checks out.
type AddOptions struct {
	// Path is the new checkout's folder, absolute. It must not exist.
	Path string
	// Branch is the branch it checks out.
	Branch string
	// Base is the commit a new branch starts from. Empty checks out
	// Branch as it exists; otherwise Branch must not exist yet.
	Base string
}

// Add makes a linked worktree. A new branch gets no upstream (--no-track):
// it is the agent's own. On failure nothing is left: no folder, no branch.
func (r *Repo) Add(ctx context.Context, o AddOptions) error {
	if !filepath.IsAbs(o.Path) {
		return errf(CodeInvalidParams, "give the folder from /", "path", "the worktree's folder %q is not absolute", clip(o.Path, 200))
	}
	if _, err := os.Lstat(o.Path); err == nil {
		return errf(CodeInvalidParams, "remove it (tuios worktree rm), or pick another name (--name)", "branch", "%s already exists", clip(o.Path, 300))
	} else if !errors.Is(err, os.ErrNotExist) {
		return errf(CodeGitFailed, "check the data folder's permissions", "", "%s cannot be read: %v", clip(o.Path, 300), err)
	}
	if err := r.CheckBranch(ctx, o.Branch); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(o.Path), 0o700); err != nil {
		return errf(CodeGitFailed, "check the data folder's permissions", "", "cannot make %s: %v", clip(filepath.Dir(o.Path), 300), err)
	}
	args := []string{"worktree", "add", "--quiet"}
	if o.Base != "" {
		args = append(args, "--no-track", "-b", o.Branch, "--", o.Path, o.Base)
	} else {
		args = append(args, "--", o.Path, o.Branch)
	}
	_, err := r.git.run(ctx, r.Root, nil, args...)
	if err == nil {
		return nil
	}
	// git removes what it made when add fails; a branch it made before
	// the checkout failed is ours to take back.
	if o.Base != "" {
		if ok, _ := r.BranchExists(context.WithoutCancel(ctx), o.Branch); ok {
			if e, _ := r.List(context.WithoutCancel(ctx)); len(e) > 0 {
				if _, held := CheckedOut(e, o.Branch); !held {
					r.git.run(context.WithoutCancel(ctx), r.Root, nil, "branch", "-D", "--", o.Branch)
				}
			}
		}
	}
	var ge *gitError
	if errors.As(err, &ge) && strings.Contains(ge.msg, "already checked out") || strings.Contains(err.Error(), "already used by worktree") {
		return errf(CodeInvalidParams, "a branch is checked out in one place at a time: name another branch, or remove the other checkout", "branch",
			"branch %q is checked out in another worktree", clip(o.Branch, 100))
	}
	if errors.As(err, &ge) && strings.Contains(ge.msg, "already exists") {
		return errf(CodeInvalidParams, "pick another name (--name), or delete the branch yourself (git branch -D)", "branch", "branch %q already exists", clip(o.Branch, 100))
	}
	return failed(err)
}

// Undo takes back a worktree Add made moments ago for a call that then
// failed: its folder and its new branch. It is for a fan that is refused
// half way, so nothing of it is left; it is never used on work.
func (r *Repo) Undo(ctx context.Context, path, branch string) {
	ctx = context.WithoutCancel(ctx)
	r.git.run(ctx, r.Root, nil, "worktree", "remove", "--force", "--force", "--", path)
	if _, err := os.Stat(path); err == nil {
		// git would not take it back: the folder goes, and git's record
		// of it stays for the person's git worktree prune (tuios never
		// prunes another worktree's record with it).
		os.RemoveAll(path)
	}
	if branch != "" {
		r.git.run(ctx, r.Root, nil, "branch", "-D", "--", branch)
	}
}
