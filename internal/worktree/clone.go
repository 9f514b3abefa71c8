package worktree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Clone makes dir a clone of url, for work on another machine (start-agent,
// fan and worktree new with --clone): the repository the caller has here
// is cloned there from the remote both can reach. Only the file, git,
// http(s) and ssh transports are allowed, so a URL cannot name a command
// to run (ext::). dir must not exist; its parent folders are made.
func Clone(ctx context.Context, g Git, url, dir string) error {
	switch {
	case url == "" || len(url) > 4096 || strings.HasPrefix(url, "-") || strings.ContainsAny(url, "\x00\n"):
		return errf(CodeInvalidParams, "give the URL of the remote to clone from", "clone_from", "%q is not a repository URL", clip(url, 100))
	case !filepath.IsAbs(dir):
		return errf(CodeInvalidParams, "give the folder from /", "repo", "the folder %q is not absolute", clip(dir, 200))
	}
	if _, err := os.Lstat(dir); err == nil {
		return errf(CodeInvalidParams, "clone into a folder that does not exist yet, or leave --clone out", "repo", "%s already exists", clip(dir, 300))
	} else if !errors.Is(err, os.ErrNotExist) {
		return errf(CodeRepoNotFound, "name a folder this user can write", "repo", "%s cannot be read: %v", clip(dir, 300), err)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return errf(CodeRepoNotFound, "name a folder this user can write", "repo", "cannot make %s: %v", clip(filepath.Dir(dir), 300), err)
	}
	if _, err := g.runEnv(ctx, filepath.Dir(dir), []string{"GIT_ALLOW_PROTOCOL=file:git:http:https:ssh"}, nil, "clone", "--quiet", "--", url, dir); err != nil {
		os.RemoveAll(dir) // a clone that failed half way is not left
		return failed(err)
	}
	return nil
}
