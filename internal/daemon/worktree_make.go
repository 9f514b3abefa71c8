package daemon

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/worktree"
)

// Making worktrees and their sessions: what fan, worktree new and worktree
// pull share. Every name is checked and held (worktrees.reserve) before
// anything is made; then the worktrees are added, then the sessions and
// their windows. Anything that fails takes back everything the call made:
// a refused call leaves no folder, no branch, no session, no record.

// wtGitWait bounds the git calls of one verb together (a fan of 16 adds 16
// checkouts).
const wtGitWait = 5 * time.Minute

// wtPlan is what one call makes.
type wtPlan struct {
	verb          string
	repo          *worktree.Repo
	base, baseSHA string
	group         string
	launchedBy    string // the caller pane's session id
	by            caller
	grants        grant.Set
	granted       bool
	readyTimeout  time.Duration
	attempts      []*wtAttempt
	pulledFrom    string
	// pull makes the worktree from another machine's work instead of
	// git worktree add (verbs_worktree.go).
	pull *worktree.Bundle
}

// wtAttempt is one worktree and the session in it.
type wtAttempt struct {
	n         int
	branch    string
	session   string
	dir       string
	newBranch bool
	agent     string       // as given ("" runs a shell)
	launch    *agentLaunch // nil: a shell
	prompt    string

	// Filled as it is made.
	ss      *Session
	w       *Window
	settled chan struct{} // closed once the prompt is no longer pending
}

// wtError turns a package worktree error into a protocol error.
func wtError(err error) *proto.Error {
	var e *worktree.Error
	if errors.As(err, &e) {
		pe := proto.Errorf(e.Code, "%s", e.Message)
		if e.Hint != "" || e.Param != "" {
			pe = pe.WithHint(proto.Hint{Param: e.Param, Detail: e.Hint})
		}
		return pe
	}
	return proto.Errorf(codeGitFailed, "%v", err).WithHint(proto.Hint{Detail: "check that git works in the repository"})
}

// dataDir is where the worktrees go.
func (s *Server) dataDir() string { return worktree.DataDir(s.getenv) }

// gitFor is how the daemon runs git: with its own environment.
func (s *Server) gitFor() worktree.Git { return worktree.Git{Env: s.opt.Env} }

// openRepo opens the repository a call names, or the caller pane's.
func (s *Server) openRepo(ctx context.Context, cn *conn, dir string) (*worktree.Repo, *proto.Error) {
	if dir == "" {
		s.mu.Lock()
		if w := s.callerWindow(cn); w != nil {
			dir = w.cwdNow()
		}
		s.mu.Unlock()
	}
	if dir == "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "name the repository: repo is the folder of a git repository").WithHint(proto.Hint{Param: "repo"})
	}
	if !filepath.IsAbs(dir) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "repo %q is not an absolute path", clipText(dir, 200)).WithHint(proto.Hint{Param: "repo", Detail: "give the folder from /"})
	}
	r, err := worktree.Open(ctx, s.gitFor(), dir)
	if err != nil {
		return nil, wtError(err)
	}
	return r, nil
}

// callerSessionID is the session id of the caller's pane ("" outside).
func (s *Server) callerSessionID(cn *conn) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.callerWindow(cn); w != nil && cn.callKnown && cn.call.inside {
		return w.session.ID
	}
	return ""
}

// makeWorktrees makes every attempt of a plan, or nothing.
func (s *Server) makeWorktrees(cn *conn, pl *wtPlan) *proto.Error {
	ctx, cancel := context.WithTimeout(cn.ctx, wtGitWait)
	defer cancel()
	r := pl.repo

	// Hold every name first: a second call for the same names is
	// refused at once.
	var names []string
	for _, a := range pl.attempts {
		names = append(names, "branch:"+r.Root+"\x00"+a.branch, "session:"+a.session, "dir:"+a.dir)
	}
	if held, ok := s.wts.reserve(names, pl.verb); !ok {
		what, _, _ := strings.Cut(held, ":")
		return proto.Errorf(proto.CodeInvalidParams, "another call is making or holds the same %s right now", what).
			WithHint(proto.Hint{Param: "name", Detail: "wait for it, or pick another name (--name)"})
	}
	defer s.wts.release(names)

	// Every refusal before anything is made.
	s.mu.Lock()
	for _, a := range pl.attempts {
		if s.sessions[a.session] != nil {
			s.mu.Unlock()
			return proto.Errorf(proto.CodeSessionExists, "a session named %q already exists", a.session).
				WithHint(proto.Hint{Param: "name", Detail: "pick another name (--name), or close that session first"})
		}
	}
	s.mu.Unlock()
	branches, berr := r.Branches(ctx)
	if berr != nil {
		return wtError(berr)
	}
	for _, a := range pl.attempts {
		if a.newBranch {
			if pl.group == "" { // a fan's branches are its checked stem and -N
				if err := r.CheckBranch(ctx, a.branch); err != nil {
					return wtError(err)
				}
			}
			if branches[a.branch] {
				return proto.Errorf(proto.CodeInvalidParams, "branch %q already exists in %s", a.branch, r.Name).
					WithHint(proto.Hint{Param: "name", Detail: "pick another name (--name); tuios never deletes branches, so an old fan's stay until you do (git branch -D)"})
			}
		}
		if _, err := os.Lstat(a.dir); err == nil {
			return proto.Errorf(proto.CodeInvalidParams, "%s already exists", a.dir).
				WithHint(proto.Hint{Param: "name", Detail: "remove the old worktree (tuios worktree rm, or git worktree remove), or pick another name (--name)"})
		}
	}

	// The worktrees, one after another: git takes the repository's locks
	// for each.
	made := 0
	undo := func() {
		bg := context.WithoutCancel(ctx)
		for _, a := range pl.attempts[:made] {
			if a.ss != nil {
				s.killSession(a.ss)
			}
			branch := ""
			if a.newBranch {
				branch = a.branch
			}
			r.Undo(bg, a.dir, branch)
		}
	}
	for _, a := range pl.attempts {
		var err error
		if pl.pull != nil {
			err = r.Pull(ctx, pl.pull, worktree.PullOptions{Branch: a.branch, Path: a.dir})
		} else {
			base := ""
			if a.newBranch {
				base = pl.baseSHA
			}
			err = r.Add(ctx, worktree.AddOptions{Path: a.dir, Branch: a.branch, Base: base})
		}
		if err != nil {
			// git may leave what it made when a hook fails after the
			// checkout: the folder was not there before, so it is this
			// call's, and so is its new branch.
			if _, serr := os.Lstat(a.dir); serr == nil {
				branch := ""
				if a.newBranch {
					branch = a.branch
				}
				r.Undo(context.WithoutCancel(ctx), a.dir, branch)
			}
			undo()
			return wtError(err)
		}
		made++
	}

	// The sessions, tagged before their first window starts.
	now := s.clock.Now().UnixNano()
	tag := &fanTag{group: pl.group, repo: r.Root, launchedBy: pl.launchedBy}
	for _, a := range pl.attempts {
		s.mu.Lock()
		ss, err := s.newSessionLocked(a.session)
		if err == nil {
			t := *tag
			t.worktree = a.dir
			ss.fan.Store(&t)
		}
		s.mu.Unlock()
		if err != nil {
			undo()
			return err
		}
		a.ss = ss
		spec := windowSpec{cwd: a.dir, grants: pl.grants, granted: pl.granted}
		if a.launch != nil {
			spec.argv, spec.name = a.launch.argv, filepath.Base(a.launch.program)
		}
		w, werr := s.startWindow(ss, spec)
		if werr != nil {
			undo()
			return werr
		}
		a.w = w
	}

	// The records, then the prompts.
	recs := make([]*wtRecord, 0, len(pl.attempts))
	for _, a := range pl.attempts {
		rec := &wtRecord{Session: a.session, SessionID: a.ss.ID, Repo: r.Root, RepoName: r.Name, Worktree: a.dir, Branch: a.branch,
			Base: pl.base, BaseSHA: pl.baseSHA, Group: pl.group, Attempt: a.n, Agent: a.agent, Window: a.w.ID,
			LaunchedBy: pl.launchedBy, Created: now, PulledFrom: pl.pulledFrom}
		if a.launch != nil {
			rec.Command = posixCommand(a.launch.agentArgv)
		}
		if a.prompt != "" {
			rec.PromptStatus = promptPending
		}
		recs = append(recs, rec)
	}
	s.wts.add(recs...)
	for _, a := range pl.attempts {
		a.settled = make(chan struct{})
		if a.prompt == "" {
			close(a.settled)
			continue
		}
		harness := ""
		if a.launch != nil {
			harness = a.launch.harness
		}
		s.deliverPrompt(promptDelivery{verb: pl.verb, sessionID: a.ss.ID, ss: a.ss, w: a.w, text: a.prompt, by: pl.by,
			harness: harness, timeout: pl.readyTimeout, settled: a.settled})
	}
	return nil
}

// attemptRows reads the attempts' records as they are now.
func (s *Server) attemptRows(pl *wtPlan) []proto.Attempt {
	ids := map[string]bool{}
	for _, a := range pl.attempts {
		ids[a.ss.ID] = true
	}
	recs := s.wts.all(func(r *wtRecord) bool { return ids[r.SessionID] })
	byID := map[string]wtRecord{}
	for _, r := range recs {
		byID[r.SessionID] = r
	}
	out := make([]proto.Attempt, 0, len(pl.attempts))
	for _, a := range pl.attempts {
		r := byID[a.ss.ID]
		agent := r.Agent
		if agent == "" {
			agent = "shell"
		}
		out = append(out, proto.Attempt{Attempt: r.Attempt, Session: r.Session, SessionID: r.SessionID, Branch: r.Branch, Worktree: r.Worktree,
			WindowID: r.Window, Agent: agent, Command: r.Command, PromptStatus: r.PromptStatus, PromptNote: r.PromptNote, PromptReadyBy: r.PromptReadyBy})
	}
	return out
}

// waitSettled waits until no attempt's prompt is pending (held counts as
// settled: it waits for the person), the caller hangs up, or the daemon
// stops.
func (s *Server) waitSettled(cn *conn, pl *wtPlan) *proto.Error {
	for _, a := range pl.attempts {
		select {
		case <-a.settled:
		case <-cn.closed:
			return proto.Errorf(proto.CodeTimeout, "the caller hung up; the agents go on starting")
		case <-s.done:
			return nil
		}
	}
	return nil
}

// baseOf is the base a worktree starts from: the named ref, else the
// checkout's HEAD, recorded by its branch's name. A checkout with changes
// the attempts would not see is refused when no base was named.
func baseOf(ctx context.Context, r *worktree.Repo, named string, refuseDirty bool) (name, sha string, err *proto.Error) {
	if named != "" {
		sha, e := r.Resolve(ctx, named, "base")
		if e != nil {
			return "", "", wtError(e)
		}
		return named, sha, nil
	}
	branch, sha, e := r.Head(ctx, r.Dir)
	if e != nil {
		return "", "", wtError(e)
	}
	if refuseDirty {
		ch, e := r.Status(ctx, r.Dir)
		if e != nil {
			return "", "", wtError(e)
		}
		if ch.Tracked > 0 {
			what := strconv.Itoa(ch.Tracked) + " changed files"
			if ch.Tracked == 1 {
				what = "1 changed file"
			}
			return "", "", proto.Errorf(codeWorktreeDirty, "%s has %s (%s) that the new worktrees would not have: they start from its last commit",
				r.Dir, what, strings.Join(ch.Paths, ", ")).
				WithHint(proto.Hint{Param: "base", Detail: "commit or stash them first (git stash), or name the base with --base to start from a commit on purpose"})
		}
	}
	name = branch
	if name == "" {
		name = sha
	}
	return name, sha, nil
}

const (
	codeWorktreeDirty = "worktree_dirty"
	codeNotWorktree   = "not_worktree"
)

// cloneFirst clones the repository folder from from when asked (--clone,
// for work on another host: the CLI sends the URL of the remote its own
// repository came from). A folder that exists is used as it is.
func (s *Server) cloneFirst(ctx context.Context, dir string, clone bool, from string) (bool, *proto.Error) {
	if !clone {
		return false, nil
	}
	switch {
	case from == "":
		return false, proto.Errorf(proto.CodeInvalidParams, "clone needs clone_from: the URL of the remote to clone from").
			WithHint(proto.Hint{Param: "clone_from", Detail: "the CLI sends the origin of the repository you run it in"})
	case dir == "" || !filepath.IsAbs(dir):
		return false, proto.Errorf(proto.CodeInvalidParams, "clone needs the folder to clone into: repo, absolute").WithHint(proto.Hint{Param: "repo"})
	}
	if _, err := os.Stat(dir); err == nil {
		return false, nil
	}
	if err := worktree.Clone(ctx, s.gitFor(), from, dir); err != nil {
		return false, wtError(err)
	}
	return true, nil
}
