// Package worktree owns the git side of tuios's worktrees and fans: one
// checkout per agent, on its own branch, beside the person's own. It runs
// the real git binary and nothing else: no library reimplements git here.
//
// What it does:
//
//   - Open finds the repository holding a folder: the main checkout's top
//     (where a fan's worktrees are named from), the checkout named, and its
//     HEAD. A folder that does not exist is repo_not_found; one outside any
//     repository (or a bare one) is not_repo.
//   - Add makes a linked worktree at a path, on a new branch from a base
//     commit or on a branch that exists. Remove takes one away (refusing one
//     with changes unless told to stash or force them), and never deletes a
//     branch nor prunes another worktree's record.
//   - Status reads a checkout's changes (tracked and untracked) without
//     taking the index lock.
//   - Keep brings an attempt's work into a branch: its uncommitted work
//     committed on its own branch first, then a merge (--no-ff), a squash
//     or a fast-forward. Conflicts are found before anything changes (git
//     merge-tree), so a refused keep leaves the repository as it was.
//   - Bundle and Pull carry a worktree's work to another machine's
//     repository: a git bundle of its commits since the base plus a binary
//     patch of what is not committed, applied as a new branch there.
//   - The names: Stem (fan/ and the first words of a prompt), SessionName
//     (<repo>-<branch>, / turned into -), Dir (<data>/worktrees/<repo>/
//     <branch>), and SplitCommand, which reads an agent string the way a
//     POSIX shell splits words, without expanding anything.
//
// What it does not do: it keeps no records (the daemon keeps which
// worktree is whose), starts no processes but git, and holds no locks of
// its own. Every git call runs under the caller's context, with the
// repository's environment variables (GIT_DIR and the like) removed and
// prompts turned off, so a call never waits on a terminal.
//
// Errors are *Error values with a stable wire code (not_repo,
// repo_not_found, worktree_dirty, not_worktree, git_failed,
// invalid_params), a one-line message and a hint saying what to do next.
// Text git prints names paths and refs of the repository: callers treat
// it as data.
package worktree
