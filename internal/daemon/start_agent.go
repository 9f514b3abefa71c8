package daemon

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/agentproto"
	attn "github.com/tuios/tuios/internal/daemon/attention"
	"github.com/tuios/tuios/internal/grant"
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
// would read it.
//
// With --protocol acp|codex the agent is its whole command (split as a
// POSIX shell would, nothing expanded) and the pane's process is
// `tuios agent-proto` (internal/agentproto), which runs the agent on
// pipes, draws the conversation and reports the state itself; its
// handshake is bounded by the ready timeout. The window remembers its
// protocol: request-approval holds for it without config (once and deny
// only), the reply queue knows it shows every state (queue_rest.go), its
// errored ends the ready wait as blocked (it is exact there), and
// ask-agent waits for its last frame (internal/daemon/mailbox/ask.go, through core.Pane.Settle).
//
// Ready means the pane's agent state reads idle or done (what ask-agent
// waits for before it types). needs_input ends the wait as blocked (a
// trust dialog, a login), with the pane kept for the person; the window
// closing, its session closing, the daemon stopping and ready_timeout (on
// the daemon's clock) end it too. No lock is held across the wait, and a
// caller that hangs up ends it; the agent keeps starting.
//
// A pane started here that has not reached its prompt 30 s after it
// started, and is not on needs_input, gets an Inbox question
// (noticeUnrecognised): it waits at a screen tuios does not know,
// and only a person looking at it can tell what it wants. That watch runs
// on the daemon's clock whether or not the caller still waits.

const (
	startAgentDefaultReady = 120 * time.Second
	// startAgentNoticeAfter is when a pane not at its prompt becomes a
	// question for the person.
	startAgentNoticeAfter = 30 * time.Second
	// startAgentStall bounds how long a typed first prompt may take to
	// show that the agent took it.
	startAgentStall = 5 * time.Second
	// startAgentMaxEnv bounds --env: count, one value, all of them.
	startAgentMaxEnv      = 64
	startAgentMaxEnvValue = 32 << 10
	startAgentMaxEnvTotal = 256 << 10
	// noticeUnrecognised is that question's text (attn.NoticeUnrecognised).
	noticeUnrecognised = attn.NoticeUnrecognised
)

// Outcomes of the wait.
const (
	startReady         = "ready"
	startBlocked       = "blocked"
	startTimeout       = "timeout"
	startWindowClosed  = "window_closed"
	startSessionClosed = "session_closed"
	startShutdown      = "shutdown"
)

func (s *Server) startAgentVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.StartAgentParams) (any, *proto.Error) { return s.startAgent(cn, p) })
	add("start-agent", starts, "Open a window running an agent (creating the session when missing) and answer once it is at its prompt; with prompt, type it then", "agent_started",
		`{"verb":"start-agent","params":{"agent":"claude","name":"reviewer","session":"work","prompt":"Review the last commit.","path":"/usr/local/bin:/usr/bin:/bin"}}`, p, h)
}

// startRefusals refuses what this version does not do, naming what to do
// instead.
func startRefusals(cn *conn, p *proto.StartAgentParams) *proto.Error {
	switch {
	case p.Protocol != "" && p.Protocol != agentproto.ProtocolACP && p.Protocol != agentproto.ProtocolCodex:
		return proto.Errorf(proto.CodeInvalidParams, "--protocol %s is not a protocol tuios speaks", clipText(p.Protocol, 32)).
			WithHint(proto.Hint{Param: "protocol", Accepted: []string{"acp", "codex"}, Command: "tuios start-agent --protocol acp 'gemini --acp' --name helper"})
	case p.Repo != "" && p.Cwd != "":
		return proto.Errorf(proto.CodeInvalidParams, "give --repo or --cwd, not both: --repo runs the agent at the repository's top").
			WithHint(proto.Hint{Param: "repo"})
	case p.Clone && p.Repo == "":
		return proto.Errorf(proto.CodeInvalidParams, "--clone goes with --repo: the folder to clone into").WithHint(proto.Hint{Param: "repo"})
	}
	if cn != nil && cn.link != nil {
		if len(p.Env) > 0 || p.Path != "" {
			return proto.Errorf(proto.CodeForbidden, "variables are not set over a link: the agent runs with that machine's own environment").
				WithHint(proto.Hint{Param: "env", Detail: "leave out --env when the session is on another host"})
		}
		if p.Prompt != "" && !cn.s.linkPol.Allows(cn.link.name, capWrite) {
			return proto.Errorf(proto.CodeForbidden, "typing the first prompt needs the write capability, which this link does not have").
				WithHint(proto.Hint{Param: "prompt", Detail: "leave out --prompt, or allow \"write\" for this host in that machine's config.toml"})
		}
	}
	return nil
}

// isProtocol: the window runs tuios agent-proto (start-agent
// --protocol). Set once when it starts.
func (w *Window) isProtocol() bool { return w.protocol != "" }

// settleOutput waits until the pane has printed nothing for quiet (from
// now at the earliest), at most max. A protocol pane draws a turn's last frame just before it
// reports the turn's end, over another channel: ask-agent reads the
// answer once that frame is on the screen.
func (w *Window) settleOutput(quiet, max time.Duration) {
	start := time.Now()
	end := start.Add(max)
	for time.Now().Before(end) {
		w.mu.Lock()
		last, g := w.lastOutput, w.outputGen
		w.mu.Unlock()
		if last.Before(start) {
			// The frame may still be on its way through the pty: the
			// silence counts from now.
			last = start
		}
		wait := quiet - time.Since(last)
		if wait <= 0 {
			return
		}
		select {
		case <-g:
		case <-time.After(wait):
			return
		case <-w.exitCh:
			return
		}
	}
}

// protoArgv is the pane's command for --protocol: tuios agent-proto,
// whose handshake with the agent is bounded by the ready timeout (an
// agent that never answers is errored when start-agent stops waiting).
func protoArgv(exe, protocol string, readyMS int, agentArgv []string) []string {
	if readyMS <= 0 {
		readyMS = int(startAgentDefaultReady / time.Millisecond)
	}
	return append([]string{exe, "agent-proto", "--protocol", protocol, "--init-timeout", strconv.Itoa(readyMS), "--"}, agentArgv...)
}

// checkAgentEnv checks --env: NAME=VALUE entries within the bounds, no
// variable tuios sets for the pane itself.
func checkAgentEnv(env []string) *proto.Error {
	bad := func(format string, a ...any) *proto.Error {
		return proto.Errorf(proto.CodeInvalidParams, format, a...).WithHint(proto.Hint{Param: "env", Detail: "give each as --env NAME=VALUE (or --env NAME to pass your own value)"})
	}
	if len(env) > startAgentMaxEnv {
		return bad("%d variables: at most %d", len(env), startAgentMaxEnv)
	}
	total := 0
	for _, kv := range env {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || !validEnvName(name) {
			return bad("%q is not NAME=VALUE with a name of letters, digits and '_'", clipText(kv, 64))
		}
		if strings.HasPrefix(name, "TUIOS_") || name == "TMUX" || name == "TMUX_PANE" || name == "PATH" {
			return bad("%s is set by tuios for every pane (PATH comes from your own)", name)
		}
		if len(val) > startAgentMaxEnvValue {
			return bad("the value of %s is %d bytes: at most %d", name, len(val), startAgentMaxEnvValue)
		}
		if strings.ContainsRune(val, 0) {
			return bad("the value of %s holds a NUL byte", name)
		}
		total += len(kv)
	}
	if total > startAgentMaxEnvTotal {
		return bad("the variables are %d bytes: at most %d", total, startAgentMaxEnvTotal)
	}
	return nil
}

func validEnvName(n string) bool {
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		return false
	}
	for _, c := range n {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// agentProgram resolves the agent: a known harness's program (by harness
// id, herdr kind or a name its manifest recognises), or a path. It
// returns the harness id ("" when none is known) and the program to look
// up or run.
func (s *Server) agentProgram(agent string) (harness, program string, err *proto.Error) {
	reg := s.tracker.Detector().Registry()
	if strings.ContainsRune(agent, '/') {
		return harnessOfProgram(reg, filepath.Base(agent)), agent, nil
	}
	if strings.ContainsAny(agent, " \t") {
		return "", "", proto.Errorf(proto.CodeInvalidParams, "the agent %q is more than one word", clipText(agent, 64)).
			WithHint(proto.Hint{Param: "agent", Command: "tuios start-agent claude -- --model sonnet", Detail: "give the agent's arguments after --"})
	}
	if m, ok := reg.Lookup(detect.HarnessForKind(agent)); ok {
		if prog := m.StartProgram(); prog != "" {
			return m.ID, prog, nil
		}
	}
	if h := harnessOfProgram(reg, agent); h != "" {
		return h, agent, nil
	}
	return "", "", proto.Errorf(proto.CodeInvalidParams, "%q is not an agent tuios knows", clipText(agent, 64)).
		WithHint(proto.Hint{Param: "agent", Available: knownAgents(reg), Detail: "name a known agent, or give the path to the program (./my-agent, /opt/bin/agent)"})
}

// harnessOfProgram is the harness whose manifest recognises a program
// name as its argv[0] or process name.
func harnessOfProgram(reg *detect.Registry, name string) string {
	for _, m := range reg.Manifests() {
		if slices.Contains(m.Detect.Argv0, name) || slices.Contains(m.Detect.Comm, name) {
			return m.ID
		}
	}
	return ""
}

// knownAgents lists the programs of the known harnesses, for a hint.
func knownAgents(reg *detect.Registry) []string {
	var out []string
	for _, m := range reg.Manifests() {
		if p := m.StartProgram(); p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// agentLaunchSpec is an agent to run: a known agent's name, a path, or
// (anyProgram) any program in the caller's PATH, with its arguments.
type agentLaunchSpec struct {
	agent      string
	args       []string
	cwd        string   // where it runs ("" the daemon's folder)
	path       string   // the caller's PATH ("" the daemon's)
	env        []string // NAME=VALUE, checked by checkAgentEnv
	anyProgram bool     // fan: a program tuios knows no harness for is run too
	// protocol is acp or codex: agent is then the whole command of an
	// agent that speaks it, run under tuios agent-proto, whose handshake
	// waits at most readyMS.
	protocol string
	readyMS  int
}

// agentLaunch is how an agent runs: argv is the pane's program (env(1)
// in front when variables or another PATH must be set), agentArgv the
// agent's own words.
type agentLaunch struct {
	harness, program string
	argv, agentArgv  []string
}

// resolveAgent finds the agent's program the way a shell in the caller's
// terminal would, and builds the argv the pane runs: exec'd directly, no
// shell reads it. start-agent, fan and worktree new use it.
func (s *Server) resolveAgent(sp agentLaunchSpec) (agentLaunch, *proto.Error) {
	var harness, program string
	var err *proto.Error
	if sp.protocol != "" {
		// The whole command of an agent that speaks the protocol on its
		// stdio: 'gemini --acp', 'codex app-server'.
		words, serr := agentproto.SplitCommand(sp.agent)
		if serr != nil || len(words) == 0 || words[0] == "" {
			why := "it is empty"
			if serr != nil {
				why = serr.Error()
			}
			return agentLaunch{}, proto.Errorf(proto.CodeInvalidParams, "the agent command %q cannot be read: %s", clipText(sp.agent, 64), why).
				WithHint(proto.Hint{Param: "agent", Command: "tuios start-agent --protocol acp 'gemini --acp'"})
		}
		program = words[0]
		sp.args = append(words[1:], sp.args...)
		harness = harnessOfProgram(s.tracker.Detector().Registry(), filepath.Base(program))
	} else {
		harness, program, err = s.agentProgram(sp.agent)
	}
	if err != nil && sp.anyProgram && !strings.ContainsAny(sp.agent, " \t/") && sp.agent != "" {
		path := sp.path
		if path == "" {
			path = envValue(s.opt.Env, "PATH")
		}
		if lookPathIn(sp.agent, path) != "" {
			harness, program, err = "", sp.agent, nil
		}
	}
	if err != nil {
		return agentLaunch{}, err
	}
	for _, a := range append([]string{program}, sp.args...) {
		if strings.ContainsRune(a, 0) {
			return agentLaunch{}, proto.Errorf(proto.CodeInvalidParams, "an argument holds a NUL byte").WithHint(proto.Hint{Param: "args"})
		}
	}
	cwd := sp.cwd
	// What runs: the program found in the caller's PATH (a path is taken
	// as given, relative to the folder it runs in).
	path := sp.path
	if path == "" {
		path = envValue(s.opt.Env, "PATH")
	}
	abs := program
	if strings.ContainsRune(program, '/') {
		if !filepath.IsAbs(abs) {
			base := cwd
			if base == "" {
				base, _ = os.Getwd()
			}
			abs = filepath.Join(base, abs)
		}
		if fi, serr := os.Stat(abs); serr != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
			return agentLaunch{}, proto.Errorf(proto.CodeInvalidParams, "%s is not an executable file", clipText(abs, 256)).WithHint(proto.Hint{Param: "agent"})
		}
	} else if abs = lookPathIn(program, path); abs == "" {
		return agentLaunch{}, proto.Errorf(proto.CodeCommandFailed, "%s is not installed: no %s in your PATH", program, program).
			WithHint(proto.Hint{Param: "agent", Detail: "install it, or give the path to the program"})
	}
	if strings.ContainsRune(abs, '=') {
		// env(1) would read it as a variable.
		return agentLaunch{}, proto.Errorf(proto.CodeInvalidParams, "the program's path %s holds '=', which tuios cannot run", clipText(abs, 256)).WithHint(proto.Hint{Param: "agent"})
	}
	agentArgv := append([]string{abs}, sp.args...)
	argv := agentArgv
	if sp.protocol != "" {
		// The pane's process is tuios itself, which runs the agent on
		// pipes, draws the conversation and reports the state.
		argv = protoArgv(s.opt.Executable, sp.protocol, sp.readyMS, agentArgv)
	}
	if len(sp.env) > 0 || path != envValue(s.opt.Env, "PATH") {
		// Variables the panes do not get already go through env(1).
		// Without them (a daemon the CLI started has the person's
		// PATH) the agent is the pane's program itself, as
		// new-window would run it: herdr_env.go reads its name.
		envBin, lerr := exec.LookPath("env")
		if lerr != nil {
			envBin = "/usr/bin/env"
		}
		argv = []string{envBin}
		if path != "" {
			argv = append(argv, "PATH="+path)
		}
		if sp.protocol != "" {
			argv = append(append(argv, sp.env...), protoArgv(s.opt.Executable, sp.protocol, sp.readyMS, agentArgv)...)
		} else {
			argv = append(append(argv, sp.env...), agentArgv...)
		}
	}
	return agentLaunch{harness: harness, program: program, argv: argv, agentArgv: agentArgv}, nil
}

// lookPathIn finds a program in a PATH list, as a shell would: the first
// executable regular file. Relative PATH entries are skipped (they would
// mean the daemon's folder, not the caller's).
func lookPathIn(prog, path string) string {
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		cand := filepath.Join(dir, prog)
		if fi, err := os.Stat(cand); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return cand
		}
	}
	return ""
}

// envValue is a variable of a NAME=VALUE list.
func envValue(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// posixCommand is argv as a POSIX shell would read it back.
func posixCommand(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = shquote.Word("posix", a)
	}
	return strings.Join(words, " ")
}

// freeNameLocked is base, or base-2, base-3… when a window of the session has
// it. Called with s.mu held.
func freeNameLocked(ss *Session, base string) string {
	for i := 1; ; i++ {
		n := base
		if i > 1 {
			n = base + "-" + strconv.Itoa(i)
		}
		if nameTakenLocked(ss, n, nil) == nil {
			return n
		}
	}
}

func (s *Server) startAgent(cn *conn, p *proto.StartAgentParams) (any, *proto.Error) {
	if s.agentsOff {
		// With tracking off nothing would ever say the agent is ready.
		return nil, agentsDisabled("start-agent")
	}
	if err := startRefusals(cn, p); err != nil {
		return nil, err
	}
	if err := checkAgentEnv(p.Env); err != nil {
		return nil, err
	}
	if p.Cwd != "" && !filepath.IsAbs(p.Cwd) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "--cwd %q is not an absolute path", clipText(p.Cwd, 64)).
			WithHint(proto.Hint{Param: "cwd", Detail: "give the folder from /"})
	}
	// Where it runs: the repository's top, the folder named, else the
	// caller's folder when it is a pane.
	cwd := p.Cwd
	cloned := false
	if p.Repo != "" {
		ctx, cancel := context.WithTimeout(cn.ctx, wtGitWait)
		var rerr *proto.Error
		if cloned, rerr = s.cloneFirst(ctx, p.Repo, p.Clone, p.CloneFrom); rerr != nil { // worktree_make.go
			cancel()
			return nil, rerr
		}
		repo, rerr := s.openRepo(ctx, cn, p.Repo)
		cancel()
		if rerr != nil {
			return nil, rerr
		}
		cwd = repo.Dir
	}
	if cwd == "" {
		s.mu.Lock()
		if w := s.callerWindow(cn); w != nil {
			cwd = w.cwdNow()
		}
		s.mu.Unlock()
	}
	if cwd != "" {
		if fi, serr := os.Stat(cwd); serr != nil || !fi.IsDir() {
			return nil, proto.Errorf(proto.CodeInvalidParams, "--cwd %q is not a folder here", clipText(cwd, 256)).WithHint(proto.Hint{Param: "cwd"})
		}
	}
	la, err := s.resolveAgent(agentLaunchSpec{agent: p.Agent, args: p.Args, cwd: cwd, path: p.Path, env: p.Env, protocol: p.Protocol, readyMS: p.ReadyTimeout})
	if err != nil {
		return nil, err
	}
	harness, program, argv, agentArgv := la.harness, la.program, la.argv, la.agentArgv

	g, granted, err := s.newGrants(cn, p.Grants) // verbs_grants.go
	if err != nil {
		return nil, err
	}
	// The session: found, or created when missing.
	s.mu.Lock()
	var ss *Session
	created := false
	if p.Session != "" && s.sessions[p.Session] == nil || p.Session == "" && len(s.sessions) == 0 {
		if cn.callKnown && cn.call.inside && !cn.call.grants.Has(grant.Admin) {
			s.mu.Unlock()
			return nil, proto.Errorf(proto.CodeForbidden, "start-agent is refused for this pane: starting an agent in a new session needs the admin grant (a pane without admin starts agents in its own session)").
				WithHint(grantHint(grant.Admin, cn.call))
		}
		ss, err = s.newSessionLocked(p.Session)
		created = err == nil
	} else {
		ss, err = s.session(cn, p.Session)
	}
	name := strings.TrimSpace(p.Name)
	if err == nil {
		if name == "" {
			name = freeNameLocked(ss, filepath.Base(program))
		} else {
			err = nameTakenLocked(ss, name, nil)
		}
	}
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	timeout := startAgentDefaultReady
	if p.ReadyTimeout > 0 {
		timeout = time.Duration(p.ReadyTimeout) * time.Millisecond
	}
	// Both clocks start before the window does, so a window anyone can
	// see already has its timers armed.
	expired, noticeDue := make(chan struct{}), make(chan struct{})
	readyTimer := s.clock.AfterFunc(timeout, func() { close(expired) })
	defer readyTimer.Stop()
	noticeTimer := s.clock.AfterFunc(startAgentNoticeAfter, func() { close(noticeDue) })
	w, err := s.startWindow(ss, windowSpec{name: name, argv: argv, cwd: cwd, workspace: p.Workspace, noFocus: !p.Focus, grants: g, granted: granted, protocol: p.Protocol})
	if err != nil {
		noticeTimer.Stop()
		if created {
			s.killSession(ss)
		}
		return nil, err
	}
	s.watchStartNotice(w, noticeDue, noticeTimer)

	res := proto.AgentStarted{Type: "agent_started", Session: ss.Name, SessionID: ss.ID, CreatedSession: created, WindowID: w.ID, PtyID: w.ID,
		Agent: harness, Command: posixCommand(agentArgv), Cwd: cwd, Protocol: p.Protocol, Cloned: cloned}
	if res.Agent == "" {
		res.Agent = filepath.Base(program)
	}
	if res.Cwd == "" {
		res.Cwd, _ = os.Getwd() // a pane with no folder given starts in the daemon's
	}
	if perr := s.waitAgentReady(cn, ss, w, timeout, expired, &res); perr != nil {
		return nil, perr
	}
	if p.Prompt != "" {
		if res.Ready {
			s.typeFirstPrompt(cn, w, p.Prompt, &res)
		} else {
			res.PromptStatus, res.PromptNote = "not_sent", "the agent was not at its prompt, so nothing was typed"
		}
	}
	s.mu.Lock()
	res.Name, res.Workspace = w.DisplayName(), w.workspace
	s.mu.Unlock()
	return res, nil
}

// waitAgentReady waits for the agent to reach its prompt, or for what
// ends the wait, and fills the result's ready, state and outcome. It
// holds no lock while it waits. A caller that hangs up gets an error (its
// connection is gone; the agent keeps starting).
func (s *Server) waitAgentReady(cn *conn, ss *Session, w *Window, timeout time.Duration, expired <-chan struct{}, res *proto.AgentStarted) *proto.Error {
	arb := s.tracker.Arbiter()
	sub := arb.Subscribe(agentstate.SubscribeOptions{Pane: w.ID, Buffer: 16})
	defer sub.Close()
	for {
		snap := arb.Get(w.ID)
		res.State = snap.State.String()
		switch snap.State {
		case agentstate.Idle, agentstate.Done:
			res.Ready, res.ReadyBy, res.Outcome = true, snap.State.String(), startReady
			res.Reason = "it reads " + snap.State.String()
			return nil
		case agentstate.Errored:
			if !w.isProtocol() {
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
		case <-w.exitCh:
			select {
			case <-s.done:
				res.Outcome, res.Reason = startShutdown, "the daemon stopped"
				return nil
			default:
			}
			s.mu.Lock()
			gone := s.sessions[ss.Name] != ss
			s.mu.Unlock()
			w.mu.Lock()
			code := w.exitStatus.Code
			w.mu.Unlock()
			if gone {
				res.Outcome, res.Reason = startSessionClosed, "the session closed"
			} else {
				res.Outcome, res.Reason = startWindowClosed, "the agent exited with status "+strconv.Itoa(code)+" before it reached its prompt"
			}
			res.State = agentstate.None.String()
			return nil
		case <-s.done:
			res.Outcome, res.Reason = startShutdown, "the daemon stopped"
			return nil
		case <-cn.closed:
			return proto.Errorf(proto.CodeTimeout, "the caller hung up; the agent goes on starting in %s", w.ID[:8])
		}
	}
}

// typeFirstPrompt types the first prompt the way ask-agent does and says
// whether the agent took it: it went working or needs_input, finished a
// turn, or (with no harness rules to say so) drew something.
func (s *Server) typeFirstPrompt(cn *conn, w *Window, text string, res *proto.AgentStarted) {
	arb := s.tracker.Arbiter()
	baseSeq := arb.Get(w.ID).CompletionSeq
	sub := arb.Subscribe(agentstate.SubscribeOptions{Pane: w.ID, Buffer: 16})
	defer sub.Close()
	harness, gen, _, perr := s.typePrompt(cn, w, w.pane.Screen(), text)
	if perr != nil {
		res.PromptStatus, res.PromptNote = "not_sent", perr.Message
		return
	}
	stall := time.NewTimer(startAgentStall)
	defer stall.Stop()
	for {
		sn := arb.Get(w.ID)
		if sn.State == agentstate.Working || sn.State == agentstate.NeedsInput || sn.CompletionSeq > baseSeq {
			res.PromptStatus = "sent"
			res.State = sn.State.String()
			return
		}
		select {
		case <-gen:
			if harness == "" {
				res.PromptStatus = "sent"
				return
			}
			w.mu.Lock()
			gen = w.outputGen
			w.mu.Unlock()
		case <-sub.C:
		case <-stall.C:
			res.PromptStatus = "stalled"
			res.PromptNote = "the prompt was typed but the agent showed no sign of taking it within " + startAgentStall.String() + ": look at the pane before typing it again"
			return
		case <-w.exitCh:
			res.PromptStatus, res.PromptNote = "stalled", "the window closed after the prompt was typed"
			return
		case <-cn.closed:
			res.PromptStatus = "sent"
			return
		}
	}
}

// watchStartNotice opens the Inbox question for a pane started here that
// has not reached its prompt 30 s after it started and is not on
// needs_input. It watches on the daemon's clock, whoever waits on the
// start, and ends as soon as the pane reaches its prompt or closes.
func (s *Server) watchStartNotice(w *Window, fire <-chan struct{}, t agentstate.Timer) {
	arb := s.tracker.Arbiter()
	sub := arb.Subscribe(agentstate.SubscribeOptions{Pane: w.ID, Buffer: 16})
	atPrompt := func() bool {
		st := arb.Get(w.ID).State
		return st == agentstate.Idle || st == agentstate.Done
	}
	go func() {
		defer sub.Close()
		defer t.Stop()
		for {
			if atPrompt() {
				return
			}
			select {
			case c := <-sub.C:
				// A prompt reached counts even when the pane has moved on
				// by the time this reads it (the person gave it work).
				if c.To == agentstate.Idle || c.To == agentstate.Done {
					return
				}
				continue
			case <-w.exitCh:
				return
			case <-s.done:
				return
			case <-fire:
			}
			break
		}
		if arb.Get(w.ID).State == agentstate.NeedsInput {
			return // it has its own item
		}
		s.mu.Lock()
		var ip inbox.Pane
		if s.windows[w.ID] == w {
			ip = inbox.Pane{ID: w.ID, Session: w.session.Name, Workspace: strconv.Itoa(w.workspace), Name: w.DisplayName()}
		}
		s.mu.Unlock()
		if ip.ID == "" {
			return
		}
		s.att.Notice(ip, noticeUnrecognised)
	}()
}
