package cli_test

import (
	"bufio"
	"crypto/md5"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/e2e"
)

// TestMain removes the binary the end-to-end tests built. Run with
// FAKE_ACP_AGENT set, the test binary is instead an agent that
// speaks ACP on its stdio (agent_proto_fake_test.go).
func TestMain(m *testing.M) {
	if mode := os.Getenv("FAKE_ACP_AGENT"); mode != "" {
		os.Exit(fakeProtoAgent(mode))
	}
	os.Exit(e2e.Main(m))
}

// tuiosBin is cmd/tuios, built once for the end-to-end tests.
func tuiosBin(t testing.TB) string {
	t.Helper()
	return e2e.Binary(t)
}

// realAgent holds cost of the process's real-agent budget until t ends
// (e2e.RealAgent): every test that starts a real agent CLI takes it
// first, so that only a few agents start at once.
func realAgent(t testing.TB, cost e2e.AgentCost) {
	t.Helper()
	e2e.RealAgent(t, cost)
}

// agentStarted gives back the test's start turn once its agent drew its
// prompt (e2e.AgentStarted): the next node agent starts while this one
// works.
func agentStarted(t testing.TB) {
	e2e.AgentStarted(t)
}

// The costs of real agents: a native binary (Claude Code, Codex) is
// light, one on node or bun (Gemini CLI, Qwen Code, opencode, Kilo,
// claude-code-acp) heavy.
const (
	lightAgent = e2e.Light
	heavyAgent = e2e.Heavy
)

// env is one isolated tuios world: its own runtime dir (so its own daemon),
// home and shell.
type env struct {
	t    testing.TB
	bin  string
	dir  string
	vars []string
}

func newEnv(t testing.TB) *env {
	t.Helper()
	bin := tuiosBin(t)
	w := e2e.NewWorld(t, bin)
	e := &env{t: t, bin: bin, dir: w.Dir, vars: w.Vars}
	t.Cleanup(func() { e.run("kill-server") })
	return e
}

type result struct {
	out, err string
	code     int
}

func (e *env) run(args ...string) result {
	return e.runIn("", args...)
}

func (e *env) runIn(stdin string, args ...string) result {
	e.t.Helper()
	cmd := exec.Command(e.bin, args...)
	cmd.Env = e.vars
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatalf("running tuios %v: %v", args, err)
	}
	return result{out.String(), errb.String(), code}
}

// ok runs a verb that must succeed and returns its stdout.
func (e *env) ok(args ...string) string {
	e.t.Helper()
	r := e.run(args...)
	if r.code != 0 {
		e.t.Fatalf("tuios %s: exit %d\nstdout: %s\nstderr: %s%s", strings.Join(args, " "), r.code, r.out, r.err, e.waitedPane(args))
	}
	return r.out
}

// waitedPane is, for a wait-for that failed, what the pane it watched
// shows: a timeout's cause is on that screen.
func (e *env) waitedPane(args []string) string {
	if len(args) == 0 || args[0] != "wait-for" {
		return ""
	}
	capture := []string{"capture-pane", "--scrollback", "--lines", "30"}
	for i := 1; i+1 < len(args); i++ {
		if args[i] == "-s" || args[i] == "-w" {
			capture = append(capture, args[i], args[i+1])
		}
	}
	c := e.run(capture...)
	return "\nthe pane:\n" + c.out + c.err
}

func (e *env) json(v any, args ...string) {
	e.t.Helper()
	out := e.ok(append([]string{args[0], "--json"}, args[1:]...)...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		e.t.Fatalf("tuios %v: bad JSON %v:\n%s", args, err, out)
	}
}

// workDir makes the env's working directory for an agent, its symlinks
// resolved (agents record the real path as the project's).
func (e *env) workDir() string {
	work := filepath.Join(e.dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		e.t.Fatal(err)
	}
	if w, err := filepath.EvalSymlinks(work); err == nil {
		work = w
	}
	return work
}

func (e *env) socket() string { return filepath.Join(e.dir, "run", "tuios", "tuios.sock") }

// fresh is a marker the pane assembles, so neither the echo of the command
// nor an earlier run can match it.
// sleeper is a shell line whose sleep prints "sleeping_<tag>" (assembled,
// so the line's echo does not match) once it runs as the foreground job.
func sleeper(tag string) string {
	return `sh -c 'printf "%s_` + tag + `\n" sleeping; exec sleep 30'`
}

func fresh(t *testing.T) (cmd, marker string) {
	n := time.Now().UnixNano()
	return fmt.Sprintf("printf 'mk_%%s_done\\n' %d", n), fmt.Sprintf("mk_%d_done", n)
}

func TestSessionsAndWindows(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if out := e.ok("ls"); !strings.Contains(out, "No sessions") {
		t.Fatalf("ls on a new daemon: %s", out)
	}
	e.ok("new", "--detach", "work")
	if r := e.run("new", "--detach", "work"); r.code != 1 || !strings.Contains(r.err, "already exists") || !strings.Contains(r.err, "work") {
		t.Fatalf("duplicate session: %+v", r)
	}
	var created struct {
		WindowID  string `json:"window_id"`
		Name      string `json:"name"`
		Focused   bool   `json:"focused"`
		Unplaced  bool   `json:"unplaced"`
		Workspace int    `json:"workspace"`
	}
	e.json(&created, "new-window", "-s", "work", "build", "--workspace", "2", "--no-focus")
	if created.Name != "build" || created.Workspace != 2 || created.Focused || !created.Unplaced {
		t.Fatalf("new-window: %+v", created)
	}
	var list struct {
		Windows []struct {
			WindowID    string `json:"window_id"`
			Index       int    `json:"index"`
			DisplayName string `json:"display_name"`
			Workspace   int    `json:"workspace"`
			Focused     bool   `json:"focused"`
			AgentState  string `json:"agent_state"`
		} `json:"windows"`
		Total int `json:"total"`
	}
	e.json(&list, "list-windows", "-s", "work")
	if list.Total != 2 || list.Windows[1].WindowID != created.WindowID || !list.Windows[0].Focused {
		t.Fatalf("list-windows: %+v", list)
	}
	table := e.ok("list-windows", "-s", "work")
	for _, want := range []string{"IDX", "AGENT", "build", "2 window(s). * marks the focused one."} {
		if !strings.Contains(table, want) {
			t.Fatalf("table lacks %q:\n%s", want, table)
		}
	}
	// Addressing: id, index, unique prefix, name.
	// (The prefix reaches a letter or the dash: an all-digit one is an index.)
	prefix := created.WindowID[:max(6, strings.IndexFunc(created.WindowID, func(r rune) bool { return r < '0' || r > '9' })+1)]
	for _, addr := range []string{created.WindowID, "1", prefix, "build"} {
		var w struct {
			WindowID string `json:"window_id"`
		}
		e.json(&w, "get-window", "-s", "work", "-w", addr)
		if w.WindowID != created.WindowID {
			t.Fatalf("address %q found %s", addr, w.WindowID)
		}
	}
	// A name another window holds is refused (it would address neither);
	// ambiguity itself is covered in TestWindowAddressing (args_e2e_test.go).
	e.ok("new-window", "-s", "work", "twin", "--no-focus")
	if r := e.run("new-window", "-s", "work", "twin", "--no-focus"); r.code != 1 || !strings.Contains(r.err, `the name "twin" is taken`) {
		t.Fatalf("duplicate name: %+v", r)
	}
	e.ok("new-window", "-s", "work", "twin2", "--no-focus") // four windows, as below counts
	if r := e.run("get-window", "-s", "work", "-w", "nosuch"); r.code != 1 || !strings.Contains(r.err, "no window") || !strings.Contains(r.err, "build") {
		t.Fatalf("unknown window: %+v", r)
	}
	// Workspaces, focus, move, rename, minimize.
	e.ok("focus-window", "-s", "work", "build")
	var info struct {
		Workspace int `json:"current_workspace"`
		Windows   int `json:"windows"`
	}
	e.json(&info, "session-info", "-s", "work")
	if info.Workspace != 2 || info.Windows != 4 {
		t.Fatalf("session-info after focusing build: %+v", info)
	}
	e.ok("move-window", "-s", "work", "-w", "build", "--workspace", "3")
	e.ok("select-workspace", "-s", "work", "1")
	e.ok("set-window", "-s", "work", "-w", "build", "--name", "builder", "--minimize")
	var w struct {
		DisplayName string `json:"display_name"`
		Workspace   int    `json:"workspace"`
		Minimized   bool   `json:"minimized"`
	}
	e.json(&w, "get-window", "-s", "work", "-w", "builder")
	if w.DisplayName != "builder" || w.Workspace != 3 || !w.Minimized {
		t.Fatalf("after move/rename/minimize: %+v", w)
	}
	var ws struct {
		Workspaces []struct {
			Workspace, Windows int
			Current            bool
		} `json:"workspaces"`
	}
	e.json(&ws, "list-workspaces", "-s", "work")
	if len(ws.Workspaces) != 9 || !ws.Workspaces[0].Current || ws.Workspaces[2].Windows != 1 {
		t.Fatalf("workspaces: %+v", ws)
	}
	// run-command closes a window by id; --list names the commands.
	if out := e.ok("run-command", "--list"); !strings.Contains(out, "CloseWindow") {
		t.Fatalf("run-command --list: %s", out)
	}
	e.ok("run-command", "-s", "work", "CloseWindow", created.WindowID)
	if r := e.run("get-window", "-s", "work", "-w", created.WindowID); r.code != 1 {
		t.Fatal("a closed window is still there")
	}
	e.ok("kill-session", "work")
	if r := e.run("session-info", "-s", "work"); r.code != 1 || !strings.Contains(r.err, "no session") {
		t.Fatalf("killed session: %+v", r)
	}
}

func TestPanesTextKeysAndWaits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("wait-for", "session-exists", "-s", "work", "--timeout", "5000")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", `(?m)^\$`, "--timeout", "10000")

	// The echoed-marker trap: a literal marker in the command matches its
	// own echo at once.
	e.ok("send-text", "-s", "work", sleeper("one")+"; echo LITERAL_MARK\n")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", "LITERAL_MARK", "--timeout", "10000")
	// It matched the echo: the command is still sleeping, so its own
	// output line is not there yet.
	for _, l := range strings.Split(e.ok("capture-pane", "-s", "work"), "\n") {
		if strings.TrimSpace(l) == "LITERAL_MARK" {
			t.Fatal("the wait should have matched the echoed command, before it ran")
		}
	}
	// ctrl+c reaches the sleep only once it is the terminal's foreground
	// job; sent while the shell is still starting it, the shell takes the
	// signal and the sleep runs on.
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", "sleeping_one", "--timeout", "10000")
	e.ok("send-keys", "-s", "work", "ctrl+c")
	// The recipe: a fresh marker the pane assembles.
	cmd, marker := fresh(t)
	e.ok("send-text", "-s", "work", "sleep 1; "+cmd+"\n")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", marker, "--timeout", "15000")
	if out := e.ok("capture-pane", "-s", "work", "--scrollback", "--lines", "3"); !strings.Contains(out, marker) {
		t.Fatalf("capture after the marker:\n%s", out)
	}
	// send-keys: named keys and ctrl combos; words lose their spaces.
	e.ok("send-keys", "-s", "work", "echo", "hi", "Enter")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", `echohi: not found`, "--timeout", "5000")
	e.ok("send-text", "-s", "work", sleeper("two")+"\n")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", "sleeping_two", "--timeout", "10000")
	e.ok("send-keys", "-s", "work", "ctrl+c")
	cmd, marker = fresh(t)
	e.ok("send-text", "-s", "work", cmd+"\n")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", marker, "--timeout", "5000")
	// Colours survive --ansi and are stripped without it.
	e.ok("send-text", "-s", "work", "printf '\\033[31mred%s\\033[0m\\n' zone\n")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", "redzone", "--timeout", "5000")
	if out := e.ok("capture-pane", "-s", "work", "--ansi"); !strings.Contains(out, "\x1b[") {
		t.Fatal("--ansi lost the colours")
	}
	if out := e.ok("capture-pane", "-s", "work"); strings.Contains(out, "\x1b[") {
		t.Fatal("plain capture kept escape sequences")
	}
	// window-idle and a timeout that says what to do.
	e.ok("wait-for", "window-idle", "-s", "work", "--idle", "300", "--timeout", "5000")
	r := e.run("wait-for", "window-output", "-s", "work", "--pattern", "never-printed-zz", "--timeout", "300")
	if r.code != 1 || !strings.Contains(r.err, "timed out") || !strings.Contains(r.err, "capture-pane") {
		t.Fatalf("timeout: %+v", r)
	}
	// window-exit: a window that runs one thing.
	e.ok("new-window", "-s", "work", "job", "--no-focus")
	e.ok("send-text", "-s", "work", "-w", "job", "exit\n")
	e.ok("wait-for", "window-exit", "-s", "work", "-w", "job", "--timeout", "10000")
	// A shell window that exited stays listed, its screen readable.
	var w struct {
		Exited bool `json:"exited"`
	}
	e.json(&w, "get-window", "-s", "work", "-w", "job")
	if !w.Exited {
		t.Fatal("an exited shell window should stay in the list")
	}
	// A megabyte of text arrives whole.
	big := strings.Repeat("x", 1<<20)
	if r := e.runIn("", "send-text", "-s", "work", "-w", "0", ": "+big[:1000]+"\n"); r.code != 0 {
		t.Fatalf("send-text: %+v", r)
	}
	if r := e.runIn(": "+big+"\n", "send-text", "-s", "work", "-"); r.code != 0 {
		t.Fatalf("1 MB send-text: %+v", r)
	}
}

func TestAgentVerbsAndThePretendAgent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	var created struct {
		WindowID string `json:"window_id"`
	}
	e.json(&created, "new-window", "-s", "work", "agent", "--no-focus", "--", e.bin, "pretend-agent", "-steps", "12", "-step", "250ms")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "working", "--timeout", "15000")
	e.ok("wait-for", "agent-state", "-s", "work", "--until", "needs_input", "--timeout", "20000")
	var st struct {
		State      string `json:"state"`
		Source     string `json:"source"`
		HarnessID  string `json:"harness_id"`
		Identity   string `json:"identity"`
		Confidence string `json:"confidence"`
		NeedsYou   bool   `json:"needs_you"`
		BlockedBy  string `json:"blocked_by"`
		Message    string `json:"message"`
		Evidence   *int64 `json:"evidence_age_ms"`
	}
	e.json(&st, "get-agent-state", "-s", "work", "-w", "agent")
	if st.State != "needs_input" || st.Source != "screen" || st.HarnessID != "claude-code" || !st.NeedsYou ||
		st.BlockedBy != "approval" || st.Identity != "hint" || st.Confidence != "strong" || st.Evidence == nil {
		t.Fatalf("on the prompt: %+v", st)
	}
	if out := e.ok("get-agent-state", "-s", "work", "-w", "agent"); strings.TrimSpace(out) != "needs_input" {
		t.Fatalf("plain get-agent-state: %q", out)
	}
	table := e.ok("list-agents", "-s", "work")
	for _, want := range []string{"ID", "NAME", "STATE", "HARNESS", "SOURCE", "MAIL", "NOTE", "│ needs_input │", "claude-code", "agent pane(s)."} {
		if !strings.Contains(table, want) {
			t.Fatalf("list-agents lacks %q:\n%s", want, table)
		}
	}
	if strings.Contains(table, "▲") { // the STATE cell is the state word, as the skill's table shows it
		t.Fatalf("list-agents draws a glyph in STATE:\n%s", table)
	}
	var all struct {
		Agents []struct {
			Name  string `json:"name"`
			State string `json:"state"`
		} `json:"agents"`
		Total int `json:"total"`
	}
	e.json(&all, "list-agents", "-s", "work")
	if all.Total != 1 {
		t.Fatalf("list-agents without --all lists non-agents: %+v", all)
	}
	e.json(&all, "list-agents", "-s", "work", "--all")
	if all.Total != 2 || all.Agents[0].State != "needs_input" {
		t.Fatalf("list-agents --all (sorted by need): %+v", all)
	}
	if out := e.ok("explain-agent-screen", "-s", "work", "-w", "agent"); !strings.Contains(out, "Do you want to proceed?") {
		t.Fatalf("explain-agent-screen:\n%s", out)
	}
	if out := e.ok("explain-agent-detect", "-s", "work", "-w", "agent"); !strings.Contains(out, "This pane runs claude-code") {
		t.Fatalf("explain-agent-detect:\n%s", out)
	}
	// A hook report beats the screen only through the rules: a screen
	// report from a caller has looked at nothing.
	r := e.run("set-agent-state", "idle", "-s", "work", "-w", "agent", "--source", "stall")
	if r.code != 0 || !strings.Contains(r.err, "Not applied") {
		t.Fatalf("a refused report: %+v", r)
	}
	if r := e.run("set-agent-state", "bogus", "-s", "work", "-w", "agent"); r.code != 1 || !strings.Contains(r.err, "needs_input") {
		t.Fatalf("bad state: %+v", r)
	}
	if r := e.run("set-agent-state", "idle", "-s", "work", "-w", "agent", "--source", "transcript"); r.code != 1 || !strings.Contains(r.err, "report, osc, screen, stall") {
		t.Fatalf("engine-only source: %+v", r)
	}
	// Answer the prompt: the loan returns and the turn finishes.
	e.ok("send-text", "-s", "work", "-w", "agent", "1")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "idle,done", "--timeout", "20000")
	// A report applied is silent.
	if r := e.run("set-agent-state", "done", "-s", "work", "-w", "agent", "-m", "all green"); r.code != 0 || r.out != "" || r.err != "" {
		t.Fatalf("an applied report printed something: %+v", r)
	}
}

func TestAVerbFromInsideAPaneActsOnThatPane(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "other") // takes the focus
	e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", `(?m)^\$`, "--timeout", "10000")
	cmd, marker := fresh(t)
	e.ok("send-text", "-s", "work", "-w", "0", "tuios set-agent-state working -m from-inside; "+cmd+"\n")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", marker, "--timeout", "10000")
	var st struct {
		State   string `json:"state"`
		Message string `json:"message"`
	}
	e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
	if st.State != "working" || st.Message != "from-inside" {
		t.Fatalf("the caller's own pane: %+v", st)
	}
	e.json(&st, "get-agent-state", "-s", "work", "-w", "other")
	if st.State != "none" {
		t.Fatalf("the focused pane took the report: %+v", st)
	}
	// tuios status from inside a pane reports through OSC 7501.
	cmd, marker = fresh(t)
	e.ok("send-text", "-s", "work", "-w", "other", "tuios status blocked --kind permission --app deploy --msg 'Approve deploy?'; "+cmd+"\n")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "other", "--pattern", marker, "--timeout", "10000")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "other", "--until", "needs_input", "--timeout", "10000")
	var ps struct {
		Source    string `json:"source"`
		BlockedBy string `json:"blocked_by"`
		Message   string `json:"message"`
	}
	e.json(&ps, "get-agent-state", "-s", "work", "-w", "other")
	if ps.Source != "program" || ps.BlockedBy != "approval" || ps.Message != "Approve deploy?" {
		t.Fatalf("program status: %+v", ps)
	}
}

// dial talks the protocol directly.
func dial(t *testing.T, e *env) (net.Conn, *bufio.Reader) {
	t.Helper()
	e.ok("ls") // start the daemon
	c, err := net.Dial("unix", e.socket())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, bufio.NewReaderSize(c, 1<<20)
}

func roundTrip(t *testing.T, c net.Conn, r *bufio.Reader, line string) map[string]any {
	t.Helper()
	if _, err := c.Write([]byte(line + "\n")); err != nil {
		t.Fatal(err)
	}
	resp, err := r.ReadBytes('\n')
	if err != nil {
		t.Fatalf("no answer to %.80q: %v", line, err)
	}
	var m map[string]any
	if err := json.Unmarshal(resp, &m); err != nil {
		t.Fatalf("bad answer %q", resp)
	}
	return m
}

func errCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func TestProtocolBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, r := dial(t, e)
	if m := roundTrip(t, c, r, `{"id":"x","verb":"hello","params":{"protocol":1}}`); m["id"] != "x" || m["result"].(map[string]any)["type"] != "hello" {
		t.Fatalf("hello: %v", m)
	}
	m := roundTrip(t, c, r, `{"id":1,"verb":"list-agent"}`)
	hint, _ := m["error"].(map[string]any)["hint"].(map[string]any)
	if errCode(m) != "unknown_verb" || hint["did_you_mean"] != "list-agents" {
		t.Fatalf("unknown verb: %v", m)
	}
	if m := roundTrip(t, c, r, `{"id":2,"verb":`); errCode(m) != "invalid_request" {
		t.Fatalf("malformed: %v", m)
	}
	if m := roundTrip(t, c, r, `{"id":3,"verb":"list-windows","params":{"sesion":"x"}}`); errCode(m) != "invalid_params" {
		t.Fatalf("unknown param: %v", m)
	}
	if m := roundTrip(t, c, r, `{"id":4,"verb":"get-window","params":{"window":"nope"}}`); errCode(m) != "session_not_found" && errCode(m) != "window_not_found" {
		t.Fatalf("unknown window: %v", m)
	}
	// An oversized line is refused and the connection goes on.
	huge := `{"verb":"send-text","params":{"text":"` + strings.Repeat("a", 17<<20) + `"}}`
	if m := roundTrip(t, c, r, huge); errCode(m) != "invalid_request" {
		t.Fatalf("oversized: %v", m)
	}
	if m := roundTrip(t, c, r, `{"id":5,"verb":"list-verbs","params":{"verb":"set-agent-state"}}`); m["result"] == nil {
		t.Fatalf("after the oversized line: %v", m)
	}
	// A client that hangs up mid-request does not hurt the daemon.
	c2, _ := net.Dial("unix", e.socket())
	c2.Write([]byte(`{"verb":"wait-for","params":{"condition":"window-output","pattern":"zz","timeout":60000}`))
	c2.Close()
	if m := roundTrip(t, c, r, `{"id":6,"verb":"list-sessions"}`); m["result"] == nil {
		t.Fatalf("after a hang-up: %v", m)
	}
}

func TestConcurrentReportersLoseNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	ids := make([]string, 20)
	for i := range ids {
		var w struct {
			WindowID string `json:"window_id"`
		}
		e.json(&w, "new-window", "-s", "work", fmt.Sprint("p", i), "--no-focus")
		ids[i] = w.WindowID
	}
	// A slow subscriber that never reads must not block anyone.
	slow, err := net.Dial("unix", e.socket())
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	slow.Write([]byte(`{"verb":"subscribe","params":{"queue":1}}` + "\n"))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func(i int, id string) {
			defer wg.Done()
			if r := e.run("set-agent-state", "needs_input", "-s", "work", "-w", id, "-m", fmt.Sprint("from ", i)); r.code != 0 {
				t.Errorf("reporter %d: %+v", i, r)
			}
		}(i, id)
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			default:
				e.run("list-agents", "-s", "work", "--json")
			}
		}
	}()
	wg.Wait()
	close(done)
	var all struct {
		Agents []struct {
			WindowID string `json:"window_id"`
			State    string `json:"state"`
			Message  string `json:"message"`
		} `json:"agents"`
	}
	e.json(&all, "list-agents", "-s", "work")
	if len(all.Agents) != 20 {
		t.Fatalf("%d of 20 reports arrived", len(all.Agents))
	}
	for _, a := range all.Agents {
		if a.State != "needs_input" || !strings.HasPrefix(a.Message, "from ") {
			t.Fatalf("lost report: %+v", a)
		}
	}
}

func TestNoDaemonExitsThree(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	open := filepath.Join(e.dir, "open")
	os.Mkdir(open, 0o755)
	e.vars = append(e.vars, "TUIOS_SOCKET="+filepath.Join(open, "tuios.sock"))
	r := e.run("ls")
	if r.code != 3 || !strings.Contains(r.err, "open to other users") {
		t.Fatalf("unusable socket dir: %+v", r)
	}
}

func TestStaleSocketIsReplacedAndALiveOneKept(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	os.MkdirAll(filepath.Dir(e.socket()), 0o700)
	ln, err := net.Listen("unix", e.socket())
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close() // a dead daemon's socket file stays behind
	e.ok("ls")
	r := e.run("daemon")
	if r.code == 0 || !strings.Contains(r.err, "already running") {
		t.Fatalf("a second daemon stole the socket: %+v", r)
	}
}

func TestSkillAndHelp(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	out := e.ok("--skill")
	for _, want := range []string{"TUIOS_PANE_ID", "wait-for", "set-agent-state", "list-agents"} {
		if !strings.Contains(out, want) {
			t.Fatalf("--skill lacks %q", want)
		}
	}
	if r := e.run("--skill", "nope"); r.code != 1 || !strings.Contains(r.err, "topics") {
		t.Fatalf("unknown topic: %+v", r)
	}
	if out := e.ok("set-agent-state", "--help"); !strings.Contains(out, "Example:") {
		t.Fatalf("help without an example:\n%s", out)
	}
	if r := e.run("list-agnets"); r.code != 1 || !strings.Contains(r.err, "list-agents") {
		t.Fatalf("typo: %+v", r)
	}
}

func TestEveryPaneKnowsWhereItIs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var created struct {
		WindowID string `json:"window_id"`
	}
	e.ok("new", "--detach", "work")
	e.json(&created, "new-window", "-s", "work", "probe")
	e.ok("send-text", "-s", "work", "-w", "probe", `printf 'env=%s\npane=%s\nwin=%s\nsess=%s\nhost=%s\n' "$TUIOS_ENV" "$TUIOS_PANE_ID" "$TUIOS_WINDOW_ID" "$TUIOS_SESSION" "$TUIOS_HOST"; echo "$TUIOS_SOCKET" | md5sum`+"\n")
	host, _ := os.Hostname()
	e.ok("wait-for", "window-output", "-s", "work", "-w", "probe", "--pattern", `host=\S+\n[0-9a-f]{32}`, "--timeout", "10000")
	out := e.ok("capture-pane", "-s", "work", "-w", "probe")
	sum := fmt.Sprintf("%x", md5sum(e.socket()+"\n"))
	for _, want := range []string{"env=1\n", "pane=" + created.WindowID, "win=" + created.WindowID, "sess=work\n", "host=" + host, sum} {
		if !strings.Contains(out, want) {
			t.Fatalf("pane environment lacks %q:\n%s", want, out)
		}
	}
}

func TestASlowSubscriberIsToldWhatItMissed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	big := filepath.Join(e.dir, "big.txt")
	os.WriteFile(big, []byte(strings.Repeat("0123456789abcdef ", 1<<17)), 0o600)
	c, r := dial(t, e)
	if m := roundTrip(t, c, r, `{"id":1,"verb":"subscribe","params":{"queue":1,"types":["output"]}}`); m["result"] == nil {
		t.Fatalf("subscribe: %v", m)
	}
	// The subscriber reads nothing while the pane prints 2 MB: its socket
	// fills, its queue overflows, and the daemon goes on regardless.
	e.ok("send-text", "-s", "work", "cat "+big+"\n")
	e.ok("wait-for", "window-idle", "-s", "work", "--idle", "500", "--timeout", "20000")
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("no gap event: %v", err)
		}
		var m map[string]any
		json.Unmarshal(line, &m)
		if m["type"] == "gap" {
			if d, _ := m["dropped"].(float64); d < 1 {
				t.Fatalf("gap without a count: %v", m)
			}
			return
		}
	}
}

func md5sum(s string) [16]byte { return md5.Sum([]byte(s)) }

// The README's main command, its first set-up line as written (go run
// ./cmd/tuios is the binary the harness built).
func TestDemo(t *testing.T) {
	t.Parallel()
	setup := e2e.SetupCommands(t)
	if len(setup) == 0 {
		t.Fatal("the README has no set-up commands")
	}
	line, ok := strings.CutPrefix(setup[0], "go run ./cmd/tuios ")
	if !ok {
		t.Fatalf("the README's first set-up command is not go run ./cmd/tuios …: %q", setup[0])
	}
	e := newEnv(t)
	r := e.run(strings.Fields(line)...)
	if r.code != 0 {
		t.Fatalf("demo: %+v", r)
	}
	for _, want := range []string{"working      detect", "working      report", "needs_input  screen", "done         report", "agent pane(s)."} {
		if !strings.Contains(r.out, want) {
			t.Fatalf("demo output lacks %q:\n%s", want, r.out)
		}
	}
	// The prompt borrowed the pane; answering it gives the claim back as
	// it was, message included.
	_, after, _ := strings.Cut(r.out, "needs_input  screen")
	if !strings.Contains(after, `working      report      "tidying the build directory"`) {
		t.Fatalf("the working message did not come back after the prompt:\n%s", r.out)
	}
}
