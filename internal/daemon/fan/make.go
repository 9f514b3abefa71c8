package fan

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/shquote"
	"github.com/tuios/tuios/internal/worktree"
)

// Making worktrees and their sessions: what fan, worktree new and worktree
// pull share. Every name is checked and held (Worktrees.reserve) before
// anything is made; then the worktrees are added, then the sessions and
// their windows. Anything that fails takes back everything the call made:
// a refused call leaves no folder, no branch, no session, no record.

// GitWait bounds the git calls of one verb together (a fan of 16 adds 16
// checkouts; start-agent's clone and open take as long).
const GitWait = 5 * time.Minute

// Error codes of the worktree verbs.
const (
	codeGitFailed     = "git_failed"
	codeWorktreeDirty = "worktree_dirty"
	codeNotWorktree   = "not_worktree"
)

// wtPlan is what one call makes.
type wtPlan struct {
	verb          string
	repo          *worktree.Repo
	base, baseSHA string
	group         string
	launchedBy    string    // the caller pane's session id
	by            core.Call // the verb's call: the prompts are typed as its caller
	grants        grant.Set
	granted       bool
	readyTimeout  time.Duration
	attempts      []*wtAttempt
	pulledFrom    string
	// pull makes the worktree from another machine's work instead of
	// git worktree add (worktree_verbs.go).
	pull *worktree.Bundle
}

// wtAttempt is one worktree and the session in it.
type wtAttempt struct {
	n         int
	branch    string
	session   string
	dir       string
	newBranch bool
	agent     string            // as given ("" runs a shell)
	launch    *core.AgentLaunch // nil: a shell
	prompt    string

	// Filled as it is made.
	sessionID string // "" until its session is open
	window    core.WindowView
	settled   chan struct{} // closed once the prompt is no longer pending
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
func (t *Worktrees) dataDir() string {
	getenv := t.h.Options().Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	return worktree.DataDir(getenv)
}

// OpenRepo opens the repository dir names (the folder of a git
// repository, absolute), or the pane c's caller runs in when dir is "".
func OpenRepo(ctx context.Context, h core.Host, c core.Call, dir string) (*worktree.Repo, *proto.Error) {
	if dir == "" {
		dir = h.CallerDir(c)
	}
	if dir == "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "name the repository: repo is the folder of a git repository").WithHint(proto.Hint{Param: "repo"})
	}
	if !filepath.IsAbs(dir) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "repo %q is not an absolute path", core.Clip(dir, 200)).WithHint(proto.Hint{Param: "repo", Detail: "give the folder from /"})
	}
	r, err := worktree.Open(ctx, worktree.Git{Env: h.Options().Env}, dir)
	if err != nil {
		return nil, wtError(err)
	}
	return r, nil
}

// CloneAndOpen opens the repository of a verb's repo param as OpenRepo
// does, cloned first from from when asked (clone, for work on another
// host: the CLI sends the URL of the remote its own repository came
// from), and says whether it cloned. ctx bounds the git runs.
func CloneAndOpen(ctx context.Context, h core.Host, c core.Call, dir string, clone bool, from string) (*worktree.Repo, bool, *proto.Error) {
	cloned, err := cloneFirst(ctx, h.Options().Env, dir, clone, from)
	if err != nil {
		return nil, false, err
	}
	r, err := OpenRepo(ctx, h, c, dir)
	if err != nil {
		return nil, false, err
	}
	return r, cloned, nil
}

// cloneFirst clones the repository folder dir from from when asked, and
// says whether it did. A folder that exists is used as it is.
func cloneFirst(ctx context.Context, env []string, dir string, clone bool, from string) (bool, *proto.Error) {
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
	if err := worktree.Clone(ctx, worktree.Git{Env: env}, from, dir); err != nil {
		return false, wtError(err)
	}
	return true, nil
}

// makeWorktrees makes every attempt of a plan, or nothing.
func (t *Worktrees) makeWorktrees(c core.Call, pl *wtPlan) *proto.Error {
	h := t.h
	ctx, cancel := context.WithTimeout(c.Context(), GitWait)
	defer cancel()
	r := pl.repo

	// Hold every name first: a second call for the same names is
	// refused at once.
	var names []string
	for _, a := range pl.attempts {
		names = append(names, "branch:"+r.Root+"\x00"+a.branch, "session:"+a.session, "dir:"+a.dir)
	}
	if held, ok := t.reserve(names, pl.verb); !ok {
		what, _, _ := strings.Cut(held, ":")
		return proto.Errorf(proto.CodeInvalidParams, "another call is making or holds the same %s right now", what).
			WithHint(proto.Hint{Param: "name", Detail: "wait for it, or pick another name (--name)"})
	}
	defer t.release(names)

	// Every refusal before anything is made.
	for _, a := range pl.attempts {
		if _, ok := h.FindSession(a.session); ok {
			return proto.Errorf(proto.CodeSessionExists, "a session named %q already exists", a.session).
				WithHint(proto.Hint{Param: "name", Detail: "pick another name (--name), or close that session first"})
		}
	}
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
			if a.sessionID != "" {
				h.KillSession(a.session, a.sessionID)
				t.setTag(a.sessionID, nil)
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
	now := h.Clock().Now().UnixNano()
	for _, a := range pl.attempts {
		sv, err := h.NewSession(a.session)
		if err != nil {
			undo()
			return err
		}
		a.sessionID = sv.ID
		t.setTag(sv.ID, &core.FanTag{Group: pl.group, Repo: r.Root, LaunchedBy: pl.launchedBy, Worktree: a.dir})
		spec := core.WindowSpec{Dir: a.dir, Grants: pl.grants, Granted: pl.granted}
		if a.launch != nil {
			spec.Argv, spec.Name = a.launch.Argv, filepath.Base(a.launch.Program)
		}
		w, werr := h.StartWindow(sv.ID, spec)
		if werr != nil {
			undo()
			return werr
		}
		a.window = w
	}

	// The records, then the prompts.
	recs := make([]*record, 0, len(pl.attempts))
	for _, a := range pl.attempts {
		rec := &record{Session: a.session, SessionID: a.sessionID, Repo: r.Root, RepoName: r.Name, Worktree: a.dir, Branch: a.branch,
			Base: pl.base, BaseSHA: pl.baseSHA, Group: pl.group, Attempt: a.n, Agent: a.agent, Window: a.window.ID,
			LaunchedBy: pl.launchedBy, Created: now, PulledFrom: pl.pulledFrom}
		if a.launch != nil {
			rec.Command = posixCommand(a.launch.AgentArgv)
		}
		if a.prompt != "" {
			rec.PromptStatus = promptPending
		}
		recs = append(recs, rec)
	}
	t.add(recs...)
	for _, a := range pl.attempts {
		a.settled = make(chan struct{})
		if a.prompt == "" {
			close(a.settled)
			continue
		}
		harness := ""
		if a.launch != nil {
			harness = a.launch.Harness
		}
		t.deliverPrompt(promptDelivery{verb: pl.verb, sessionID: a.sessionID, w: a.window, text: a.prompt, by: pl.by,
			harness: harness, timeout: pl.readyTimeout, settled: a.settled})
	}
	return nil
}

// attemptRows reads the attempts' records as they are now.
func (t *Worktrees) attemptRows(pl *wtPlan) []proto.Attempt {
	ids := map[string]bool{}
	for _, a := range pl.attempts {
		ids[a.sessionID] = true
	}
	recs := t.all(func(r *record) bool { return ids[r.SessionID] })
	byID := map[string]record{}
	for _, r := range recs {
		byID[r.SessionID] = r
	}
	out := make([]proto.Attempt, 0, len(pl.attempts))
	for _, a := range pl.attempts {
		r := byID[a.sessionID]
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
func (t *Worktrees) waitSettled(c core.Call, pl *wtPlan) *proto.Error {
	for _, a := range pl.attempts {
		select {
		case <-a.settled:
		case <-c.Context().Done():
			return proto.Errorf(proto.CodeTimeout, "the caller hung up; the agents go on starting")
		case <-t.h.Done():
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

// posixCommand is argv as a POSIX shell would read it back.
func posixCommand(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = shquote.Word("posix", a)
	}
	return strings.Join(words, " ")
}
