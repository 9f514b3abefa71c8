package core

// Worktree is a git worktree tuios made and the session it made in it,
// as a feature reads it.
type Worktree struct {
	Session   string // the session's name
	SessionID string
	// Repo is the main checkout's folder, Worktree the worktree's.
	Repo     string
	Worktree string
	// Base is the base as recorded when it was made: the branch the main
	// checkout had, else the ref given, else the commit.
	Base string
	// Group is the fan it is an attempt of (fan/add-retry); "" for
	// worktree new.
	Group string
}
