package fan

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/worktree"
)

// The worktree verbs (docs/agents.md, fan and worktrees): a session in a
// worktree of its own (new-worktree), the worktrees tuios made
// (list-worktrees), taking one away (remove-worktree), and carrying one's
// work from another machine (bundle-worktree there, pull-worktree here).

func (t *Worktrees) worktreeVerbs(r core.Registrar) {
	p, run := core.Handle(t.newWorktree)
	r.AddVerb(core.Verb{Name: "new-worktree", Class: core.StartsAgents, Desc: "Make a git worktree on a branch (made from base when missing) and a session in it, running a shell or an agent", Returns: "worktree_created",
		Example: `{"verb":"new-worktree","params":{"branch":"feat/retry","base":"main","agent":"claude","repo":"/home/u/src/api"}}`, Params: p, Run: run})
	p, run = core.Handle(t.listWorktrees)
	r.AddVerb(core.Verb{Name: "list-worktrees", Class: core.Reads, Desc: "List the worktrees tuios made: session, branch, fan group, agent state, changes against the base, gone, prompt_status", Returns: "worktree_list",
		Example: `{"verb":"list-worktrees","params":{"group":"fan/add-retry"}}`, Params: p, Run: run})
	p, run = core.Handle(t.removeWorktree)
	r.AddVerb(core.Verb{Name: "remove-worktree", Class: core.Opens, Desc: "Remove a worktree tuios made and close its session; refused with worktree_dirty when it has changes, unless stash or force; the branch stays", Returns: "worktree_removed",
		Example: `{"verb":"remove-worktree","params":{"session":"api-feat-retry","stash":true}}`, Params: p, Run: run})
	p, run = core.Handle(t.bundleWorktree)
	r.AddVerb(core.Verb{Name: "bundle-worktree", Class: core.ReadsOut, Desc: "Pack a worktree's work to carry it to another machine: its commits since the base as a git bundle, what is not committed as a binary patch; nothing changes here", Returns: "worktree_bundle",
		Example: `{"verb":"bundle-worktree","params":{"session":"api-fan-demo-2"}}`, Params: p, Run: run})
	p, run = core.Handle(t.pullWorktree)
	r.AddVerb(core.Verb{Name: "pull-worktree", Class: core.AdminLocal, Desc: "Bring a worktree's work from a linked host into a new branch, worktree and session here (the host's bundle-worktree); nothing changes there", Returns: "worktree_created",
		Example: `{"verb":"pull-worktree","params":{"host":"build","session":"api-fan-demo-2","repo":"/home/u/src/api"}}`, Params: p, Run: run})
}

func (t *Worktrees) newWorktree(c core.Call, p *proto.NewWorktreeParams) (any, *proto.Error) {
	h := t.h
	if p.Prompt != "" && p.Agent == "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "a prompt needs an agent to type it into").WithHint(proto.Hint{Param: "agent"})
	}
	if c.Remote() && (len(p.Env) > 0 || p.Path != "") {
		return nil, proto.Errorf(proto.CodeForbidden, "variables are not set over a link: the agent runs with that machine's own environment").
			WithHint(proto.Hint{Param: "env"})
	}
	if err := h.CheckAgentEnv(p.Env); err != nil {
		return nil, err
	}
	var la *core.AgentLaunch
	if p.Agent != "" {
		words, e := worktree.SplitCommand(p.Agent)
		if e != nil {
			return nil, wtError(e)
		}
		l, err := h.ResolveAgent(core.AgentSpec{Agent: words[0], Args: words[1:], Path: p.Path, Env: p.Env, AnyProgram: true})
		if err != nil {
			return nil, err
		}
		la = &l
	} else if len(p.Env) > 0 {
		return nil, proto.Errorf(proto.CodeInvalidParams, "--env goes with --agent").WithHint(proto.Hint{Param: "env"})
	}
	g, granted, err := h.NewGrants(c, p.Grants)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(c.Context(), GitWait)
	defer cancel()
	repo, cloned, err := CloneAndOpen(ctx, h, c, p.Repo, p.Clone, p.CloneFrom)
	if err != nil {
		return nil, err
	}
	branch := strings.TrimSpace(p.Branch)
	if e := repo.CheckBranch(ctx, branch); e != nil {
		return nil, wtError(e)
	}
	exists, e := repo.BranchExists(ctx, branch)
	if e != nil {
		return nil, wtError(e)
	}
	var base, baseSHA string
	if exists {
		if p.Base != "" {
			return nil, proto.Errorf(proto.CodeInvalidParams, "branch %q exists, so it is checked out as it is: --base is for a new branch", branch).
				WithHint(proto.Hint{Param: "base", Detail: "leave --base out, or name a new branch"})
		}
		// The base of an existing branch: where it left the checkout's.
		name, sha, perr := baseOf(ctx, repo, "", false)
		if perr != nil {
			return nil, perr
		}
		base, baseSHA = name, sha
	} else if base, baseSHA, err = baseOf(ctx, repo, p.Base, false); err != nil {
		return nil, err
	}
	session := strings.TrimSpace(p.Name)
	if session == "" {
		session = worktree.SessionName(repo.Name, branch)
	} else if strings.ContainsAny(session, ":") {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the session name %q holds ':', which reads as HOST:SESSION", session).WithHint(proto.Hint{Param: "name"})
	}
	agent := ""
	if la != nil {
		agent = p.Agent
	}
	pl := &wtPlan{verb: "new-worktree", repo: repo, base: base, baseSHA: baseSHA, launchedBy: h.FanCaller(c).SessionID, by: c,
		grants: g, granted: granted, readyTimeout: time.Duration(p.ReadyTimeout) * time.Millisecond,
		attempts: []*wtAttempt{{branch: branch, session: session, dir: worktree.Dir(t.dataDir(), repo.Name, branch), newBranch: !exists,
			agent: agent, launch: la, prompt: p.Prompt}}}
	if err := t.makeWorktrees(c, pl); err != nil {
		return nil, err
	}
	if p.Wait {
		if err := t.waitSettled(c, pl); err != nil {
			return nil, err
		}
	}
	row := t.attemptRows(pl)[0]
	return proto.WorktreeCreated{Type: "worktree_created", Repo: repo.Root, RepoName: repo.Name, Base: base, BaseSHA: baseSHA, CreatedBranch: !exists, Cloned: cloned, Attempt: row}, nil
}

func (t *Worktrees) listWorktrees(c core.Call, p *proto.ListWorktreesParams) (any, *proto.Error) {
	repoRoot := ""
	if p.Repo != "" {
		ctx, cancel := context.WithTimeout(c.Context(), 10*time.Second)
		r, err := OpenRepo(ctx, t.h, c, p.Repo)
		cancel()
		if err != nil {
			return nil, err
		}
		repoRoot = r.Root
	}
	group := normGroup(p.Group)
	recs := t.all(func(r *record) bool {
		return (repoRoot == "" || r.Repo == repoRoot) && (group == "" || r.Group == group)
	})
	// A pane without admin lists what it reaches.
	kept := recs[:0]
	for _, r := range recs {
		if t.inReach(c, r) == nil {
			kept = append(kept, r)
		}
	}
	rows := t.rowsOf(c.Context(), kept, !p.NoChanges)
	out := make([]proto.WorktreeRow, len(rows))
	for i, r := range kept {
		out[i] = proto.WorktreeRow{FanRow: rows[i], SessionID: r.SessionID, Repo: r.Repo, RepoName: r.RepoName, Base: r.Base, BaseSHA: r.BaseSHA,
			Group: r.Group, PromptNote: r.PromptNote, PromptReadyBy: r.PromptReadyBy, Created: r.Created, PulledFrom: r.PulledFrom}
	}
	return proto.WorktreeList{Type: "worktree_list", Worktrees: out}, nil
}

// recordOf is the record of a session the caller reaches.
func (t *Worktrees) recordOf(c core.Call, session string) (record, *proto.Error) {
	rec, ok := t.bySession(session)
	if !ok {
		if err := t.h.UnknownSession(session); err != nil {
			return rec, err
		}
		return rec, proto.Errorf(codeNotWorktree, "session %q is in no worktree tuios made", session).
			WithHint(proto.Hint{Param: "session", Command: "tuios worktree ls", Detail: "tuios removes only the worktrees it made; git worktree remove takes away the others"})
	}
	if err := t.inReach(c, rec); err != nil {
		return rec, err
	}
	return rec, nil
}

func (t *Worktrees) removeWorktree(c core.Call, p *proto.RemoveWorktreeParams) (any, *proto.Error) {
	if p.Stash && p.Force {
		return nil, proto.Errorf(proto.CodeInvalidParams, "give --stash or --force, not both").WithHint(proto.Hint{Param: "stash"})
	}
	rec, err := t.recordOf(c, p.Session)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(c.Context(), GitWait)
	defer cancel()
	res := proto.WorktreeRemoved{Type: "worktree_removed", Session: rec.Session, Worktree: rec.Worktree, Branch: rec.Branch}
	var rm worktree.Removed
	if _, serr := os.Stat(rec.Worktree); serr != nil {
		rm.Gone = true // removed behind tuios's back: only the record and the session go
	} else {
		repo, perr := OpenRepo(ctx, t.h, c, rec.Repo)
		if perr != nil {
			return nil, perr
		}
		r, e := repo.Remove(ctx, rec.Worktree, worktree.RemoveOptions{Stash: p.Stash, Force: p.Force, StashMessage: "tuios: " + rec.Branch})
		if e != nil {
			return nil, wtError(e)
		}
		rm = r
	}
	closed := false
	if !p.KeepSession {
		closed = t.h.KillSession(rec.Session, rec.SessionID)
	}
	t.forget(rec.SessionID) // and its tag: a session kept is in no fan any more
	res.Stashed, res.Stash, res.Forced, res.Gone, res.SessionClosed = rm.Stashed, rm.Stash, rm.Forced, rm.Gone, closed
	return res, nil
}

func (t *Worktrees) bundleWorktree(c core.Call, p *proto.BundleWorktreeParams) (any, *proto.Error) {
	rec, err := t.recordOf(c, p.Session)
	if err != nil {
		return nil, err
	}
	if _, serr := os.Stat(rec.Worktree); serr != nil {
		return nil, proto.Errorf(codeNotWorktree, "the worktree %s is gone", rec.Worktree)
	}
	ctx, cancel := context.WithTimeout(c.Context(), GitWait)
	defer cancel()
	repo, err := OpenRepo(ctx, t.h, c, rec.Worktree)
	if err != nil {
		return nil, err
	}
	b, e := repo.MakeBundle(ctx, rec.Worktree, rec.BaseSHA)
	if e != nil {
		return nil, wtError(e)
	}
	return proto.WorktreeBundle{Type: "worktree_bundle", Session: rec.Session, RepoName: rec.RepoName, Branch: b.Branch, BaseSHA: b.Base,
		HeadSHA: b.Head, Bundle: b.Bundle, Patch: b.Patch}, nil
}

func (t *Worktrees) pullWorktree(c core.Call, p *proto.PullWorktreeParams) (any, *proto.Error) {
	h := t.h
	if !hosts.ValidName(p.Host) || p.Host == hosts.Local {
		return nil, proto.Errorf(proto.CodeInvalidParams, "%q is not a linked host's name", core.Clip(p.Host, 64)).WithHint(proto.Hint{Param: "host", Command: "tuios hosts"})
	}
	ctx, cancel := context.WithTimeout(c.Context(), GitWait)
	defer cancel()
	var far proto.WorktreeBundle
	if err := h.CallHost(ctx, p.Host, "bundle-worktree", map[string]any{"session": p.Session}, &far); err != nil {
		return nil, err
	}
	repo, err := OpenRepo(ctx, h, c, p.Repo)
	if err != nil {
		return nil, err
	}
	branch := strings.TrimSpace(p.Branch)
	if branch == "" {
		branch = far.Branch
	}
	session := strings.TrimSpace(p.Name)
	if session == "" {
		session = worktree.SessionName(repo.Name, branch)
	}
	from := p.Host + ":" + p.Session
	pl := &wtPlan{verb: "pull-worktree", repo: repo, base: far.BaseSHA, baseSHA: far.BaseSHA, launchedBy: h.FanCaller(c).SessionID, by: c,
		pulledFrom: from, pull: &worktree.Bundle{Branch: far.Branch, Base: far.BaseSHA, Head: far.HeadSHA, Bundle: far.Bundle, Patch: far.Patch},
		attempts: []*wtAttempt{{branch: branch, session: session, dir: worktree.Dir(t.dataDir(), repo.Name, branch), newBranch: true}}}
	if err := t.makeWorktrees(c, pl); err != nil {
		return nil, err
	}
	row := t.attemptRows(pl)[0]
	return proto.WorktreeCreated{Type: "worktree_created", Repo: repo.Root, RepoName: repo.Name, Base: far.BaseSHA, BaseSHA: far.BaseSHA, CreatedBranch: true,
		PulledFrom: from, Attempt: row}, nil
}
