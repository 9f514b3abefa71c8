package worktree

import (
	"errors"
	"fmt"
)

// Wire codes of the errors this package returns.
const (
	CodeNotRepo       = "not_repo"
	CodeRepoNotFound  = "repo_not_found"
	CodeDirty         = "worktree_dirty"
	CodeNotWorktree   = "not_worktree"
	CodeGitFailed     = "git_failed"
	CodeInvalidParams = "invalid_params"
)

// Error is a refusal or a failure with a stable code, a one-line message,
// a hint that says what to do next and, for invalid_params, the option at
// fault.
type Error struct {
	Code    string
	Message string
	Hint    string
	Param   string
	// Files are the paths a refusal is about (the conflicts of a keep).
	Files []string
}

func (e *Error) Error() string { return e.Message }

func errf(code, hint, param, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint, Param: param}
}

// CodeOf is the wire code of err: an *Error's own, else git_failed.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeGitFailed
}
