package daemon

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/worktree"
)

// The worktree verbs (docs/agents.md, fan and worktrees): a session in a
// worktree of its own (new-worktree), the worktrees tuios made
// (list-worktrees), taking one away (remove-worktree), and carrying one's
// work from another machine (bundle-worktree there, pull-worktree here).

func (s *Server) worktreeVerbs(add addFunc) {
	p, h := handler(s.newWorktree)
	add("new-worktree", starts.withLink(capWrite)|typesInto, "Make a git worktree on a branch (made from base when missing) and a session in it, running a shell or an agent", "worktree_created",
		`{"verb":"new-worktree","params":{"branch":"feat/retry","base":"main","agent":"claude","repo":"/home/u/src/api"}}`, p, h)
	p, h = handler(s.listWorktrees)
	add("list-worktrees", reads, "List the worktrees tuios made: session, branch, fan group, agent state, changes against the base, gone, prompt_status", "worktree_list",
		`{"verb":"list-worktrees","params":{"group":"fan/add-retry"}}`, p, h)
	p, h = handler(s.removeWorktree)
	add("remove-worktree", opens, "Remove a worktree tuios made and close its session; refused with worktree_dirty when it has changes, unless stash or force; the branch stays", "worktree_removed",
		`{"verb":"remove-worktree","params":{"session":"api-feat-retry","stash":true}}`, p, h)
	p, h = handler(s.bundleWorktree)
	add("bundle-worktree", reads.withLink(capWrite), "Pack a worktree's work to carry it to another machine: its commits since the base as a git bundle, what is not committed as a binary patch; nothing changes here", "worktree_bundle",
		`{"verb":"bundle-worktree","params":{"session":"api-fan-demo-2"}}`, p, h)
	p, h = handler(s.pullWorktree)
	add("pull-worktree", keeps, "Bring a worktree's work from a linked host into a new branch, worktree and session here (the host's bundle-worktree); nothing changes there", "worktree_created",
		`{"verb":"pull-worktree","params":{"host":"build","session":"api-fan-demo-2","repo":"/home/u/src/api"}}`, p, h)
}

func (s *Server) newWorktree(cn *conn, p *proto.NewWorktreeParams) (any, *proto.Error) {
	if p.Prompt != "" && p.Agent == "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "a prompt needs an agent to type it into").WithHint(proto.Hint{Param: "agent"})
	}
	if cn.link != nil && (len(p.Env) > 0 || p.Path != "") {
		return nil, proto.Errorf(proto.CodeForbidden, "variables are not set over a link: the agent runs with that machine's own environment").
			WithHint(proto.Hint{Param: "env"})
	}
	if err := checkAgentEnv(p.Env); err != nil {
		return nil, err
	}
	var la *agentLaunch
	if p.Agent != "" {
		words, e := worktree.SplitCommand(p.Agent)
		if e != nil {
			return nil, wtError(e)
		}
		l, err := s.resolveAgent(agentLaunchSpec{agent: words[0], args: words[1:], path: p.Path, env: p.Env, anyProgram: true})
		if err != nil {
			return nil, err
		}
		la = &l
	} else if len(p.Env) > 0 {
		return nil, proto.Errorf(proto.CodeInvalidParams, "--env goes with --agent").WithHint(proto.Hint{Param: "env"})
	}
	g, granted, err := s.newGrants(cn, p.Grants)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(cn.ctx, wtGitWait)
	defer cancel()
	cloned, err := s.cloneFirst(ctx, p.Repo, p.Clone, p.CloneFrom)
	if err != nil {
		return nil, err
	}
	repo, err := s.openRepo(ctx, cn, p.Repo)
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
	pl := &wtPlan{verb: "new-worktree", repo: repo, base: base, baseSHA: baseSHA, launchedBy: s.callerSessionID(cn), by: cn.call,
		grants: g, granted: granted, readyTimeout: time.Duration(p.ReadyTimeout) * time.Millisecond,
		attempts: []*wtAttempt{{branch: branch, session: session, dir: worktree.Dir(s.dataDir(), repo.Name, branch), newBranch: !exists,
			agent: agent, launch: la, prompt: p.Prompt}}}
	if err := s.makeWorktrees(cn, pl); err != nil {
		return nil, err
	}
	if p.Wait {
		if err := s.waitSettled(cn, pl); err != nil {
			return nil, err
		}
	}
	row := s.attemptRows(pl)[0]
	return proto.WorktreeCreated{Type: "worktree_created", Repo: repo.Root, RepoName: repo.Name, Base: base, BaseSHA: baseSHA, CreatedBranch: !exists, Cloned: cloned, Attempt: row}, nil
}

func (s *Server) listWorktrees(cn *conn, p *proto.ListWorktreesParams) (any, *proto.Error) {
	repoRoot := ""
	if p.Repo != "" {
		ctx, cancel := context.WithTimeout(cn.ctx, 10*time.Second)
		r, err := s.openRepo(ctx, cn, p.Repo)
		cancel()
		if err != nil {
			return nil, err
		}
		repoRoot = r.Root
	}
	group := normGroup(p.Group)
	recs := s.wts.all(func(r *wtRecord) bool {
		return (repoRoot == "" || r.Repo == repoRoot) && (group == "" || r.Group == group)
	})
	// A pane without admin lists what it reaches.
	kept := recs[:0]
	for _, r := range recs {
		if s.fanInReach(cn, r) == nil {
			kept = append(kept, r)
		}
	}
	rows := s.rowsOf(cn.ctx, kept, !p.NoChanges)
	out := make([]proto.WorktreeRow, len(rows))
	for i, r := range kept {
		out[i] = proto.WorktreeRow{FanRow: rows[i], SessionID: r.SessionID, Repo: r.Repo, RepoName: r.RepoName, Base: r.Base, BaseSHA: r.BaseSHA,
			Group: r.Group, PromptNote: r.PromptNote, PromptReadyBy: r.PromptReadyBy, Created: r.Created, PulledFrom: r.PulledFrom}
	}
	return proto.WorktreeList{Type: "worktree_list", Worktrees: out}, nil
}

// recordOf is the record of a session the caller reaches.
func (s *Server) recordOf(cn *conn, session string) (wtRecord, *proto.Error) {
	rec, ok := s.wts.bySession(session)
	if !ok {
		s.mu.Lock()
		_, err := s.findSession(cn, session)
		s.mu.Unlock()
		if err != nil {
			return rec, err
		}
		return rec, proto.Errorf(codeNotWorktree, "session %q is in no worktree tuios made", session).
			WithHint(proto.Hint{Param: "session", Command: "tuios worktree ls", Detail: "tuios removes only the worktrees it made; git worktree remove takes away the others"})
	}
	if err := s.fanInReach(cn, rec); err != nil {
		return rec, err
	}
	return rec, nil
}

func (s *Server) removeWorktree(cn *conn, p *proto.RemoveWorktreeParams) (any, *proto.Error) {
	if p.Stash && p.Force {
		return nil, proto.Errorf(proto.CodeInvalidParams, "give --stash or --force, not both").WithHint(proto.Hint{Param: "stash"})
	}
	rec, err := s.recordOf(cn, p.Session)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(cn.ctx, wtGitWait)
	defer cancel()
	res := proto.WorktreeRemoved{Type: "worktree_removed", Session: rec.Session, Worktree: rec.Worktree, Branch: rec.Branch}
	var rm worktree.Removed
	if _, serr := os.Stat(rec.Worktree); serr != nil {
		rm.Gone = true // removed behind tuios's back: only the record and the session go
	} else {
		repo, perr := s.openRepo(ctx, cn, rec.Repo)
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
		s.mu.Lock()
		ss := s.sessions[rec.Session]
		s.mu.Unlock()
		if ss != nil && ss.ID == rec.SessionID {
			s.killSession(ss)
			closed = true
		}
	}
	s.wts.forget(rec.SessionID)
	if p.KeepSession {
		s.mu.Lock()
		if ss := s.sessions[rec.Session]; ss != nil && ss.ID == rec.SessionID {
			ss.fan.Store(nil)
		}
		s.mu.Unlock()
	}
	res.Stashed, res.Stash, res.Forced, res.Gone, res.SessionClosed = rm.Stashed, rm.Stash, rm.Forced, rm.Gone, closed
	return res, nil
}

func (s *Server) bundleWorktree(cn *conn, p *proto.BundleWorktreeParams) (any, *proto.Error) {
	rec, err := s.recordOf(cn, p.Session)
	if err != nil {
		return nil, err
	}
	if _, serr := os.Stat(rec.Worktree); serr != nil {
		return nil, proto.Errorf(codeNotWorktree, "the worktree %s is gone", rec.Worktree)
	}
	ctx, cancel := context.WithTimeout(cn.ctx, wtGitWait)
	defer cancel()
	repo, err := s.openRepo(ctx, cn, rec.Worktree)
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

func (s *Server) pullWorktree(cn *conn, p *proto.PullWorktreeParams) (any, *proto.Error) {
	if !hosts.ValidName(p.Host) || p.Host == hosts.Local {
		return nil, proto.Errorf(proto.CodeInvalidParams, "%q is not a linked host's name", clipText(p.Host, 64)).WithHint(proto.Hint{Param: "host", Command: "tuios hosts"})
	}
	ctx, cancel := context.WithTimeout(cn.ctx, wtGitWait)
	defer cancel()
	var far proto.WorktreeBundle
	if err := s.links.Call(ctx, p.Host, "bundle-worktree", map[string]any{"session": p.Session}, &far); err != nil {
		return nil, err
	}
	repo, err := s.openRepo(ctx, cn, p.Repo)
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
	pl := &wtPlan{verb: "pull-worktree", repo: repo, base: far.BaseSHA, baseSHA: far.BaseSHA, launchedBy: s.callerSessionID(cn), by: cn.call,
		pulledFrom: from, pull: &worktree.Bundle{Branch: far.Branch, Base: far.BaseSHA, Head: far.HeadSHA, Bundle: far.Bundle, Patch: far.Patch},
		attempts: []*wtAttempt{{branch: branch, session: session, dir: worktree.Dir(s.dataDir(), repo.Name, branch), newBranch: true}}}
	if err := s.makeWorktrees(cn, pl); err != nil {
		return nil, err
	}
	row := s.attemptRows(pl)[0]
	return proto.WorktreeCreated{Type: "worktree_created", Repo: repo.Root, RepoName: repo.Name, Base: far.BaseSHA, BaseSHA: far.BaseSHA, CreatedBranch: true,
		PulledFrom: from, Attempt: row}, nil
}
