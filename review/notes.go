package review

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Limits of review notes, per worktree: they are kept in a file and shown
// whole.
const (
	MaxNotes     = 200  // per worktree
	MaxNoteBytes = 1000 // per note text
	// FollowWindow is how far from its last line a note looks first for
	// its text.
	FollowWindow = 50
	codeNoNotes  = "no_notes"
)

// Sides of a note (wire names).
const (
	SideNew = "new"
	SideOld = "old"
)

// Note is one review note. A line note keeps its line's text (Quote) and
// is found again by it on every diff; a hunk note keeps its hunk's header.
type Note struct {
	ID         string `json:"id"`
	Session    string `json:"session"`
	Window     string `json:"window"`
	Worktree   string `json:"worktree"`
	Path       string `json:"path"`
	Side       string `json:"side"`
	Line       int    `json:"line"`
	Quote      string `json:"quote,omitempty"`
	HunkHeader string `json:"hunk_header,omitempty"`
	Text       string `json:"text"`
	// By is who wrote it: human, a pane's window id, shell or link:HOST.
	By       string `json:"by"`
	At       int64  `json:"at"`
	SentAt   int64  `json:"sent_at,omitempty"`
	Outdated bool   `json:"outdated"`
}

// Notebook holds the notes of every worktree: the daemon keeps one and
// saves it as JSON. It is plain data with no lock; its owner serialises
// access.
type Notebook struct {
	Next  uint64 `json:"next"` // the last id number issued: ids are n1, n2, …
	Notes []Note `json:"notes"`
}

// Add checks a note against the limits and files it, giving it an id.
func (b *Notebook) Add(n Note) (Note, error) {
	if err := checkText(n.Text); err != nil {
		return Note{}, err
	}
	count := 0
	for _, o := range b.Notes {
		if o.Worktree == n.Worktree {
			count++
		}
	}
	if count >= MaxNotes {
		return Note{}, errf(codeInvalidParam, "resolve or send some notes first (tuios review notes --clear)", "text",
			"this worktree already has %d notes, the most it holds", count)
	}
	if n.Side == "" {
		n.Side = SideNew
	}
	b.Next++
	n.ID = "n" + strconv.FormatUint(b.Next, 10)
	b.Notes = append(b.Notes, n)
	return n, nil
}

func checkText(t string) error {
	switch {
	case strings.TrimSpace(t) == "":
		return errf(codeInvalidParam, "say what should change", "text", "the note is blank")
	case len(t) > MaxNoteBytes:
		return errf(codeInvalidParam, "keep a note to 1000 bytes; send longer text as mail", "text", "the note is %d bytes, over %d", len(t), MaxNoteBytes)
	}
	return nil
}

// Find returns the note with an id, or nil.
func (b *Notebook) Find(id string) *Note {
	for i := range b.Notes {
		if b.Notes[i].ID == id {
			return &b.Notes[i]
		}
	}
	return nil
}

// Edit replaces a note's text; the note becomes the editor's and unsent.
func (b *Notebook) Edit(id, text, by string, at int64) (Note, error) {
	n := b.Find(id)
	if n == nil {
		return Note{}, errf(codeInvalidParam, "list the notes with tuios review notes", "id", "no note %q", id)
	}
	if err := checkText(text); err != nil {
		return Note{}, err
	}
	n.Text, n.By, n.At, n.SentAt = text, by, at, 0
	return *n, nil
}

// Remove drops the notes keep says no to and returns how many went.
func (b *Notebook) Remove(drop func(Note) bool) int {
	kept := b.Notes[:0]
	for _, n := range b.Notes {
		if !drop(n) {
			kept = append(kept, n)
		}
	}
	gone := len(b.Notes) - len(kept)
	clear(b.Notes[len(kept):])
	b.Notes = kept
	return gone
}

// List returns the notes match accepts, by path then line then id.
func (b *Notebook) List(match func(Note) bool) []Note {
	out := []Note{}
	for _, n := range b.Notes {
		if match(n) {
			out = append(out, n)
		}
	}
	SortNotes(out)
	return out
}

// SortNotes orders notes by path, then line, then id (by number).
func SortNotes(ns []Note) {
	sort.SliceStable(ns, func(i, j int) bool {
		a, b := ns[i], ns[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		ai, _ := strconv.Atoi(strings.TrimPrefix(a.ID, "n"))
		bi, _ := strconv.Atoi(strings.TrimPrefix(b.ID, "n"))
		return ai < bi
	})
}

// normalize is the text a note compares: indentation, trailing space and
// runs of inner whitespace do not count, so reindented code keeps its
// notes.
func normalize(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// Follow finds a line note's line again in lines (the file as it is now,
// on the note's side; index 0 is line 1). The nearest line with the same
// text within FollowWindow lines of where the note was wins, else the
// nearest anywhere in the file; a note whose text is gone is outdated,
// and found again (not outdated) once the text returns. A blank quote
// cannot be followed: it stays where it is while that line exists.
func (n *Note) Follow(lines []string) {
	if n.HunkHeader != "" {
		return
	}
	want := normalize(n.Quote)
	if want == "" {
		n.Outdated = n.Line < 1 || n.Line > len(lines)
		return
	}
	best, bestD := 0, -1
	for i, l := range lines {
		if normalize(l) != want {
			continue
		}
		d := i + 1 - n.Line
		if d < 0 {
			d = -d
		}
		// Ties go to the line below: code is more often inserted above.
		if bestD < 0 || d <= bestD {
			best, bestD = i+1, d
		}
	}
	// A match within FollowWindow is always nearer than one past it, so
	// "the same text within 50 lines, else the nearest match" is the
	// nearest match.
	if bestD < 0 {
		n.Outdated = true
		return
	}
	n.Line, n.Outdated = best, false
}

// FollowHunk finds a hunk note's hunk again in its file's hunks: the same
// header first, else the hunk holding its line (on its side); none is
// outdated.
func (n *Note) FollowHunk(hunks []Hunk) {
	if n.HunkHeader == "" {
		return
	}
	for _, h := range hunks {
		if h.Header == n.HunkHeader {
			n.Line, n.Outdated = hunkStart(h, n.Side), false
			return
		}
	}
	for _, h := range hunks {
		start, count := h.NewStart, h.NewLines
		if n.Side == SideOld {
			start, count = h.OldStart, h.OldLines
		}
		if n.Line >= start && n.Line < start+max(count, 1) {
			n.HunkHeader, n.Line, n.Outdated = h.Header, start, false
			return
		}
	}
	n.Outdated = true
}

func hunkStart(h Hunk, side string) int {
	if side == SideOld {
		return h.OldStart
	}
	return h.NewStart
}

// SplitLines splits a file's text into lines the way a diff numbers them.
func SplitLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}
