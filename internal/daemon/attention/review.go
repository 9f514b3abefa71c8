package attention

import (
	"context"
	"errors"
	"path/filepath"
	"sync"

	"github.com/tuios/tuios/internal/daemon/core"
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

const (
	codeNotRepo      = "not_repo"
	codeNoNotes      = "no_notes"
	codeGitFailed    = "git_failed"
	codeAgentBlocked = "agent_blocked"
	codeNotReady     = "not_ready"
	// maxNotesFile bounds the notes file read at start: 200 notes of
	// 1000 bytes per worktree, many worktrees.
	maxNotesFile = 32 << 20
	// maxNoteFile is the largest file a note's line is read from.
	maxNoteFile = 16 << 20
)

// Review keeps the review notes and serves review-diff, review-note and
// send-review (a core.Feature).
//
// Locking: mu guards the notebook and is held across the notes file's
// read and write, never while calling the core: what a call needs of the
// table (which panes are alive) is copied before mu is taken. No git runs
// under it.
type Review struct {
	h    core.Host
	q    *Queue
	path string // "" keeps nothing

	mu     sync.Mutex
	loaded bool
	book   review.Notebook
}

// NewReview makes the review notes, sent through the reply queue q;
// Init adds them to a daemon.
func NewReview(q *Queue) *Review { return &Review{q: q} }

// Name is "review".
func (r *Review) Name() string { return "review" }

// Init adds review-diff, review-note and send-review to h's verbs. The
// notes file is read on the first review call, not here.
func (r *Review) Init(h core.Host) error {
	r.h = h
	if dir := h.Options().StateDir; dir != "" {
		r.path = filepath.Join(dir, "review", "notes.json")
	}
	p, run := core.Handle(r.diff)
	h.AddVerb(core.Verb{Name: "review-diff", Class: core.Reads, Returns: "review_diff", Params: p, Run: run,
		Desc:    "Diff a pane's repository against its base: committed, uncommitted and untracked work together, through a temporary index (the repository is never changed); notes are found again on their lines",
		Example: `{"verb":"review-diff","params":{"window":"api","base":"main"}}`})
	p, run = core.Handle(r.note)
	h.AddVerb(core.Verb{Name: "review-note", Class: core.Writes, Returns: "review_notes", Params: p, Run: run,
		Desc:    "Add, edit, remove, list or clear review notes on a pane's changes; a line note follows its line's text as the code moves",
		Example: `{"verb":"review-note","params":{"action":"add","window":"api","path":"api/retry.go","line":42,"text":"log the attempt number here too"}}`})
	p, run = core.Handle(r.send)
	h.AddVerb(core.Verb{Name: "send-review", Class: core.Writes, Returns: "review_sent", Params: p, Run: run,
		Desc:    "Send a pane's unsent review notes to its agent as one message, through the reply queue",
		Example: `{"verb":"send-review","params":{"window":"api"}}`})
	return nil
}

// Shutdown has nothing to stop: every change is saved as it is made.
func (r *Review) Shutdown(context.Context) error { return nil }

// ReviewError turns a package review error into a protocol error (the
// review verbs here, fan compare's changes in the core).
func ReviewError(err error) *proto.Error {
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

// reviewTarget is a resolved pane and where its repository is.
type reviewTarget struct {
	session, window, name, dir string
	repo                       *review.Repo
}

func (r *Review) target(c core.Call, session, window string) (*reviewTarget, *proto.Error) {
	w, err := r.h.Window(c, session, window)
	if err != nil {
		return nil, err
	}
	t := reviewTarget{session: w.Session, window: w.ID, name: w.DisplayName}
	// HOSTED PANES: a pane whose process runs on another machine is
	// not_repo (hint: tuios worktree pull) once such panes exist.
	t.dir = r.h.PaneDir(w.ID)
	if t.dir == "" {
		return nil, proto.Errorf(codeNotRepo, "%s has no known working directory", t.name).WithHint(proto.Hint{Detail: "cd into a git repository in the pane"})
	}
	ctx, cancel := context.WithTimeout(c.Context(), review.MaxDiffTime)
	defer cancel()
	repo, rerr := review.FindRepo(ctx, "", t.dir, nil)
	if rerr != nil {
		return nil, ReviewError(rerr)
	}
	t.repo = repo
	return &t, nil
}

func (r *Review) diff(c core.Call, p *proto.ReviewDiffParams) (any, *proto.Error) {
	if p.Uncommitted && p.Base != "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "uncommitted diffs against HEAD: give it or a base, not both").WithHint(proto.Hint{Param: "base"})
	}
	if p.Against != "" && (p.Base != "" || p.Uncommitted) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "against diffs two attempts of a fan: give it without base or uncommitted").WithHint(proto.Hint{Param: "against"})
	}
	t, err := r.target(c, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	ctxLines := review.DefaultContext
	if p.Context != nil {
		ctxLines = *p.Context
	}
	o := review.DiffOptions{Dir: t.dir, Base: p.Base, Uncommitted: p.Uncommitted, Paths: p.Paths, Context: ctxLines, Stat: p.Stat,
		RecordedBase: r.recordedBase(t)}
	against := ""
	if p.Against != "" {
		other, aerr := r.againstAttempt(c, t, p.Against) // review_fan.go
		if aerr != nil {
			return nil, aerr
		}
		o.Against, o.RecordedBase, against = other.Worktree, "", other.Session
	}
	d, derr := review.ComputeDiff(c.Context(), o)
	if derr != nil {
		return nil, ReviewError(derr)
	}
	notes := r.follow(c.Context(), t, d)
	return &proto.ReviewDiff{Type: "review_diff", Session: t.session, Window: t.window, Name: t.name,
		RepoRoot: d.RepoRoot, Worktree: d.Worktree, Base: d.Base, BaseSHA: d.BaseSHA, Uncommitted: d.Uncommitted,
		TreeSHA: d.TreeSHA, Against: against, AgainstTree: d.AgainstTree, Files: d.Files, Totals: d.Totals, Truncated: d.Truncated,
		Notes: notes, Untrusted: true, Group: r.fanGroupOf(t)}, nil
}
