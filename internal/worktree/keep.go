package worktree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// The ways Keep brings an attempt into a branch.
const (
	MergeNoFF   = "merge"   // a merge commit, always (--no-ff)
	MergeSquash = "squash"  // one new commit with the attempt's changes
	MergeFFOnly = "ff-only" // the branch moves to the attempt, or nothing happens
)

// KeepOptions say which attempt is kept and where its work goes.
type KeepOptions struct {
	// Worktree is the kept attempt's checkout and Branch its branch.
	Worktree, Branch string
	// Into is the branch the work goes into.
	Into string
	// Mode is MergeNoFF, MergeSquash or MergeFFOnly.
	Mode string
	// Message is the merge or squash commit's message; empty says which
	// branch was kept.
	Message string
	// WorkMessage is the message of the commit made of the attempt's
	// uncommitted work; empty says so in words.
	WorkMessage string
}

// Kept says what Keep did.
type Kept struct {
	Branch string `json:"branch"`
	Into   string `json:"into"`
	Mode   string `json:"mode"`
	// Committed is the commit made on Branch of what the agent had not
	// committed ("" when everything was committed).
	Committed string `json:"committed,omitempty"`
	// Before and After are Into's commit before and after.
	Before string `json:"before"`
	After  string `json:"after"`
	// Checkout is where the merge ran: the checkout that has Into; ""
	// when none has it and only the branch moved.
	Checkout string `json:"checkout,omitempty"`
}

// Keep brings an attempt's work into another branch. Whatever the agent
// did not commit is committed on the attempt's branch first. Conflicts are
// found before anything changes (git merge-tree), and a merge that fails
// anyway is taken back, so a refused keep leaves the repository, its
// branches, its checkouts and the attempt's files as they were.
func (r *Repo) Keep(ctx context.Context, o KeepOptions) (Kept, error) {
	k := Kept{Branch: o.Branch, Into: o.Into, Mode: o.Mode}
	switch o.Mode {
	case MergeNoFF, MergeSquash, MergeFFOnly:
	default:
		return k, errf(CodeInvalidParams, "merge, squash or ff-only", "mode", "%q is not a way to keep", clip(o.Mode, 32))
	}
	if o.Into == o.Branch {
		return k, errf(CodeInvalidParams, "name the branch the work goes into with --into", "into", "the attempt's branch %q cannot be merged into itself", clip(o.Branch, 100))
	}
	before, err := r.BranchSHA(ctx, o.Into)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.Param, e.Hint = "into", "name a branch that exists with --into"
		}
		return k, err
	}
	k.Before = before
	branch, head, err := r.Head(ctx, o.Worktree)
	if err != nil {
		return k, err
	}
	if branch != o.Branch {
		return k, errf(CodeNotWorktree, "check out "+o.Branch+" there again, or keep the branch by hand", "",
			"%s has %q checked out, not the attempt's branch %q", clip(o.Worktree, 300), branch, clip(o.Branch, 100))
	}
	list, err := r.List(ctx)
	if err != nil {
		return k, err
	}
	co, hasCo := CheckedOut(list, o.Into)
	if hasCo {
		ch, err := r.Status(ctx, co.Path)
		if err != nil {
			return k, err
		}
		if ch.Tracked > 0 {
			e := errf(CodeDirty, "commit or stash your changes there first (git -C "+co.Path+" stash), then keep again", "",
				"%s, where %s is checked out, has %s: nothing was merged", clip(co.Path, 300), o.Into, plural(ch.Tracked, "changed file"))
			e.Files = ch.Paths
			return k, e
		}
		k.Checkout = co.Path
	}

	// The attempt's uncommitted work, as a commit no ref points at yet.
	work, err := r.Status(ctx, o.Worktree)
	if err != nil {
		return k, err
	}
	tip := head
	if work.Dirty() {
		msg := o.WorkMessage
		if msg == "" {
			msg = "Work the agent left uncommitted in " + o.Branch + "\n\nCommitted by tuios fan keep."
		}
		if tip, err = r.commitWork(ctx, o.Worktree, head, msg); err != nil {
			return k, err
		}
	}

	// Conflicts and fast-forwards, found before anything moves.
	if r.isAncestor(ctx, tip, before) {
		return k, errf(CodeInvalidParams, "nothing to keep: the attempt made no change "+o.Into+" lacks", "",
			"%s already has everything in %s", o.Into, o.Branch)
	}
	var tree string
	switch o.Mode {
	case MergeFFOnly:
		if !r.isAncestor(ctx, before, tip) {
			return k, errf(CodeInvalidParams, "keep with --merge or --squash instead, or rebase the attempt on "+o.Into+" first", "mode",
				"%s cannot fast-forward to %s: %s has moved on since the attempt began; nothing was merged", o.Into, o.Branch, o.Into)
		}
	default:
		out, err := r.git.run(ctx, r.Root, nil, "merge-tree", "--write-tree", "--name-only", "--no-messages", before, tip)
		if err != nil {
			if exitCode(err) == 1 {
				files := conflictFiles(out)
				e := errf(CodeGitFailed, "nothing was merged. Merge it yourself and resolve the conflicts: git -C "+r.mergeDir(k)+" merge "+o.Branch+
					"; or keep another attempt (tuios fan compare lists them)", "",
					"%s conflicts with %s in %s", o.Branch, o.Into, strings.Join(clipList(files, 8), ", "))
				e.Files = files
				return k, e
			}
			return k, failed(err)
		}
		tree = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	}

	// From here on, changes. The merge takes the work commit by its id;
	// the attempt's branch moves to it only once the merge is in, so a
	// merge that fails leaves the attempt as it was.
	msg := o.Message
	if msg == "" {
		msg = "Merge branch '" + o.Branch + "' (kept by tuios fan keep)"
		if o.Mode == MergeSquash {
			msg = "Squashed " + o.Branch + " (kept by tuios fan keep)"
		}
	}
	if hasCo {
		err = r.mergeIn(ctx, co.Path, tip, o, msg)
	} else {
		err = r.mergeRefs(ctx, o, before, tip, tree, msg)
	}
	if err != nil {
		return k, err
	}
	if tip != head {
		if err := r.moveBranch(ctx, o.Branch, tip, head, o.Worktree); err != nil {
			return k, err
		}
		k.Committed = tip
	}
	k.After, err = r.BranchSHA(ctx, o.Into)
	return k, err
}

// commitWork commits a checkout's working state (untracked files too,
// ignored ones not) on top of head, through a copy of its index: neither
// the checkout's index nor its files change, and no ref moves.
func (r *Repo) commitWork(ctx context.Context, dir, head, msg string) (string, error) {
	out, err := r.git.run(ctx, dir, nil, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		return "", failed(err)
	}
	tmp, err := os.MkdirTemp("", "tuios-keep-*")
	if err != nil {
		return "", failed(err)
	}
	defer os.RemoveAll(tmp)
	index := filepath.Join(tmp, "index")
	if err := copyIndex(strings.TrimSpace(string(out)), index); err != nil {
		return "", failed(err)
	}
	env := []string{"GIT_INDEX_FILE=" + index}
	if _, err := r.git.runEnv(ctx, dir, env, nil, "add", "-A", "--", "."); err != nil {
		return "", failed(err)
	}
	tree, err := r.git.runEnv(ctx, dir, env, nil, "write-tree")
	if err != nil {
		return "", failed(err)
	}
	c, err := r.git.run(ctx, dir, []byte(msg), "commit-tree", strings.TrimSpace(string(tree)), "-p", head, "-F", "-")
	if err != nil {
		return "", failed(err)
	}
	return strings.TrimSpace(string(c)), nil
}

// moveBranch points branch at to (only if it is at from), and its
// checkout's index with it; the files stay as they are.
func (r *Repo) moveBranch(ctx context.Context, branch, to, from, dir string) error {
	if _, err := r.git.run(ctx, r.Root, nil, "update-ref", "-m", "tuios fan keep", "refs/heads/"+branch, to, from); err != nil {
		return failed(err)
	}
	if _, err := r.git.run(ctx, dir, nil, "reset", "--quiet", "--mixed"); err != nil {
		return failed(err)
	}
	return nil
}

// mergeIn merges tip in the checkout that has Into: its files follow.
func (r *Repo) mergeIn(ctx context.Context, dir, tip string, o KeepOptions, msg string) error {
	var err error
	switch o.Mode {
	case MergeFFOnly:
		_, err = r.git.run(ctx, dir, nil, "merge", "--ff-only", "--quiet", tip)
	case MergeSquash:
		if _, err = r.git.run(ctx, dir, nil, "merge", "--squash", "--quiet", tip); err == nil {
			_, err = r.git.run(ctx, dir, []byte(msg), "commit", "--quiet", "-F", "-")
		}
	default:
		_, err = r.git.run(ctx, dir, nil, "merge", "--no-ff", "--no-edit", "--quiet", "-m", msg, tip)
	}
	if err == nil {
		return nil
	}
	// Back to where it was: a merge in progress is aborted, a squash's
	// staged changes are taken out again.
	bg := context.WithoutCancel(ctx)
	if _, aerr := r.git.run(bg, dir, nil, "rev-parse", "--verify", "--quiet", "MERGE_HEAD"); aerr == nil {
		r.git.run(bg, dir, nil, "merge", "--abort")
	} else {
		r.git.run(bg, dir, nil, "reset", "--merge", "--quiet")
	}
	e := failed(err)
	e.Hint = "nothing was merged; " + e.Hint
	return e
}

// mergeRefs makes the merge without a checkout, when none has Into:
// the commit is built from the tree merge-tree wrote, and Into moves only
// if it is still where it was.
func (r *Repo) mergeRefs(ctx context.Context, o KeepOptions, before, tip, tree, msg string) error {
	to := tip
	if o.Mode != MergeFFOnly {
		args := []string{"commit-tree", tree, "-p", before}
		if o.Mode == MergeNoFF {
			args = append(args, "-p", tip)
		}
		out, err := r.git.run(ctx, r.Root, []byte(msg), append(args, "-F", "-")...)
		if err != nil {
			return failed(err)
		}
		to = strings.TrimSpace(string(out))
	}
	if _, err := r.git.run(ctx, r.Root, nil, "update-ref", "-m", "tuios fan keep: "+o.Branch, "refs/heads/"+o.Into, to, before); err != nil {
		return failed(err)
	}
	return nil
}

func (r *Repo) isAncestor(ctx context.Context, a, b string) bool {
	_, err := r.git.run(ctx, r.Root, nil, "merge-base", "--is-ancestor", a, b)
	return err == nil
}

// mergeDir is where a person would merge by hand.
func (r *Repo) mergeDir(k Kept) string {
	if k.Checkout != "" {
		return k.Checkout
	}
	return r.Root
}

// conflictFiles reads merge-tree --name-only's output: the tree, then one
// conflicted path per line until a blank line.
func conflictFiles(out []byte) []string {
	lines := strings.Split(string(out), "\n")
	var files []string
	for _, l := range lines[1:] {
		if l == "" {
			break
		}
		if len(files) == 0 || files[len(files)-1] != l {
			files = append(files, l)
		}
	}
	return files
}

func clipList(l []string, n int) []string {
	if len(l) <= n {
		return l
	}
	return append(append([]string(nil), l[:n]...), "and "+plural(len(l)-n, "more file"))
}
