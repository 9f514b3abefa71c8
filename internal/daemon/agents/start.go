package agents

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/agentproto"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/shquote"
)

// start-agent (docs/agents.md, Start an agent): open a window running an
// agent, creating the session when it is missing, and answer once the agent
// is at its prompt.
//
// How it runs: the agent's argv is exec'd directly, not typed at a shell,
// so nothing depends on a shell's start-up and quoting. The program is
// looked up in the caller's PATH (the CLI sends its own) and runs with
// that PATH, as it would in the terminal the person typed the command in.
// When that PATH is the panes' own and no --env is given, the agent is the
// pane's program itself; otherwise the pane's process is env(1), which sets
// the variables and execs the agent in place (same pid, so detection sees
// the agent). The result's command is the agent's argv as a POSIX shell
// would read it. The core resolves it (core.Host.ResolveAgent), as it does
// for the fans.
//
// With --protocol acp|codex the agent is its whole command and the pane's
// process is `tuios agent-proto` (internal/agentproto); its errored ends
// the ready wait as blocked (it is exact there).
//
// Ready means the pane's agent state reads idle or done (what ask-agent
// waits for before it types). needs_input ends the wait as blocked (a
// trust dialog, a login), with the pane kept for the person; the window
// closing, its session closing, the daemon stopping and ready_timeout (on
// the daemon's clock) end it too. No lock is held across the wait, and a
// caller that hangs up ends it; the agent keeps starting.
//
// A pane started here that has not reached its prompt 30 s after it
// started, and is not on needs_input, gets an Inbox question (the core's
// watch, core.WindowSpec.StartNotice): it waits at a screen tuios does
// not know, and only a person looking at it can tell what it wants. That
// watch runs on the daemon's clock whether or not the caller still waits.

// startDefaultReady is the ready timeout when none is given.
const startDefaultReady = 120 * time.Second

// Outcomes of the wait.
const (
	startReady         = "ready"
	startBlocked       = "blocked"
	startTimeout       = "timeout"
	startWindowClosed  = "window_closed"
	startSessionClosed = "session_closed"
	startShutdown      = "shutdown"
)

func (f *Feature) addStartVerbs(h core.Host) {
	p, run := core.Handle(func(c core.Call, p *proto.StartAgentParams) (any, *proto.Error) { return f.startAgent(c, p) })
	h.AddVerb(core.Verb{Name: "start-agent", Class: core.Starts,
		Desc:    "Open a window running an agent (creating the session when missing) and answer once it is at its prompt; with prompt, type it then",
		Returns: "agent_started",
		Example: `{"verb":"start-agent","params":{"agent":"claude","name":"reviewer","session":"work","prompt":"Review the last commit.","path":"/usr/local/bin:/usr/bin:/bin"}}`,
		Params:  p, Run: run})
}

// startRefusals refuses what this version does not do, naming what to do
// instead.
func startRefusals(h core.Host, c core.Call, p *proto.StartAgentParams) *proto.Error {
	switch {
	case p.Protocol != "" && p.Protocol != agentproto.ProtocolACP && p.Protocol != agentproto.ProtocolCodex:
		return proto.Errorf(proto.CodeInvalidParams, "--protocol %s is not a protocol tuios speaks", core.Clip(p.Protocol, 32)).
			WithHint(proto.Hint{Param: "protocol", Accepted: []string{"acp", "codex"}, Command: "tuios start-agent --protocol acp 'gemini --acp' --name helper"})
	case p.Repo != "" && p.Cwd != "":
		return proto.Errorf(proto.CodeInvalidParams, "give --repo or --cwd, not both: --repo runs the agent at the repository's top").
			WithHint(proto.Hint{Param: "repo"})
	case p.Clone && p.Repo == "":
		return proto.Errorf(proto.CodeInvalidParams, "--clone goes with --repo: the folder to clone into").WithHint(proto.Hint{Param: "repo"})
	}
	if c.Remote() {
		if len(p.Env) > 0 || p.Path != "" {
			return proto.Errorf(proto.CodeForbidden, "variables are not set over a link: the agent runs with that machine's own environment").
				WithHint(proto.Hint{Param: "env", Detail: "leave out --env when the session is on another host"})
		}
		if p.Prompt != "" && !h.LinkWrites(c) {
			return proto.Errorf(proto.CodeForbidden, "typing the first prompt needs the write capability, which this link does not have").
				WithHint(proto.Hint{Param: "prompt", Detail: "leave out --prompt, or allow \"write\" for this host in that machine's config.toml"})
		}
	}
	return nil
}

func (f *Feature) startAgent(c core.Call, p *proto.StartAgentParams) (any, *proto.Error) {
	h := f.h
	if h.Options().AgentsOff {
		// With tracking off nothing would ever say the agent is ready.
		return nil, core.AgentsDisabled("start-agent")
	}
	if err := startRefusals(h, c, p); err != nil {
		return nil, err
	}
	if err := h.CheckAgentEnv(p.Env); err != nil {
		return nil, err
	}
	if p.Cwd != "" && !filepath.IsAbs(p.Cwd) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "--cwd %q is not an absolute path", core.Clip(p.Cwd, 64)).
			WithHint(proto.Hint{Param: "cwd", Detail: "give the folder from /"})
	}
	// Where it runs: the repository's top, the folder named, else the
	// caller's folder when it is a pane.
	cwd := p.Cwd
	cloned := false
	if p.Repo != "" {
		dir, cl, err := h.AgentRepo(c, p.Repo, p.Clone, p.CloneFrom)
		if err != nil {
			return nil, err
		}
		cwd, cloned = dir, cl
	}
	if cwd == "" {
		cwd = h.CallerDir(c)
	}
	if cwd != "" {
		if fi, serr := os.Stat(cwd); serr != nil || !fi.IsDir() {
			return nil, proto.Errorf(proto.CodeInvalidParams, "--cwd %q is not a folder here", core.Clip(cwd, 256)).WithHint(proto.Hint{Param: "cwd"})
		}
	}
	la, err := h.ResolveAgent(core.AgentSpec{Agent: p.Agent, Args: p.Args, Cwd: cwd, Path: p.Path, Env: p.Env, Protocol: p.Protocol, ReadyMS: p.ReadyTimeout})
	if err != nil {
		return nil, err
	}
	g, granted, err := h.NewGrants(c, p.Grants)
	if err != nil {
		return nil, err
	}
	// The session: found, or created when missing.
	ss, name, created, err := h.AgentSession(c, p.Session, strings.TrimSpace(p.Name), filepath.Base(la.Program))
	if err != nil {
		return nil, err
	}
	timeout := startDefaultReady
	if p.ReadyTimeout > 0 {
		timeout = time.Duration(p.ReadyTimeout) * time.Millisecond
	}
	// Both clocks start before the window does, so a window anyone can
	// see already has its timers armed (the Inbox question's: StartNotice).
	expired := make(chan struct{})
	readyTimer := h.Clock().AfterFunc(timeout, func() { close(expired) })
	defer readyTimer.Stop()
	w, err := h.StartWindow(ss.ID, core.WindowSpec{Name: name, Argv: la.Argv, Dir: cwd, Workspace: p.Workspace, NoFocus: !p.Focus,
		Grants: g, Granted: granted, Protocol: p.Protocol, StartNotice: true})
	if err != nil {
		if created {
			h.KillSession(ss.Name, ss.ID)
		}
		return nil, err
	}

	res := proto.AgentStarted{Type: "agent_started", Session: ss.Name, SessionID: ss.ID, CreatedSession: created, WindowID: w.ID, PtyID: w.ID,
		Agent: la.Harness, Command: posixCommand(la.AgentArgv), Cwd: cwd, Protocol: p.Protocol, Cloned: cloned}
	if res.Agent == "" {
		res.Agent = filepath.Base(la.Program)
	}
	if res.Cwd == "" {
		res.Cwd, _ = os.Getwd() // a pane with no folder given starts in the daemon's
	}
	if perr := f.waitAgentReady(c, ss, w, p.Protocol != "", timeout, expired, &res); perr != nil {
		return nil, perr
	}
	if p.Prompt != "" {
		if res.Ready {
			var state string
			res.PromptStatus, res.PromptNote, state = h.FirstPrompt(c, w.ID, p.Prompt)
			if state != "" {
				res.State = state
			}
		} else {
			res.PromptStatus, res.PromptNote = "not_sent", "the agent was not at its prompt, so nothing was typed"
		}
	}
	res.Name, res.Workspace = w.DisplayName, w.Workspace
	if now, ok := h.Find(w.ID); ok {
		res.Name, res.Workspace = now.DisplayName, now.Workspace
	}
	return res, nil
}

// waitAgentReady waits for the agent in window to reach its prompt, or
// for what ends the wait, and fills the result's ready, state and
// outcome. It holds no lock while it waits. A caller that hangs up gets
// an error (its connection is gone; the agent keeps starting).
func (f *Feature) waitAgentReady(c core.Call, ss core.SessionView, w core.WindowView, protocol bool, timeout time.Duration, expired <-chan struct{}, res *proto.AgentStarted) *proto.Error {
	h := f.h
	arb := h.Tracker().Arbiter()
	window := w.ID
	sub := arb.Subscribe(agentstate.SubscribeOptions{Pane: window, Buffer: 16})
	defer sub.Close()
	// The handle StartWindow gave: it still reads the exit status of an
	// agent whose window closed before the wait began.
	pane := w.Pane
	exited := pane.Exited()
	for {
		snap := arb.Get(window)
		res.State = snap.State.String()
		switch snap.State {
		case agentstate.Idle, agentstate.Done:
			res.Ready, res.ReadyBy, res.Outcome = true, snap.State.String(), startReady
			res.Reason = "it reads " + snap.State.String()
			return nil
		case agentstate.Errored:
			if !protocol {
				break
			}
			// A protocol pane's errored is exact (the agent failed its
			// handshake, exited, broke the protocol): the person acts.
			res.Outcome, res.BlockedBy = startBlocked, "error"
			res.Reason = "it stopped on an error"
			if snap.Message != "" {
				res.Reason += ": " + inbox.CleanSummary(snap.Message)
			}
			res.Reason += "; the window stays open to show it"
			return nil
		case agentstate.NeedsInput:
			res.Outcome, res.BlockedBy = startBlocked, snap.BlockedBy().String()
			if res.BlockedBy == "" || res.BlockedBy == "none" {
				res.BlockedBy = "input"
			}
			res.Reason = "it waits for " + res.BlockedBy
			if snap.Message != "" {
				res.Reason += ": " + inbox.CleanSummary(snap.Message)
			}
			res.Reason += "; the window stays open for you to answer it"
			return nil
		}
		select {
		case <-sub.C:
		case <-expired:
			res.Outcome = startTimeout
			res.Reason = "it did not reach its prompt within " + timeout.String() + " (it reads " + res.State + "); the window stays open"
			return nil
		case <-exited:
			select {
			case <-h.Done():
				res.Outcome, res.Reason = startShutdown, "the daemon stopped"
				return nil
			default:
			}
			now, ok := h.FindSession(ss.Name)
			gone := !ok || now.ID != ss.ID
			code, _ := pane.ExitCode()
			if gone {
				res.Outcome, res.Reason = startSessionClosed, "the session closed"
			} else {
				res.Outcome, res.Reason = startWindowClosed, "the agent exited with status "+strconv.Itoa(code)+" before it reached its prompt"
			}
			res.State = agentstate.None.String()
			return nil
		case <-h.Done():
			res.Outcome, res.Reason = startShutdown, "the daemon stopped"
			return nil
		case <-c.Context().Done():
			return proto.Errorf(proto.CodeTimeout, "the caller hung up; the agent goes on starting in %s", window[:8])
		}
	}
}

// posixCommand is argv as a POSIX shell would read it back.
func posixCommand(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = shquote.Word("posix", a)
	}
	return strings.Join(words, " ")
}
