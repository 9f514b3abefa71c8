package worktree

import (
	"errors"
	"os"
)

// copyIndex copies a git index to a private path so git can stage into it
// without touching the real one. The copy keeps the index's modification
// time: git tells a file edited in the same instant its index was written
// ("racily clean") only by comparing the entry's time with the index
// file's, and a copy stamped now would let `git add` skip an edit of the
// same size. A missing index (a repository with nothing staged yet) is
// not an error: git starts from an empty one.
func copyIndex(from, to string) error {
	b, err := os.ReadFile(from)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		return err
	}
	fi, err := os.Stat(from)
	if err != nil {
		return err
	}
	return os.Chtimes(to, fi.ModTime(), fi.ModTime())
}
