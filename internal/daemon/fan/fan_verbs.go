package fan

import (
	"context"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/daemon/core"
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
// PATH. Every prompt is typed once its agent is ready (prompt.go).
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

func (t *Worktrees) fanVerbs(r core.Registrar) {
	p, run := core.Handle(t.fan)
	r.AddVerb(core.Verb{Name: "fan", Class: core.StartsAgents, Agent: true, Desc: "Start one prompt in several agents, each in a git worktree and session of its own (branches fan/STEM, fan/STEM-2, …); the prompt is typed once each agent is ready", Returns: "fan_started",
		Example: `{"verb":"fan","params":{"count":3,"prompt":"Add a retry with backoff to the HTTP client.","agent":"claude,codex","repo":"/home/u/src/api","path":"/usr/local/bin:/usr/bin:/bin"}}`, Params: p, Run: run})
	p, run = core.Handle(t.compareFan)
	r.AddVerb(core.Verb{Name: "compare-fan", Class: core.Reads, Desc: "Compare the attempts of a fan: each one's agent, state, changed files and lines against the fan's base, and its last check", Returns: "fan_compare",
		Example: `{"verb":"compare-fan","params":{"session":"api-fan-demo"}}`, Params: p, Run: run})
	p, run = core.Handle(t.verifyFan)
	r.AddVerb(core.Verb{Name: "verify-fan", Class: core.Starts, Desc: "Run one command in every attempt of a fan (a window named verify in each, grants none): a pass closes its window, a failure keeps it", Returns: "fan_verify",
		Example: `{"verb":"verify-fan","params":{"session":"api-fan-demo","command":"go test ./..."}}`, Params: p, Run: run})
	p, run = core.Handle(t.keepFan)
	r.AddVerb(core.Verb{Name: "keep-fan", Class: core.AdminLocal, Desc: "Keep one attempt of a fan and remove the others (their worktrees and sessions; branches stay); with merge, bring the kept work into the base branch first", Returns: "fan_kept",
		Example: `{"verb":"keep-fan","params":{"session":"api-fan-demo-2","merge":true}}`, Params: p, Run: run})
}

func (t *Worktrees) fan(c core.Call, p *proto.FanParams) (any, *proto.Error) {
	h := t.h
	if h.Options().AgentsOff {
		return nil, core.AgentsDisabled("fan")
	}
	if p.Count < 1 || p.Count > fanMaxCount {
		return nil, proto.Errorf(proto.CodeInvalidParams, "count %d is out of range: a fan has 1 to %d attempts", p.Count, fanMaxCount).WithHint(proto.Hint{Param: "count"})
	}
	if c.Remote() && (len(p.Env) > 0 || p.Path != "") {
		return nil, proto.Errorf(proto.CodeForbidden, "variables are not set over a link: the agents run with that machine's own environment").
			WithHint(proto.Hint{Param: "env", Detail: "leave out --env when fanning on another host"})
	}
	if err := h.CheckAgentEnv(p.Env); err != nil {
		return nil, err
	}
	prompts := []string{}
	for _, text := range append([]string{p.Prompt}, p.Prompts...) {
		if len(text) > fanMaxPrompt {
			return nil, proto.Errorf(proto.CodeInvalidParams, "a prompt is %d bytes: at most %d", len(text), fanMaxPrompt).
				WithHint(proto.Hint{Param: "prompts", Detail: "put the long part in a file in the repository and ask the agents to read it"})
		}
		if strings.TrimSpace(text) != "" {
			prompts = append(prompts, text)
		}
	}
	if len(prompts) == 0 {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the prompt is empty: a fan types one prompt into every agent").WithHint(proto.Hint{Param: "prompt"})
	}
	agents, aerr := worktree.SplitAgents(p.Agent)
	if aerr != nil {
		return nil, wtError(aerr)
	}
	launches := make([]*core.AgentLaunch, len(agents))
	for i, words := range agents {
		la, err := h.ResolveAgent(core.AgentSpec{Agent: words[0], Args: words[1:], Path: p.Path, Env: p.Env, AnyProgram: true})
		if err != nil {
			return nil, err
		}
		launches[i] = &la
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
	base, baseSHA, err := baseOf(ctx, repo, p.Base, true)
	if err != nil {
		return nil, err
	}
	stem := worktree.Stem(prompts[0], strings.TrimSpace(p.Name))
	if e := repo.CheckBranch(ctx, stem); e != nil {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the stem %q is not a branch name git takes", stem).
			WithHint(proto.Hint{Param: "name", Detail: "give --name with letters, digits, '-' and '_'"})
	}
	pl := &wtPlan{verb: "fan", repo: repo, base: base, baseSHA: baseSHA, group: stem, launchedBy: h.FanCaller(c).SessionID, by: c,
		grants: g, granted: granted, readyTimeout: time.Duration(p.ReadyTimeout) * time.Millisecond}
	for i, b := range worktree.Branches(stem, p.Count) {
		pl.attempts = append(pl.attempts, &wtAttempt{n: i + 1, branch: b, session: worktree.SessionName(repo.Name, b),
			dir: worktree.Dir(t.dataDir(), repo.Name, b), newBranch: true, agent: posixCommand(agents[i%len(agents)]),
			launch: launches[i%len(launches)], prompt: prompts[i%len(prompts)]})
	}
	if err := t.makeWorktrees(c, pl); err != nil {
		return nil, err
	}
	res := proto.FanStarted{Type: "fan_started", Group: stem, Repo: repo.Root, RepoName: repo.Name, Base: base, BaseSHA: baseSHA, Count: p.Count, Cloned: cloned}
	if p.Wait {
		if err := t.waitSettled(c, pl); err != nil {
			return nil, err
		}
		res.Waited = true
	}
	res.Attempts = t.attemptRows(pl)
	return res, nil
}
