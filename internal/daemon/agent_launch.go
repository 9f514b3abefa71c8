package daemon

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/agentproto"
	attn "github.com/tuios/tuios/internal/daemon/attention"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/proto"
)

// What start-agent (internal/daemon/agents, start.go) and the fans
// (internal/daemon/fan) ask of the core to start an agent (host_start.go,
// host_fan.go): the agent's program resolved the way a shell in the
// caller's terminal would (resolveAgent), --env checked (checkAgentEnv),
// the 30 s Inbox question for a pane that has not reached its prompt
// (watchStartNotice) and the first prompt typed and watched
// (typeFirstPrompt).
//
// With --protocol acp|codex the agent is its whole command (split as a
// POSIX shell would, nothing expanded) and the pane's process is
// `tuios agent-proto` (internal/agentproto), which runs the agent on
// pipes, draws the conversation and reports the state itself; its
// handshake is bounded by the ready timeout. The window remembers its
// protocol: request-approval holds for it without config (once and deny
// only), the reply queue knows it shows every state (queue_rest.go), and
// ask-agent waits for its last frame (internal/daemon/mailbox/ask.go,
// through core.Pane.Settle).

const (
	// startAgentDefaultReady is start-agent's ready timeout when none is
	// given, and so agent-proto's handshake bound.
	startAgentDefaultReady = 120 * time.Second
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

// typeFirstPrompt types the first prompt the way ask-agent does and says
// whether the agent took it: it went working or needs_input, finished a
// turn, or (with no harness rules to say so) drew something.
func (s *Server) typeFirstPrompt(cn *conn, w *mux.Window, text string, res *proto.AgentStarted) {
	arb := s.tracker.Arbiter()
	baseSeq := arb.Get(w.ID).CompletionSeq
	sub := arb.Subscribe(agentstate.SubscribeOptions{Pane: w.ID, Buffer: 16})
	defer sub.Close()
	harness, gen, _, perr := s.typePrompt(cn, w, w.Tracked().Screen(), text)
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
			_, gen = w.Term().LastOutput()
		case <-sub.C:
		case <-stall.C:
			res.PromptStatus = "stalled"
			res.PromptNote = "the prompt was typed but the agent showed no sign of taking it within " + startAgentStall.String() + ": look at the pane before typing it again"
			return
		case <-w.Term().Exited():
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
func (s *Server) watchStartNotice(w *mux.Window, fire <-chan struct{}, t agentstate.Timer) {
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
			case <-w.Term().Exited():
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
		ip, live := s.tab.InboxPane(w.ID) // table.go
		if live != w {
			return
		}
		s.att.Notice(ip, noticeUnrecognised)
	}()
}
