package daemon

import (
	"context"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/worktree"
)

// fan (docs/agents.md, fan and worktrees): one prompt to several agents,
// each in a worktree of its own on a branch of its own, in a session of its
// own.
//
//	fan/<stem>, fan/<stem>-2, …           the branches, from the base
//	<data>/worktrees/<repo>/fan-<stem>-N  their worktrees
//	<repo>-fan-<stem>[-N]                 their sessions: one agent each
//
// The stem is fan/ and the first words of the prompt (--name picks it).
// Agents are cycled over the attempts; each agent string is split like a
// POSIX shell and exec'd directly in the worktree, found in the caller's
// PATH. Every prompt is typed once its agent is ready (fan_prompt.go).
// The answer comes once every agent started (prompt_status pending), or
// with wait once no prompt is pending any more.
//
// The person, an admin pane, or a pane with the fan grant may fan. A pane
// without admin gives the attempts at most its own grants, and reaches
// them afterwards (their sessions are ones it launched).

// Bounds of a fan.
const (
	fanMaxCount  = 16
	fanMaxPrompt = 64 << 10
)

func (s *Server) fanVerbs(add addFunc) {
	p, h := handler(s.fan)
	add("fan", starts.withLink(capWrite)|typesInto|agentFeature, "Start one prompt in several agents, each in a git worktree and session of its own (branches fan/STEM, fan/STEM-2, …); the prompt is typed once each agent is ready", "fan_started",
		`{"verb":"fan","params":{"count":3,"prompt":"Add a retry with backoff to the HTTP client.","agent":"claude,codex","repo":"/home/u/src/api","path":"/usr/local/bin:/usr/bin:/bin"}}`, p, h)
	p, h = handler(s.compareFan)
	add("compare-fan", reads, "Compare the attempts of a fan: each one's agent, state, changed files and lines against the fan's base, and its last check", "fan_compare",
		`{"verb":"compare-fan","params":{"session":"api-fan-demo"}}`, p, h)
	p, h = handler(s.verifyFan)
	add("verify-fan", starts, "Run one command in every attempt of a fan (a window named verify in each, grants none): a pass closes its window, a failure keeps it", "fan_verify",
		`{"verb":"verify-fan","params":{"session":"api-fan-demo","command":"go test ./..."}}`, p, h)
	p, h = handler(s.keepFan)
	add("keep-fan", keeps, "Keep one attempt of a fan and remove the others (their worktrees and sessions; branches stay); with merge, bring the kept work into the base branch first", "fan_kept",
		`{"verb":"keep-fan","params":{"session":"api-fan-demo-2","merge":true}}`, p, h)
}

// keeps: fan keep removes other attempts' work and merges into the
// person's branch: the person, or an admin pane; never over a link.
const keeps = whoGranted | needAdmin | access(capLocal)

func (s *Server) fan(cn *conn, p *proto.FanParams) (any, *proto.Error) {
	if s.agentsOff {
		return nil, agentsDisabled("fan")
	}
	if p.Count < 1 || p.Count > fanMaxCount {
		return nil, proto.Errorf(proto.CodeInvalidParams, "count %d is out of range: a fan has 1 to %d attempts", p.Count, fanMaxCount).WithHint(proto.Hint{Param: "count"})
	}
	if cn.link != nil && (len(p.Env) > 0 || p.Path != "") {
		return nil, proto.Errorf(proto.CodeForbidden, "variables are not set over a link: the agents run with that machine's own environment").
			WithHint(proto.Hint{Param: "env", Detail: "leave out --env when fanning on another host"})
	}
	if err := checkAgentEnv(p.Env); err != nil {
		return nil, err
	}
	prompts := []string{}
	for _, t := range append([]string{p.Prompt}, p.Prompts...) {
		if len(t) > fanMaxPrompt {
			return nil, proto.Errorf(proto.CodeInvalidParams, "a prompt is %d bytes: at most %d", len(t), fanMaxPrompt).
				WithHint(proto.Hint{Param: "prompts", Detail: "put the long part in a file in the repository and ask the agents to read it"})
		}
		if strings.TrimSpace(t) != "" {
			prompts = append(prompts, t)
		}
	}
	if len(prompts) == 0 {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the prompt is empty: a fan types one prompt into every agent").WithHint(proto.Hint{Param: "prompt"})
	}
	agents, aerr := worktree.SplitAgents(p.Agent)
	if aerr != nil {
		return nil, wtError(aerr)
	}
	launches := make([]*agentLaunch, len(agents))
	for i, words := range agents {
		la, err := s.resolveAgent(agentLaunchSpec{agent: words[0], args: words[1:], path: p.Path, env: p.Env, anyProgram: true})
		if err != nil {
			return nil, err
		}
		launches[i] = &la
	}
	g, granted, err := s.newGrants(cn, p.Grants) // verbs_grants.go
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
	base, baseSHA, err := baseOf(ctx, repo, p.Base, true)
	if err != nil {
		return nil, err
	}
	stem := worktree.Stem(prompts[0], strings.TrimSpace(p.Name))
	if e := repo.CheckBranch(ctx, stem); e != nil {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the stem %q is not a branch name git takes", stem).
			WithHint(proto.Hint{Param: "name", Detail: "give --name with letters, digits, '-' and '_'"})
	}
	pl := &wtPlan{verb: "fan", repo: repo, base: base, baseSHA: baseSHA, group: stem, launchedBy: s.callerSessionID(cn), by: cn.call,
		grants: g, granted: granted, readyTimeout: time.Duration(p.ReadyTimeout) * time.Millisecond}
	for i, b := range worktree.Branches(stem, p.Count) {
		pl.attempts = append(pl.attempts, &wtAttempt{n: i + 1, branch: b, session: worktree.SessionName(repo.Name, b),
			dir: worktree.Dir(s.dataDir(), repo.Name, b), newBranch: true, agent: agentString(agents[i%len(agents)]),
			launch: launches[i%len(launches)], prompt: prompts[i%len(prompts)]})
	}
	if err := s.makeWorktrees(cn, pl); err != nil {
		return nil, err
	}
	res := proto.FanStarted{Type: "fan_started", Group: stem, Repo: repo.Root, RepoName: repo.Name, Base: base, BaseSHA: baseSHA, Count: p.Count, Cloned: cloned}
	if p.Wait {
		if err := s.waitSettled(cn, pl); err != nil {
			return nil, err
		}
		res.Waited = true
	}
	res.Attempts = s.attemptRows(pl)
	return res, nil
}

// agentString is an agent's words as a POSIX shell would read them back.
func agentString(words []string) string { return posixCommand(words) }
