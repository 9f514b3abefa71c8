package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/review"
)

// Review of diffs with notes (docs/inbox.md, Review what an agent changed):
// review-diff computes a pane's diff with package review (git through a
// temporary index), review-note keeps notes anchored to lines, send-review
// hands them to the reply queue as one message.
//
// Notes live in review/notes.json under the state dir (0600, written
// atomically after every change). The file is read on the first review
// call, not at start: by then the daemon's sessions came back, so only the
// notes of panes that came back are kept. A note whose pane is gone, or
// whose worktree directory is gone (worktree rm), is dropped on the next
// review call and so never shown nor saved again; a daemon stopping does
// not drop any, because nothing is pruned while it stops.
//
// Locking: r.mu guards the notebook and is taken without s.mu held; s.mu
// is taken under r.mu only for short table reads. No git runs under r.mu.

const (
	codeNotRepo   = "not_repo"
	codeNoNotes   = "no_notes"
	codeGitFailed = "git_failed"
	// maxNotesFile bounds the notes file read at start: 200 notes of
	// 1000 bytes per worktree, many worktrees.
	maxNotesFile = 32 << 20
	// maxNoteFile is the largest file a note's line is read from.
	maxNoteFile = 16 << 20
)

type reviewDiffParams struct {
	Session     string   `json:"session" desc:"the session"`
	Window      string   `json:"window" desc:"the pane whose repository to diff (default: your own pane, else the focused one)"`
	Base        string   `json:"base" desc:"diff against this branch, tag or commit (through its merge base with HEAD)" maxlen:"256"`
	Uncommitted bool     `json:"uncommitted" desc:"only what is not committed: diff against HEAD"`
	Against     string   `json:"against" desc:"another attempt of the same fan (its session): the diff goes from that attempt's work to this one's" maxlen:"4096"`
	Paths       []string `json:"paths" desc:"only these files or directories, relative to the repository's top" maxlen:"256"`
	Context     *int     `json:"context" desc:"lines of context around each change" min:"0" max:"20" default:"3"`
	Stat        bool     `json:"stat" desc:"counts only: files and lines, no hunks"`
}

type reviewNoteParams struct {
	Action     string `json:"action" desc:"what to do" accepted:"add,edit,remove,list,clear" default:"list"`
	Session    string `json:"session" desc:"the session"`
	Window     string `json:"window" desc:"the pane whose changes the notes are on (default: your own pane, else the focused one)"`
	Path       string `json:"path" desc:"add: the file, relative to the repository's top" maxlen:"4096"`
	Line       int    `json:"line" desc:"add: the line, on the new side (or the base's numbering with side old)" min:"0" max:"100000000"`
	Side       string `json:"side" desc:"add: the side the line is on" accepted:"new,old" default:"new"`
	Quote      string `json:"quote" desc:"add: the line's text the note follows (default: read from the file)" maxlen:"4096"`
	Hunk       string `json:"hunk" desc:"add: a hunk header (@@ -a,b +c,d @@ …) to note a whole hunk instead of a line" maxlen:"4096"`
	Text       string `json:"text" desc:"add, edit: the note (at most 1000 bytes)" maxlen:"4096"`
	ID         string `json:"id" desc:"edit, remove: the note (n1, n2, …)" maxlen:"32"`
	HumanNonce string `json:"human_nonce" desc:"the nonce attach gave this client: the note is the person's" maxlen:"256"`
}

type sendReviewParams struct {
	Session    string   `json:"session" desc:"the session"`
	Window     string   `json:"window" desc:"the pane whose agent gets the notes (default: your own pane, else the focused one)"`
	IDs        []string `json:"ids" desc:"only these notes (default: every unsent one)" maxlen:"200"`
	Now        bool     `json:"now" desc:"only if the agent is at rest with nothing queued, else not_ready (or agent_blocked on a prompt)"`
	HumanNonce string   `json:"human_nonce" desc:"the nonce attach gave this client: sent as the person" maxlen:"256"`
}

// reviewer keeps the notes.
type reviewer struct {
	s    *Server
	path string // "" keeps nothing

	mu     sync.Mutex
	loaded bool
	book   review.Notebook
}

func newReviewer(s *Server) *reviewer {
	r := &reviewer{s: s}
	if s.opt.StateDir != "" {
		r.path = filepath.Join(s.opt.StateDir, "review", "notes.json")
	}
	return r
}

func (s *Server) reviewVerbs(add addFunc) {
	r := s.review
	p, h := handler(r.diff)
	add("review-diff", reads, "Diff a pane's repository against its base: committed, uncommitted and untracked work together, through a temporary index (the repository is never changed); notes are found again on their lines", "review_diff",
		`{"verb":"review-diff","params":{"window":"api","base":"main"}}`, p, h)
	p, h = handler(r.note)
	add("review-note", writes, "Add, edit, remove, list or clear review notes on a pane's changes; a line note follows its line's text as the code moves", "review_notes",
		`{"verb":"review-note","params":{"action":"add","window":"api","path":"api/retry.go","line":42,"text":"log the attempt number here too"}}`, p, h)
	p, h = handler(r.send)
	add("send-review", writes, "Send a pane's unsent review notes to its agent as one message, through the reply queue", "review_sent",
		`{"verb":"send-review","params":{"window":"api"}}`, p, h)
}

// reviewErr turns a package review error into a protocol error.
func reviewErr(err error) *proto.Error {
	var de *review.DiffError
	if errors.As(err, &de) {
		e := proto.Errorf(de.Code, "%s", de.Message)
		if de.Hint != "" || de.Param != "" {
			e = e.WithHint(proto.Hint{Param: de.Param, Detail: de.Hint})
		}
		return e
	}
	return proto.Errorf(codeGitFailed, "%v", err).WithHint(proto.Hint{Detail: "check that git works in the pane's repository"})
}

// paneDir is where the pane's shell is: its OSC 7 directory, else its
// process's cwd, else the directory it started in.
func paneDir(w *Window) string {
	if d := w.dirNow(); d != "" {
		return d
	}
	if w.proc != nil {
		if d, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", w.proc.Pid())); err == nil {
			return d
		}
	}
	return w.cwd
}

// reviewTarget is a resolved pane and where its repository is.
type reviewTarget struct {
	session, window, name, dir string
	repo                       *review.Repo
}

func (r *reviewer) target(cn *conn, session, window string) (*reviewTarget, *proto.Error) {
	s := r.s
	s.mu.Lock()
	ss, w, err := s.target(cn, session, window)
	var t reviewTarget
	if err == nil {
		t = reviewTarget{session: ss.Name, window: w.ID, name: w.DisplayName()}
	}
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	// HOSTED PANES: a pane whose process runs on another machine is
	// not_repo (hint: tuios worktree pull) once such panes exist.
	t.dir = paneDir(w)
	if t.dir == "" {
		return nil, proto.Errorf(codeNotRepo, "%s has no known working directory", t.name).WithHint(proto.Hint{Detail: "cd into a git repository in the pane"})
	}
	ctx, cancel := context.WithTimeout(cn.ctx, review.MaxDiffTime)
	defer cancel()
	repo, rerr := review.FindRepo(ctx, "", t.dir, nil)
	if rerr != nil {
		return nil, reviewErr(rerr)
	}
	t.repo = repo
	return &t, nil
}

func (r *reviewer) diff(cn *conn, p *reviewDiffParams) (any, *proto.Error) {
	if p.Uncommitted && p.Base != "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "uncommitted diffs against HEAD: give it or a base, not both").WithHint(proto.Hint{Param: "base"})
	}
	if p.Against != "" && (p.Base != "" || p.Uncommitted) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "against diffs two attempts of a fan: give it without base or uncommitted").WithHint(proto.Hint{Param: "against"})
	}
	t, err := r.target(cn, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	ctxLines := review.DefaultContext
	if p.Context != nil {
		ctxLines = *p.Context
	}
	o := review.DiffOptions{Dir: t.dir, Base: p.Base, Uncommitted: p.Uncommitted, Paths: p.Paths, Context: ctxLines, Stat: p.Stat,
		RecordedBase: r.s.recordedBase(t)}
	against := ""
	if p.Against != "" {
		other, aerr := r.s.againstAttempt(cn, t, p.Against) // verbs_fan_review.go
		if aerr != nil {
			return nil, aerr
		}
		o.Against, o.RecordedBase, against = other.Worktree, "", other.Session
	}
	d, derr := review.ComputeDiff(cn.ctx, o)
	if derr != nil {
		return nil, reviewErr(derr)
	}
	notes := r.follow(cn.ctx, t, d)
	return map[string]any{"type": "review_diff", "session": t.session, "window": t.window, "name": t.name,
		"repo_root": d.RepoRoot, "worktree": d.Worktree, "base": d.Base, "base_sha": d.BaseSHA, "uncommitted": d.Uncommitted,
		"tree_sha": d.TreeSHA, "against": against, "against_tree": d.AgainstTree, "files": d.Files, "totals": d.Totals, "truncated": d.Truncated,
		"notes": notes, "untrusted": true, "group": r.s.fanGroupOf(t)}, nil
}

// follow finds the pane's notes again in the files as they are now (and
// their hunks in d, when given), saves what moved, and returns them.
func (r *reviewer) follow(ctx context.Context, t *reviewTarget, d *review.Diff) []review.Note {
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
			s, _, err := review.FileAtBase(ctx, review.DiffOptions{Dir: t.repo.Worktree, RecordedBase: r.s.recordedBase(t)}, n.Path)
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
func (r *reviewer) notesOf(window string) []review.Note {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.loadLocked()
	return r.book.List(func(n review.Note) bool { return n.Window == window })
}

// loadLocked reads the notes file once, and drops the notes of panes
// and worktrees that are gone (every call: see the file comment).
func (r *reviewer) loadLocked() {
	if !r.loaded {
		r.loaded = true
		if r.path != "" {
			b, why := readStateFile(r.path, r.s.uid, maxNotesFile)
			if why == "" && b != nil {
				if err := json.Unmarshal(b, &r.book); err != nil {
					why = err.Error()
				}
			}
			if why != "" {
				r.book = review.Notebook{}
				setAside(r.s, "review", r.path, why, "started with no review notes")
			}
		}
	}
	r.s.mu.Lock()
	gone := r.book.Remove(func(n review.Note) bool {
		w := r.s.windows[n.Window]
		return w == nil || w.session.Name != n.Session
	})
	r.s.mu.Unlock()
	gone += r.book.Remove(func(n review.Note) bool {
		_, err := os.Stat(n.Worktree)
		return errors.Is(err, os.ErrNotExist)
	})
	if gone > 0 {
		r.saveLocked()
	}
}

// saveLocked writes the notes file now; a failure is logged, the notes
// stay in memory.
func (r *reviewer) saveLocked() {
	if r.path == "" {
		return
	}
	b, err := json.Marshal(&r.book)
	if err == nil {
		err = writeFileAtomic(r.path, b)
	}
	if err != nil {
		r.s.errorf("review: saving %s: %v", r.path, err)
	}
}

// author decides who writes a note or sends: human (a live nonce from
// outside every pane), the caller's window id, or shell. The queue's
// rule, so a note and the message it goes out in agree on who it is.
func (r *reviewer) author(cn *conn, nonce string) (string, *proto.Error) {
	if r.s.queue != nil {
		return r.s.queue.origin(cn, nonce)
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

func (r *reviewer) note(cn *conn, p *reviewNoteParams) (any, *proto.Error) {
	action := p.Action
	if action == "" {
		action = "list"
	}
	t, err := r.target(cn, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	res := map[string]any{"type": "review_notes", "session": t.session, "window": t.window, "worktree": t.repo.Worktree}
	switch action {
	case "list":
		res["notes"] = r.follow(cn.ctx, t, nil)
		return res, nil
	}
	who, err := r.author(cn, p.HumanNonce)
	if err != nil {
		return nil, err
	}
	// GRANTS: add and edit need the write grant on the pane (a pane may
	// note only panes it could type into); checked here once grants exist.
	now := r.s.clock.Now().UnixNano()
	switch action {
	case "add":
		n, perr := r.newNote(cn.ctx, t, p)
		if perr != nil {
			return nil, perr
		}
		n.By, n.At = who, now
		r.mu.Lock()
		r.loadLocked()
		added, aerr := r.book.Add(n)
		if aerr == nil {
			r.saveLocked()
		}
		r.mu.Unlock()
		if aerr != nil {
			return nil, reviewErr(aerr)
		}
		res["id"] = added.ID
	case "edit", "remove":
		if p.ID == "" {
			return nil, proto.Errorf(proto.CodeInvalidParams, "%s needs the note's id", action).WithHint(proto.Hint{Param: "id", Command: "tuios review notes"})
		}
		r.mu.Lock()
		r.loadLocked()
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
				perr = reviewErr(e)
			}
		default:
			r.book.Remove(func(n review.Note) bool { return n.ID == p.ID })
			res["removed"] = 1
		}
		if perr == nil {
			r.saveLocked()
		}
		r.mu.Unlock()
		if perr != nil {
			return nil, perr
		}
		res["id"] = p.ID
	case "clear":
		r.mu.Lock()
		r.loadLocked()
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
		res["removed"], res["kept"] = removed, kept
	}
	res["notes"] = r.notesOf(t.window)
	return res, nil
}

// newNote checks an add and reads what the note keeps: the line's text,
// or the hunk's header.
func (r *reviewer) newNote(ctx context.Context, t *reviewTarget, p *reviewNoteParams) (review.Note, *proto.Error) {
	if p.Path == "" {
		return review.Note{}, proto.Errorf(proto.CodeInvalidParams, "name the file (path) the note is on").WithHint(proto.Hint{Param: "path"})
	}
	rel, rerr := review.RelPath(t.repo.Worktree, p.Path)
	if rerr != nil || rel == "." {
		if rerr == nil {
			rerr = &review.DiffError{Code: proto.CodeInvalidParams, Message: "name a file, not the repository", Param: "path"}
		}
		return review.Note{}, reviewErr(rerr)
	}
	side := p.Side
	if side == "" {
		side = review.SideNew
	}
	n := review.Note{Session: t.session, Window: t.window, Worktree: t.repo.Worktree, Path: rel, Side: side, Text: p.Text}
	if strings.TrimSpace(p.Text) == "" || len(p.Text) > review.MaxNoteBytes {
		_, e := (&review.Notebook{}).Add(n) // the same refusal the notebook gives
		return review.Note{}, reviewErr(e)
	}
	if p.Hunk != "" {
		d, err := review.ComputeDiff(ctx, review.DiffOptions{Dir: t.repo.Worktree, RecordedBase: r.s.recordedBase(t), Paths: []string{rel}, Context: review.DefaultContext})
		if err != nil {
			return review.Note{}, reviewErr(err)
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
		s, _, err := review.FileAtBase(ctx, review.DiffOptions{Dir: t.repo.Worktree, RecordedBase: r.s.recordedBase(t)}, rel)
		if err != nil {
			return review.Note{}, reviewErr(err)
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

// senderLabel names who sends, for the message's header.
func (r *reviewer) senderLabel(who string) string {
	switch who {
	case byHuman:
		return "the person"
	case byShell:
		return "a script"
	}
	return "pane " + r.windowName(who)
}

func (r *reviewer) windowName(id string) string {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	if w := r.s.windows[id]; w != nil {
		return w.DisplayName()
	}
	return id[:min(8, len(id))]
}

type withheldNote struct {
	ID     string `json:"id"`
	By     string `json:"by"`
	Reason string `json:"withheld_reason"`
}

func (r *reviewer) send(cn *conn, p *sendReviewParams) (any, *proto.Error) {
	s := r.s
	t, err := r.target(cn, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	arb := s.tracker.Arbiter()
	if b := arb.Brief(t.window); b.State == agentstate.None && b.Harness == "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s runs no agent tuios knows: nothing would read the notes", t.name).
			WithHint(proto.Hint{Param: "window", Command: "tuios list-agents"})
	}
	who, err := r.author(cn, p.HumanNonce)
	if err != nil {
		return nil, err
	}
	notes := r.follow(cn.ctx, t, nil)
	want := map[string]bool{}
	for _, id := range p.IDs {
		want[id] = true
	}
	var picked []review.Note
	for _, n := range notes {
		if len(want) > 0 && want[n.ID] || len(want) == 0 && n.SentAt == 0 {
			picked = append(picked, n)
			delete(want, n.ID)
		}
	}
	if len(want) > 0 {
		var missing []string
		for id := range want {
			missing = append(missing, id)
		}
		return nil, proto.Errorf(proto.CodeInvalidParams, "no note %s on %s", strings.Join(missing, ", "), t.name).WithHint(proto.Hint{Param: "ids", Command: "tuios review notes"})
	}
	if len(picked) == 0 {
		return nil, proto.Errorf(codeNoNotes, "%s has no unsent review notes", t.name).
			WithHint(proto.Hint{Command: "tuios review note FILE:LINE TEXT", Detail: "add a note first; sent notes are listed by tuios review notes"})
	}
	// Each note is checked against its author's authority now, not when
	// it was written.
	var sendable []review.SendNote
	withheld := []withheldNote{}
	for _, n := range picked {
		reason := ""
		switch n.By {
		case byHuman, byShell:
		default:
			s.mu.Lock()
			alive := s.windows[n.By] != nil
			s.mu.Unlock()
			if !alive {
				reason = "the pane that wrote it (" + n.By[:min(8, len(n.By))] + ") has closed"
			}
			// GRANTS: here a pane author's write grant on the target
			// (may it still type there?) and a link author's write policy
			// are checked, once grants and links exist.
		}
		if reason != "" {
			withheld = append(withheld, withheldNote{ID: n.ID, By: n.By, Reason: reason})
			continue
		}
		sn := review.SendNote{Note: n}
		if who == byHuman && n.By != byHuman {
			sn.WrittenBy = r.senderLabel(n.By)
		}
		sendable = append(sendable, sn)
	}
	if len(sendable) == 0 {
		return nil, proto.Errorf(proto.CodeForbidden, "every note was withheld: %s", withheld[0].Reason).
			WithHint(proto.Hint{Detail: "notes by a pane that closed cannot be sent; remove them (tuios review note --remove ID) or write your own"})
	}
	base, _, berr := review.ResolveBase(cn.ctx, review.DiffOptions{Dir: t.repo.Worktree, RecordedBase: s.recordedBase(t)})
	if berr != nil {
		return nil, reviewErr(berr)
	}
	msg, merr := review.ComposeMessage(review.Message{Base: base, Sender: r.senderLabel(who), Notes: sendable})
	if merr != nil {
		return nil, reviewErr(merr)
	}
	if p.Now {
		snap := arb.Get(t.window)
		queued := 0
		if q := s.queue; q != nil {
			q.mu.Lock()
			if pq := q.panes[t.window]; pq != nil {
				queued = len(pq.entries)
			}
			q.mu.Unlock()
		}
		switch {
		case snap.State == agentstate.NeedsInput:
			return nil, proto.Errorf(codeAgentBlocked, "%s waits on a prompt; nothing was sent", t.name).
				WithHint(proto.Hint{Command: "tuios peek-prompt -w " + t.window[:8], Detail: "answer it first, or send without --now to queue the notes"})
		case !atRest(snap.State) || queued > 0:
			return nil, proto.Errorf(codeNotReady, "%s is %s with %d queued; --now sends only to an agent at rest with nothing queued", t.name, snap.State, queued).
				WithHint(proto.Hint{Detail: "leave out --now to queue the notes: they are typed at the agent's next rest"})
		}
	}
	if s.queue == nil {
		return nil, proto.Errorf(proto.CodeInternal, "the reply queue is not running")
	}
	qres, qerr := s.queue.add(cn, &queuePromptParams{Session: t.session, Window: t.window, Text: msg, HumanNonce: p.HumanNonce})
	if qerr != nil {
		return nil, qerr
	}
	qm, _ := qres.(map[string]any)
	ids := make([]string, 0, len(sendable))
	sentAt := s.clock.Now().UnixNano()
	r.mu.Lock()
	for _, n := range sendable {
		ids = append(ids, n.ID)
		if cur := r.book.Find(n.ID); cur != nil {
			cur.SentAt = sentAt
		}
	}
	r.saveLocked()
	r.mu.Unlock()
	res := map[string]any{"type": "review_sent", "session": t.session, "window": t.window, "notes": len(ids), "ids": ids,
		"queued_id": qm["id"], "position": qm["position"], "queued": qm["queued"], "delivering": qm["delivering"]}
	if len(withheld) > 0 {
		res["withheld"] = withheld
	}
	return res, nil
}
