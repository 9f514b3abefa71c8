package attention

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/tuios/tuios/internal/atomicfile"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/review"
)

// follow finds the pane's notes again in the files as they are now (and
// their hunks in d, when given), saves what moved, and returns them.
func (r *Review) follow(ctx context.Context, t *reviewTarget, d *review.Diff) []review.Note {
	notes := r.notesOf(t.window)
	if len(notes) == 0 {
		return notes
	}
	hunks := map[string][]review.Hunk{}
	if d != nil {
		for _, f := range d.Files {
			hunks[f.Path] = f.Hunks
		}
	}
	newSide, oldSide := map[string][]string{}, map[string][]string{}
	read := func(n review.Note) ([]string, bool) {
		cache, side := newSide, n.Side
		if side == review.SideOld {
			cache = oldSide
		}
		if l, ok := cache[n.Path]; ok {
			return l, l != nil
		}
		var text string
		var ok bool
		if side == review.SideOld {
			s, _, err := review.FileAtBase(ctx, review.DiffOptions{Dir: t.repo.Worktree, RecordedBase: r.recordedBase(t)}, n.Path)
			text, ok = s, err == nil
		} else {
			text, ok = readNoteFile(filepath.Join(t.repo.Worktree, filepath.FromSlash(n.Path)))
		}
		var l []string
		if ok {
			l = review.SplitLines(text)
			if l == nil {
				l = []string{}
			}
		}
		cache[n.Path] = l
		return l, ok
	}
	for i := range notes {
		n := &notes[i]
		if n.HunkHeader != "" {
			if d != nil {
				n.FollowHunk(hunks[n.Path])
			}
			continue
		}
		lines, ok := read(*n)
		if !ok {
			n.Outdated = true // the file is gone: so is the line
			continue
		}
		n.Follow(lines)
	}
	r.mu.Lock()
	changed := false
	for _, n := range notes {
		if cur := r.book.Find(n.ID); cur != nil && (cur.Line != n.Line || cur.Outdated != n.Outdated || cur.HunkHeader != n.HunkHeader) {
			cur.Line, cur.Outdated, cur.HunkHeader = n.Line, n.Outdated, n.HunkHeader
			changed = true
		}
	}
	if changed {
		r.saveLocked()
	}
	r.mu.Unlock()
	review.SortNotes(notes)
	return notes
}

func readNoteFile(path string) (string, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxNoteFile {
		return "", false
	}
	b, err := os.ReadFile(path)
	return string(b), err == nil
}

// notesOf copies the notes on a pane.
func (r *Review) notesOf(window string) []review.Note {
	live := r.live()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.loadLocked(live)
	return r.book.List(func(n review.Note) bool { return n.Window == window })
}

// live is the session of every window, by id: the notes whose pane is
// not there any more are dropped. Read before r.mu is taken.
func (r *Review) live() map[string]string {
	m := map[string]string{}
	for _, ss := range r.h.View(nil).Sessions {
		for _, w := range ss.Windows {
			m[w.ID] = ss.Name
		}
	}
	return m
}

// Edit runs fn on the notebook as a verb would: the notes file read
// first, the notes of panes gone dropped, the notebook saved after.
func (r *Review) Edit(fn func(*review.Notebook)) {
	live := r.live()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.loadLocked(live)
	fn(&r.book)
	r.saveLocked()
}

// loadLocked reads the notes file once, and drops the notes of panes
// and worktrees that are gone (every call: see the file comment). live
// is the session of each window (live).
func (r *Review) loadLocked(live map[string]string) {
	if !r.loaded {
		r.loaded = true
		if r.path != "" {
			b, why := atomicfile.ReadPrivate(r.path, r.h.Options().UID, maxNotesFile)
			if why == "" && b != nil {
				if err := json.Unmarshal(b, &r.book); err != nil {
					why = err.Error()
				}
			}
			if why != "" {
				r.book = review.Notebook{}
				setAside(r.h, "review", r.path, why, "started with no review notes")
			}
		}
	}
	gone := r.book.Remove(func(n review.Note) bool {
		session, ok := live[n.Window]
		return !ok || session != n.Session
	})
	gone += r.book.Remove(func(n review.Note) bool {
		_, err := os.Stat(n.Worktree)
		return errors.Is(err, os.ErrNotExist)
	})
	if gone > 0 {
		r.saveLocked()
	}
}

// setAside moves a state file that was refused out of the way, so it is
// kept for a person to look at and never overwritten silently.
func setAside(h core.Host, what, path, why, then string) {
	aside, err := atomicfile.SetAside(path, h.Clock().Now())
	if err != nil {
		h.Log().Errorf("%s: refused %s (%s) and could not move it aside: %v; %s", what, path, why, err, then)
		return
	}
	h.Log().Warnf("%s: refused %s (%s); moved it to %s and %s", what, path, why, aside, then)
}

// saveLocked writes the notes file now; a failure is logged, the notes
// stay in memory.
func (r *Review) saveLocked() {
	if r.path == "" {
		return
	}
	b, err := json.Marshal(&r.book)
	if err == nil {
		err = atomicfile.WriteFile(r.path, b, atomicfile.Options{Perm: 0o600, MkdirPerm: 0o700})
	}
	if err != nil {
		r.h.Log().Errorf("review: saving %s: %v", r.path, err)
	}
}

// author decides who writes a note or sends: human (a live nonce from
// outside every pane), the caller's window id, or shell. The queue's
// rule, so a note and the message it goes out in agree on who it is.
func (r *Review) author(c core.Call, nonce string) (string, *proto.Error) {
	if r.q != nil {
		return r.q.origin(c, nonce)
	}
	return byShell, nil
}

// mayChange says whether who may change a note: the person any, a pane
// or link only its own, a shell all but the person's.
func mayChange(who string, n review.Note) bool {
	switch who {
	case byHuman:
		return true
	case byShell:
		return n.By != byHuman
	}
	return n.By == who
}

func (r *Review) note(c core.Call, p *proto.ReviewNoteParams) (any, *proto.Error) {
	action := p.Action
	if action == "" {
		action = "list"
	}
	t, err := r.target(c, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	res := &proto.ReviewNotes{Type: "review_notes", Session: t.session, Window: t.window, Worktree: t.repo.Worktree}
	switch action {
	case "list":
		res.Notes = r.follow(c.Context(), t, nil)
		return res, nil
	}
	who, err := r.author(c, p.HumanNonce)
	if err != nil {
		return nil, err
	}
	// GRANTS: add and edit need the write grant on the pane (a pane may
	// note only panes it could type into); checked here once grants exist.
	now := r.h.Clock().Now().UnixNano()
	switch action {
	case "add":
		n, perr := r.newNote(c.Context(), t, p)
		if perr != nil {
			return nil, perr
		}
		n.By, n.At = who, now
		live := r.live()
		r.mu.Lock()
		r.loadLocked(live)
		added, aerr := r.book.Add(n)
		if aerr == nil {
			r.saveLocked()
		}
		r.mu.Unlock()
		if aerr != nil {
			return nil, ReviewError(aerr)
		}
		res.ID = added.ID
	case "edit", "remove":
		if p.ID == "" {
			return nil, proto.Errorf(proto.CodeInvalidParams, "%s needs the note's id", action).WithHint(proto.Hint{Param: "id", Command: "tuios review notes"})
		}
		live := r.live()
		r.mu.Lock()
		r.loadLocked(live)
		cur := r.book.Find(p.ID)
		var perr *proto.Error
		switch {
		case cur == nil || cur.Window != t.window:
			perr = proto.Errorf(proto.CodeInvalidParams, "no note %q on %s", p.ID, t.name).WithHint(proto.Hint{Param: "id", Command: "tuios review notes"})
		case !mayChange(who, *cur):
			perr = proto.Errorf(proto.CodeForbidden, "note %s was written by %s; you (%s) may not change it", p.ID, cur.By, who).
				WithHint(proto.Hint{Detail: "the person may change any note; a pane only its own; a shell all but the person's"})
		case action == "edit":
			if _, e := r.book.Edit(p.ID, p.Text, who, now); e != nil {
				perr = ReviewError(e)
			}
		default:
			r.book.Remove(func(n review.Note) bool { return n.ID == p.ID })
			one := 1
			res.Removed = &one
		}
		if perr == nil {
			r.saveLocked()
		}
		r.mu.Unlock()
		if perr != nil {
			return nil, perr
		}
		res.ID = p.ID
	case "clear":
		live := r.live()
		r.mu.Lock()
		r.loadLocked(live)
		kept := 0
		removed := r.book.Remove(func(n review.Note) bool {
			if n.Window != t.window {
				return false
			}
			if !mayChange(who, n) {
				kept++
				return false
			}
			return true
		})
		r.saveLocked()
		r.mu.Unlock()
		res.Removed, res.Kept = &removed, &kept
	}
	res.Notes = r.notesOf(t.window)
	return res, nil
}

// newNote checks an add and reads what the note keeps: the line's text,
// or the hunk's header.
func (r *Review) newNote(ctx context.Context, t *reviewTarget, p *proto.ReviewNoteParams) (review.Note, *proto.Error) {
	if p.Path == "" {
		return review.Note{}, proto.Errorf(proto.CodeInvalidParams, "name the file (path) the note is on").WithHint(proto.Hint{Param: "path"})
	}
	rel, rerr := review.RelPath(t.repo.Worktree, p.Path)
	if rerr != nil || rel == "." {
		if rerr == nil {
			rerr = &review.DiffError{Code: proto.CodeInvalidParams, Message: "name a file, not the repository", Param: "path"}
		}
		return review.Note{}, ReviewError(rerr)
	}
	side := p.Side
	if side == "" {
		side = review.SideNew
	}
	n := review.Note{Session: t.session, Window: t.window, Worktree: t.repo.Worktree, Path: rel, Side: side, Text: p.Text}
	if strings.TrimSpace(p.Text) == "" || len(p.Text) > review.MaxNoteBytes {
		_, e := (&review.Notebook{}).Add(n) // the same refusal the notebook gives
		return review.Note{}, ReviewError(e)
	}
	if p.Hunk != "" {
		d, err := review.ComputeDiff(ctx, review.DiffOptions{Dir: t.repo.Worktree, RecordedBase: r.recordedBase(t), Paths: []string{rel}, Context: review.DefaultContext})
		if err != nil {
			return review.Note{}, ReviewError(err)
		}
		for _, f := range d.Files {
			for _, h := range f.Hunks {
				if h.Header == p.Hunk || strings.TrimSpace(h.Header) == strings.TrimSpace(p.Hunk) {
					n.HunkHeader, n.Line = h.Header, h.NewStart
					if side == review.SideOld {
						n.Line = h.OldStart
					}
					return n, nil
				}
			}
		}
		return review.Note{}, proto.Errorf(proto.CodeInvalidParams, "%s has no hunk %q in the diff", rel, p.Hunk).
			WithHint(proto.Hint{Param: "hunk", Command: "tuios review --path " + rel})
	}
	if p.Line < 1 {
		return review.Note{}, proto.Errorf(proto.CodeInvalidParams, "name the line (FILE:LINE, from 1) or the hunk").WithHint(proto.Hint{Param: "line"})
	}
	var text string
	if side == review.SideOld {
		s, _, err := review.FileAtBase(ctx, review.DiffOptions{Dir: t.repo.Worktree, RecordedBase: r.recordedBase(t)}, rel)
		if err != nil {
			return review.Note{}, ReviewError(err)
		}
		text = s
	} else {
		s, ok := readNoteFile(filepath.Join(t.repo.Worktree, filepath.FromSlash(rel)))
		if !ok {
			return review.Note{}, proto.Errorf(proto.CodeInvalidParams, "%s is not a file in %s", rel, t.repo.Worktree).
				WithHint(proto.Hint{Param: "path", Detail: "a note on a deleted file's line goes on side old"})
		}
		text = s
	}
	lines := review.SplitLines(text)
	if p.Line > len(lines) {
		return review.Note{}, proto.Errorf(proto.CodeInvalidParams, "%s has %d lines; line %d is out of range", rel, len(lines), p.Line).
			WithHint(proto.Hint{Param: "line"})
	}
	n.Line, n.Quote = p.Line, lines[p.Line-1]
	if p.Quote != "" {
		n.Quote = p.Quote
	}
	return n, nil
}
