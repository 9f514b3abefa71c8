package worktree

import (
	"context"
	"strings"
)

// Entry is one checkout git knows of.
type Entry struct {
	Path     string `json:"path"`
	Head     string `json:"head,omitempty"`
	Branch   string `json:"branch,omitempty"` // without refs/heads/
	Detached bool   `json:"detached,omitempty"`
	Bare     bool   `json:"bare,omitempty"`
	Locked   bool   `json:"locked,omitempty"`
	// Prunable: git says its folder is gone.
	Prunable bool `json:"prunable,omitempty"`
}

// List is git worktree list: the main checkout first.
func (r *Repo) List(ctx context.Context) ([]Entry, error) {
	out, err := r.git.run(ctx, r.Dir, nil, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return nil, failed(err)
	}
	return ParseList(out), nil
}

// ParseList reads git worktree list --porcelain -z: NUL-ended "key value"
// fields, an empty field closing each entry, each entry opened by its
// "worktree" field. Fields before the first entry are skipped.
func ParseList(out []byte) []Entry {
	var list []Entry
	open := false
	for _, field := range strings.Split(string(out), "\x00") {
		if field == "" {
			open = false
			continue
		}
		key, val, _ := strings.Cut(field, " ")
		if key == "worktree" {
			if val == "" {
				open = false
				continue
			}
			list = append(list, Entry{Path: val})
			open = true
			continue
		}
		if !open {
			continue
		}
		e := &list[len(list)-1]
		switch key {
		case "HEAD":
			e.Head = val
		case "branch":
			e.Branch = strings.TrimPrefix(val, "refs/heads/")
		case "detached":
			e.Detached = true
		case "bare":
			e.Bare = true
		case "locked":
			e.Locked = true
		case "prunable":
			e.Prunable = true
		}
	}
	return list
}

// Find is the entry of the checkout at path ("" when git lists none).
func Find(list []Entry, path string) (Entry, bool) {
	for _, e := range list {
		if e.Path == path {
			return e, true
		}
	}
	return Entry{}, false
}

// CheckedOut is the checkout that has branch checked out.
func CheckedOut(list []Entry, branch string) (Entry, bool) {
	for _, e := range list {
		if e.Branch == branch && !e.Bare {
			return e, true
		}
	}
	return Entry{}, false
}
