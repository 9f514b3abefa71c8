// Package gitindex copies a git index file so git can stage into the copy
// (GIT_INDEX_FILE) without touching the real one: review reads a
// worktree's untracked files that way, and worktree bundles and commits
// what an agent left uncommitted.
//
// It owns the copy and the one rule that makes it safe: the copy keeps
// the index's modification time. It does not run git.
package gitindex
