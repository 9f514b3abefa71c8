package worktree

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
)

// RemoveOptions say what happens to a worktree's changes.
type RemoveOptions struct {
	// Stash keeps the changes (untracked files included) in the
	// repository's stash, with the message StashMessage, then removes.
	Stash        bool
	StashMessage string
	// Force removes with the changes (they are lost).
	Force bool
}

// Removed says what Remove did.
type Removed struct {
	Stashed bool   `json:"stashed"`
	Stash   string `json:"stash,omitempty"` // the stash's message
	Forced  bool   `json:"forced"`
	Gone    bool   `json:"gone"` // the folder was already gone: nothing was removed
}

// Remove takes a linked worktree away: refused with worktree_dirty when it
// has changes, unless they are stashed or forced away. It never deletes
// the branch, and never prunes: a folder already gone is reported (Gone)
// and left to the person's git worktree prune.
func (r *Repo) Remove(ctx context.Context, path string, o RemoveOptions) (Removed, error) {
	var res Removed
	if path == r.Root {
		return res, errf(CodeNotWorktree, "the main checkout is yours: tuios removes only the worktrees it made", "", "%s is the repository's main checkout", clip(path, 300))
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		res.Gone = true
		return res, nil
	}
	list, err := r.List(ctx)
	if err != nil {
		return res, err
	}
	e, ok := Find(list, path)
	if !ok {
		return res, errf(CodeNotWorktree, "git worktree list shows the worktrees of this repository", "", "%s is not a worktree of %s", clip(path, 300), r.Name)
	}
	if e.Locked {
		return res, errf(CodeGitFailed, "unlock it first: git worktree unlock "+path, "", "%s is locked", clip(path, 300))
	}
	ch, err := r.Status(ctx, path)
	if err != nil {
		return res, err
	}
	args := []string{"worktree", "remove"}
	switch {
	case !ch.Dirty():
	case o.Stash:
		msg := o.StashMessage
		if msg == "" {
			msg = "tuios: " + e.Branch
		}
		if _, err := r.git.run(ctx, path, nil, "stash", "push", "--include-untracked", "--message", msg); err != nil {
			return res, failed(err)
		}
		res.Stashed, res.Stash = true, msg
		if after, err := r.Status(ctx, path); err == nil && after.Dirty() {
			// What stash cannot hold (an ignored file is not a change; a
			// submodule's is): refused rather than lost.
			return res, dirtyError(path, after, "stashed what git could; the rest is still there")
		}
	case o.Force:
		args = append(args, "--force")
		res.Forced = true
	default:
		return res, dirtyError(path, ch, "")
	}
	if _, err := r.git.run(ctx, r.Root, nil, append(args, "--", path)...); err != nil {
		var ge *gitError
		if errors.As(err, &ge) && strings.Contains(ge.msg, "contains modified or untracked files") {
			after, _ := r.Status(ctx, path)
			return res, dirtyError(path, after, "")
		}
		return res, failed(err)
	}
	return res, nil
}

func dirtyError(path string, ch Changes, note string) *Error {
	what := ""
	switch {
	case ch.Tracked > 0 && ch.Untracked > 0:
		what = plural(ch.Tracked, "changed file") + " and " + plural(ch.Untracked, "untracked file")
	case ch.Tracked > 0:
		what = plural(ch.Tracked, "changed file")
	case ch.Untracked > 0:
		what = plural(ch.Untracked, "untracked file")
	default:
		what = "changes"
	}
	msg := clip(path, 300) + " has " + what
	if len(ch.Paths) > 0 {
		msg += " (" + strings.Join(ch.Paths, ", ") + ")"
	}
	if note != "" {
		msg += "; " + note
	}
	e := errf(CodeDirty, "--stash keeps them in git stash, --force throws them away, or commit them first", "", "%s", msg)
	e.Files = ch.Paths
	return e
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
