package daemon

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// Stand-in agents are real programs on a real PTY: shell scripts that draw
// a prompt and read their input. Their state comes the way a harness hook
// sends it (set-agent-state from outside the pane), so each test decides
// when the agent is "at its prompt".

// standIn writes an executable script named name in a fresh folder and
// returns its path.
func standIn(t *testing.T, name, body string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, name)
	writeExecutable(t, p, []byte("#!/bin/sh\n"+body+"\n"), 0o755)
	return p
}

// promptAgent draws a banner and a prompt, then reads what is typed.
const promptAgent = `printf 'stand-in agent 1.0\r\nready> '; exec cat >/dev/null`

type startCall struct {
	res map[string]any
	err *proto.Error
}

// startAsync calls start-agent on its own connection and hands back the
// answer when it comes.
func startAsync(t *testing.T, sock string, params map[string]any) <-chan startCall {
	t.Helper()
	r := dialRPC(t, sock)
	ch := make(chan startCall, 1)
	go func() {
		res, err := r.call("start-agent", params)
		ch <- startCall{res, err}
	}()
	return ch
}

// windowNamed waits for a window of that name in the session and returns
// its id.
func windowNamed(t *testing.T, r *rpc, session, name string) string {
	t.Helper()
	id := ""
	eventually(t, "window "+name+" in "+session, func() bool {
		res, err := r.call("list-windows", map[string]any{"session": session})
		if err != nil {
			return false
		}
		for _, w := range res["windows"].([]any) {
			m := w.(map[string]any)
			if m["name"] == name {
				id = str(m["window_id"])
				return true
			}
		}
		return false
	})
	return id
}

func agentScreen(t *testing.T, r *rpc, window string) string {
	t.Helper()
	return str(r.must("capture-pane", map[string]any{"window": window})["content"])
}

func answer(t *testing.T, ch <-chan startCall) startCall {
	t.Helper()
	select {
	case c := <-ch:
		return c
	case <-time.After(guard):
		t.Fatal("start-agent never answered")
	}
	return startCall{}
}

// The session is created, the window runs the agent, the call answers once
// the agent reads idle, and the first prompt is typed then, not before.
func TestStartAgentCreatesTheSessionWaitsAndTypesThePrompt(t *testing.T) {
	t.Parallel()
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	_, sock := serverWith(t, func(o *Options) { o.Tracker.Clock = clk })
	r := dialRPC(t, sock)
	agent := standIn(t, "my-agent", promptAgent)
	cwd := t.TempDir()
	ch := startAsync(t, sock, map[string]any{"agent": agent, "session": "fresh", "name": "reviewer", "cwd": cwd,
		"prompt": "Review the last commit.", "args": []string{"--fast", "two words"}})

	w := windowNamed(t, r, "fresh", "reviewer")
	eventually(t, "the agent drew its prompt", func() bool { return strings.Contains(agentScreen(t, r, w), "ready>") })
	select {
	case c := <-ch:
		t.Fatalf("answered before the agent was ready: %v %v", c.res, c.err)
	default:
	}
	if strings.Contains(agentScreen(t, r, w), "Review the last") {
		t.Fatal("the prompt was typed before the agent was ready")
	}
	report(t, r, w, "idle", "", "")
	c := answer(t, ch)
	if c.err != nil {
		t.Fatalf("start-agent: %s: %s", c.err.Code, c.err.Message)
	}
	res := c.res
	for k, want := range map[string]any{"type": "agent_started", "session": "fresh", "created_session": true, "window_id": w, "pty_id": w,
		"name": "reviewer", "agent": "my-agent", "cwd": cwd, "ready": true, "ready_by": "idle", "outcome": "ready", "prompt_status": "sent",
		"command": agent + " --fast 'two words'"} {
		if res[k] != want {
			t.Errorf("%s = %v, want %v (%v)", k, res[k], want, res)
		}
	}
	if res["session_id"] == "" || res["workspace"] != float64(1) {
		t.Errorf("session_id/workspace: %v", res)
	}
	eventually(t, "the prompt on the agent's screen", func() bool { return strings.Contains(agentScreen(t, r, w), "Review the last commit.") })
	// The focus stayed where it was: the new window is the session's only
	// one, so it holds it; a second start does not take it.
	ch2 := startAsync(t, sock, map[string]any{"agent": agent, "session": "fresh"})
	w2 := windowNamed(t, r, "fresh", "my-agent")
	report(t, r, w2, "done", "", "")
	c2 := answer(t, ch2)
	if c2.err != nil || c2.res["created_session"] != false || c2.res["ready_by"] != "done" || c2.res["name"] != "my-agent" {
		t.Fatalf("second start: %v %v", c2.res, c2.err)
	}
	if lw := r.must("list-windows", map[string]any{"session": "fresh"}); lw["focused_window_id"] != w {
		t.Fatalf("the focus moved to the second agent: %v", lw["focused_window_id"])
	}
}

// A known harness is found by name in the caller's PATH and runs with it.
func TestStartAgentFindsAKnownAgentInTheCallersPath(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	// It says whether it runs with the caller's PATH (the screen is
	// too narrow to print a temp folder's PATH whole).
	claude := standIn(t, "claude", `case "$PATH" in "$(dirname "$0")":*) echo path-ok;; esac; echo "greeting=$GREETING"; printf '> '; exec cat >/dev/null`)
	path := filepath.Dir(claude) + ":/usr/bin:/bin"
	ch := startAsync(t, sock, map[string]any{"agent": "claude", "session": "work", "name": "cc", "path": path, "env": []string{"GREETING=hi there"}})
	w := windowNamed(t, r, "work", "cc")
	eventually(t, "the agent runs with the caller's PATH", func() bool {
		sc := agentScreen(t, r, w)
		return strings.Contains(sc, "path-ok") && strings.Contains(sc, "greeting=hi there")
	})
	report(t, r, w, "idle", "", "")
	c := answer(t, ch)
	if c.err != nil || c.res["agent"] != "claude-code" || c.res["command"] != claude || c.res["ready"] != true {
		t.Fatalf("start-agent claude: %v %v", c.res, c.err)
	}

	// Not in that PATH: not installed, and nothing opened.
	_, err := r.call("start-agent", map[string]any{"agent": "codex", "session": "work", "path": filepath.Dir(claude)})
	if err == nil || err.Code != proto.CodeCommandFailed || !strings.Contains(err.Message, "codex") {
		t.Fatalf("codex not on PATH: %v", err)
	}
	if n := r.must("list-windows", map[string]any{"session": "work"})["total"]; n != float64(1) {
		t.Fatalf("a refused start opened a window: %v", n)
	}
}

// An agent stopped on a screen that needs the person ends the wait as
// blocked, the pane kept and no prompt typed (acceptance W3).
func TestStartAgentBlockedKeepsThePane(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	agent := standIn(t, "my-agent", promptAgent)
	ch := startAsync(t, sock, map[string]any{"agent": agent, "session": "work", "name": "trust", "prompt": "never typed"})
	w := windowNamed(t, r, "work", "trust")
	report(t, r, w, "needs_input", "approval", "Do you trust the files in this folder?")
	c := answer(t, ch)
	if c.err != nil {
		t.Fatal(c.err.Message)
	}
	for k, want := range map[string]any{"ready": false, "outcome": "blocked", "blocked_by": "approval", "state": "needs_input", "prompt_status": "not_sent"} {
		if c.res[k] != want {
			t.Errorf("%s = %v, want %v", k, c.res[k], want)
		}
	}
	if !strings.Contains(str(c.res["reason"]), "trust the files") {
		t.Errorf("reason %q does not say what it waits on", c.res["reason"])
	}
	if _, err := r.call("get-window", map[string]any{"window": w}); err != nil {
		t.Fatalf("the blocked pane was closed: %v", err)
	}
	if strings.Contains(agentScreen(t, r, w), "never typed") {
		t.Fatal("the prompt was typed into a blocked agent")
	}
}

// ready_timeout and the 30 s Inbox question run on the daemon's clock.
func TestStartAgentTimeoutAndTheUnrecognisedScreenQuestion(t *testing.T) {
	t.Parallel()
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	_, sock := serverWith(t, func(o *Options) { o.Tracker.Clock = clk })
	r := dialRPC(t, sock)
	agent := standIn(t, "my-agent", promptAgent)
	ch := startAsync(t, sock, map[string]any{"agent": agent, "session": "work", "name": "slow", "ready_timeout": 60000})
	w := windowNamed(t, r, "work", "slow")
	report(t, r, w, "working", "", "")

	clk.Advance(29 * time.Second)
	if l := listAtt(t, r, nil); l.Total != 0 {
		t.Fatalf("a question before 30 s: %+v", l)
	}
	clk.Advance(time.Second)
	l := waitList(t, r, nil, "the unrecognised-screen question", func(l attList) bool { return l.Total == 1 })
	if it := l.Items[0]; it.Kind != "question" || it.Window != w || it.Summary != noticeUnrecognised {
		t.Fatalf("item: %+v", it)
	}
	select {
	case c := <-ch:
		t.Fatalf("answered before its timeout: %v %v", c.res, c.err)
	default:
	}
	clk.Advance(30 * time.Second)
	c := answer(t, ch)
	if c.err != nil || c.res["ready"] != false || c.res["outcome"] != "timeout" || c.res["state"] != "working" {
		t.Fatalf("timeout: %v %v", c.res, c.err)
	}
	if _, err := r.call("get-window", map[string]any{"window": w}); err != nil {
		t.Fatalf("the window was closed on timeout: %v", err)
	}
}

// A pane that reached its prompt in time, or sits on a known prompt, gets
// no question.
func TestStartAgentNoQuestionOnceReadyOrBlocked(t *testing.T) {
	t.Parallel()
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	_, sock := serverWith(t, func(o *Options) { o.Tracker.Clock = clk })
	r := dialRPC(t, sock)
	agent := standIn(t, "my-agent", promptAgent)
	ch := startAsync(t, sock, map[string]any{"agent": agent, "session": "work", "name": "quick"})
	w := windowNamed(t, r, "work", "quick")
	report(t, r, w, "idle", "", "")
	answer(t, ch)
	report(t, r, w, "working", "", "") // the person gave it work
	ch = startAsync(t, sock, map[string]any{"agent": agent, "session": "work", "name": "asks"})
	w2 := windowNamed(t, r, "work", "asks")
	report(t, r, w2, "needs_input", "question", "Pick a model")
	answer(t, ch)
	// The control: still working, it gets the question.
	ch = startAsync(t, sock, map[string]any{"agent": agent, "session": "work", "name": "control", "ready_timeout": 1000})
	w3 := windowNamed(t, r, "work", "control")
	report(t, r, w3, "working", "", "")
	clk.Advance(31 * time.Second)
	answer(t, ch)
	l := waitList(t, r, nil, "the control's question", func(l attList) bool {
		for _, it := range l.Items {
			if it.Window == w3 && it.Summary == noticeUnrecognised {
				return true
			}
		}
		return false
	})
	for _, it := range l.Items {
		if it.Window != w3 && it.Summary == noticeUnrecognised {
			t.Fatalf("a question for a pane that was ready or blocked: %+v", it)
		}
	}
	if l.Total != 2 {
		t.Fatalf("want the blocked pane's item and the control's question: %+v", l)
	}
}

// An agent that exits before its prompt closes its window: the wait says
// so, with the exit status.
func TestStartAgentExitBeforeThePrompt(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	agent := standIn(t, "broken-agent", `echo 'no API key' >&2; exit 3`)
	res := r.must("start-agent", map[string]any{"agent": agent, "session": "work"})
	if res["ready"] != false || res["outcome"] != "window_closed" || !strings.Contains(str(res["reason"]), "status 3") {
		t.Fatalf("exit before the prompt: %v", res)
	}
}

// Bad input is refused before anything opens.
func TestStartAgentRefusals(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	agent := standIn(t, "my-agent", promptAgent)
	cases := []struct {
		params map[string]any
		code   string
		words  []string
	}{
		{map[string]any{"agent": "nosuchagent"}, proto.CodeInvalidParams, []string{"not an agent tuios knows"}},
		{map[string]any{"agent": "claude", "protocol": "mcp"}, proto.CodeInvalidParams, []string{"--protocol mcp", "not a protocol tuios speaks"}},
		{map[string]any{"agent": "gemini 'unclosed", "protocol": "acp"}, proto.CodeInvalidParams, []string{"cannot be read", "unclosed single quote"}},
		{map[string]any{"agent": "no-such-acp-agent --acp", "protocol": "acp"}, proto.CodeCommandFailed, []string{"no-such-acp-agent is not installed"}},
		{map[string]any{"agent": agent, "grants": "read,root"}, proto.CodeInvalidParams, []string{"root", "is not a grant"}},
		{map[string]any{"agent": "claude", "clone": true}, proto.CodeInvalidParams, []string{"--clone"}},
		{map[string]any{"agent": "claude", "repo": "/no/such/src"}, "repo_not_found", []string{"no folder /no/such/src"}},
		{map[string]any{"agent": "claude", "repo": "/", "cwd": "/"}, proto.CodeInvalidParams, []string{"--repo or --cwd"}},
		{map[string]any{"agent": agent, "env": []string{"TUIOS_PANE_ID=x"}}, proto.CodeInvalidParams, []string{"TUIOS_PANE_ID"}},
		{map[string]any{"agent": agent, "env": []string{"1BAD=x"}}, proto.CodeInvalidParams, []string{"NAME=VALUE"}},
		{map[string]any{"agent": agent, "cwd": "relative/dir"}, proto.CodeInvalidParams, []string{"absolute"}},
		{map[string]any{"agent": "/no/such/agent"}, proto.CodeInvalidParams, []string{"not an executable"}},
		{map[string]any{"agent": "claude --model x"}, proto.CodeInvalidParams, []string{"more than one word"}},
	}
	for _, c := range cases {
		_, err := r.call("start-agent", c.params)
		if err == nil || err.Code != c.code {
			t.Fatalf("%v: want %s, got %v", c.params, c.code, err)
		}
		for _, w := range c.words {
			if !strings.Contains(err.Message, w) {
				t.Fatalf("%v: %q does not say %q", c.params, err.Message, w)
			}
		}
	}
	_, err := r.call("start-agent", map[string]any{"agent": "nosuchagent"})
	if err.Hint == nil || len(err.Hint.Available) < 3 || !strings.Contains(strings.Join(err.Hint.Available, " "), "claude") {
		t.Fatalf("the refusal lists no known agents: %+v", err.Hint)
	}
	if res := r.must("list-sessions", map[string]any{}); res["total"] != float64(0) {
		t.Fatalf("a refused start created a session: %v", res)
	}
}

// Over a link, start-agent needs the open capability, the first prompt
// needs write, and no variable crosses.
func TestStartAgentOverALink(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	local := dialRPC(t, sock)
	catPane(t, local, "api")
	agent := standIn(t, "my-agent", promptAgent)
	l := linkRPC(t, sock, "build", false)

	srv.applyLinkPolicy(policyFile(map[string]config.Host{"build": {Allow: allow("list", "write")}}))
	_, err := l.call("start-agent", map[string]any{"agent": agent, "session": "api"})
	wantForbidden(t, "without open", err, "open")

	srv.applyLinkPolicy(policyFile(map[string]config.Host{"build": {Allow: allow("open")}}))
	_, err = l.call("start-agent", map[string]any{"agent": agent, "session": "api", "prompt": "hi"})
	wantForbidden(t, "prompt without write", err, "write")
	_, err = l.call("start-agent", map[string]any{"agent": agent, "session": "api", "env": []string{"A=1"}})
	wantForbidden(t, "env over a link", err, "link")
	_, err = l.call("start-agent", map[string]any{"agent": agent, "session": "api", "path": "/tmp"})
	wantForbidden(t, "PATH over a link", err, "link")
	if n := local.must("list-windows", map[string]any{"session": "api"})["total"]; n != float64(1) {
		t.Fatalf("a refused start opened a window: %v", n)
	}

	ch := make(chan startCall, 1)
	go func() {
		res, err := l.call("start-agent", map[string]any{"agent": agent, "session": "api", "name": "far", "ready_timeout": 60000})
		ch <- startCall{res, err}
	}()
	w := windowNamed(t, local, "api", "far")
	report(t, local, w, "idle", "", "")
	if c := answer(t, ch); c.err != nil || c.res["ready"] != true {
		t.Fatalf("start-agent with open: %v %v", c.res, c.err)
	}
}

// A caller that hangs up ends its wait (its timer is released); the agent
// goes on starting, and a kill-session while waiting says so.
func TestStartAgentHangUpAndSessionClosed(t *testing.T) {
	t.Parallel()
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	_, sock := serverWith(t, func(o *Options) { o.Tracker.Clock = clk })
	r := dialRPC(t, sock)
	agent := standIn(t, "my-agent", promptAgent)

	ch := startAsync(t, sock, map[string]any{"agent": agent, "session": "work", "name": "doomed"})
	w := windowNamed(t, r, "work", "doomed")
	r.must("kill-session", map[string]any{"session": "work"})
	c := answer(t, ch)
	if c.err != nil || c.res["outcome"] != "session_closed" || c.res["ready"] != false || c.res["window_id"] != w {
		t.Fatalf("session closed while waiting: %v %v", c.res, c.err)
	}

	caller := dialRPC(t, sock)
	b, _ := json.Marshal(map[string]any{"id": 1, "verb": "start-agent", "params": map[string]any{"agent": agent, "session": "work", "name": "orphan"}})
	if _, err := caller.c.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
	w = windowNamed(t, r, "work", "orphan")
	eventually(t, "the prompt drawn", func() bool { return strings.Contains(agentScreen(t, r, w), "ready>") })
	armed := clk.Pending() // its ready timer and its 30 s watch among them
	caller.c.Close()
	eventually(t, "the hung-up wait released its timer", func() bool { return clk.Pending() == armed-1 })
	report(t, r, w, "idle", "", "")
	eventually(t, "the watch ended once the agent was ready", func() bool { return clk.Pending() == armed-2 })
	if _, err := r.call("get-window", map[string]any{"window": w}); err != nil {
		t.Fatalf("the agent was stopped when its caller hung up: %v", err)
	}
}

// --env entries the daemon accepts are NAME=VALUE with a valid name that
// tuios does not set itself; nothing else passes.
func FuzzStartAgentEnv(f *testing.F) {
	for _, s := range []string{"A=1", "TUIOS_X=1", "PATH=/bin", "1A=x", "A", "=x", "A=b=c", "TMUX=1", "A=\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, kv string) {
		err := checkAgentEnv([]string{kv})
		name, val, ok := strings.Cut(kv, "=")
		if err != nil {
			return
		}
		if !ok || !validEnvName(name) || strings.HasPrefix(name, "TUIOS_") || name == "PATH" || name == "TMUX" || name == "TMUX_PANE" ||
			strings.ContainsRune(val, 0) {
			t.Fatalf("accepted %q", kv)
		}
	})
}

// With agent tracking off nothing could say the agent is ready: refused.
func TestStartAgentRefusedWithAgentsOff(t *testing.T) {
	t.Parallel()
	f, err := config.Parse([]byte("[agents]\nenabled = false\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, sock := serverWith(t, func(o *Options) { o.Config = f })
	r := dialRPC(t, sock)
	agent := standIn(t, "my-agent", promptAgent)
	if _, perr := r.call("start-agent", map[string]any{"agent": agent, "session": "w"}); perr == nil || perr.Code != codeAgentsDisabled {
		t.Fatalf("agents off: %v", perr)
	}
	if res := r.must("list-sessions", map[string]any{}); res["total"] != float64(0) {
		t.Fatalf("a refused start created a session: %v", res)
	}
}
