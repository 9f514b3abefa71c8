package cli_test

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// hookIn runs tuios agent-hook in a pane, as a harness would: the payload
// on stdin, no TUIOS_PANE_ID (so the pane is found by ancestry), and waits
// for it to finish.
func hookIn(t *testing.T, e *env, window, harness, payload string) {
	t.Helper()
	f := filepath.Join(e.dir, "payload.json")
	if err := os.WriteFile(f, []byte(payload), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd, marker := fresh(t)
	e.ok("send-text", "-s", "work", "-w", window, "env -u TUIOS_PANE_ID -u TUIOS_SESSION tuios agent-hook "+harness+" < "+f+"; "+cmd+"\n")
	e.ok("wait-for", "window-output", "-s", "work", "-w", window, "--pattern", marker, "--timeout", "10000")
}

type hookState struct {
	State         string            `json:"state"`
	Source        string            `json:"source"`
	Message       string            `json:"message"`
	BlockedBy     string            `json:"blocked_by"`
	Harness       string            `json:"harness_id"`
	SessionID     string            `json:"agent_session_id"`
	Meta          map[string]string `json:"meta"`
	CompletionSeq int               `json:"completion_seq"`
	Subagents     int               `json:"subagents"`
	SubagentList  []struct {
		ID, Type, Description, State string
	} `json:"subagent_list"`
}

func TestAgentHookReportsAClaudeCodeTurnToItsOwnPane(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "other") // takes the focus: the hook must not report there
	e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", `(?m)^\$`, "--timeout", "10000")
	get := func() hookState {
		var st hookState
		e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
		return st
	}
	hookIn(t, e, "0", "claude-code", `{"hook_event_name":"SessionStart","session_id":"s-1","source":"startup","cwd":"/src"}`)
	if st := get(); st.State != "idle" || st.Source != "report" || st.SessionID != "s-1" || st.Harness != "claude-code" {
		t.Fatalf("after SessionStart: %+v", st)
	}
	hookIn(t, e, "0", "claude-code", `{"hook_event_name":"PreToolUse","session_id":"s-1","cwd":"/src","tool_name":"Bash","tool_input":{"command":"go test ./..."}}`)
	if st := get(); st.State != "working" || st.Meta["now"] != "Bash: go test ./..." {
		t.Fatalf("after PreToolUse: %+v", st)
	}
	hookIn(t, e, "0", "claude-code", `{"hook_event_name":"PermissionRequest","session_id":"s-1","tool_name":"Bash","tool_input":{"command":"make   deploy\n  --prod"}}`)
	if st := get(); st.State != "needs_input" || st.BlockedBy != "approval" || st.Message != "approve Bash: make deploy --prod" {
		t.Fatalf("after PermissionRequest: %+v", st)
	}
	hookIn(t, e, "0", "claude-code", `{"hook_event_name":"PreToolUse","session_id":"s-1","tool_name":"Task","tool_input":{"description":"Research tmux","subagent_type":"general-purpose"}}`)
	hookIn(t, e, "0", "claude-code", `{"hook_event_name":"SubagentStart","session_id":"s-1","agent_id":"ab34","agent_type":"general-purpose"}`)
	hookIn(t, e, "0", "claude-code", `{"hook_event_name":"PreToolUse","session_id":"s-1","agent_id":"ab34","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if st := get(); st.State != "working" || st.Subagents != 1 || st.SubagentList[0].Description != "Research tmux" || st.Meta["subagents"] != "1 subagent" {
		t.Fatalf("with a subagent: %+v", st)
	}
	var wins struct {
		Windows []struct {
			Index     int `json:"index"`
			Subagents int `json:"agent_subagents"`
		} `json:"windows"`
	}
	e.json(&wins, "list-windows", "-s", "work")
	if wins.Windows[0].Index != 0 || wins.Windows[0].Subagents != 1 {
		t.Fatalf("list-windows: %+v", wins)
	}
	hookIn(t, e, "0", "claude-code", `{"hook_event_name":"Stop","session_id":"s-1"}`)
	st := get()
	if st.State != "done" || st.CompletionSeq != 1 || st.Meta["now"] != "" {
		t.Fatalf("after Stop: %+v", st)
	}
	// idle_prompt is late: a finished turn stays done.
	hookIn(t, e, "0", "claude-code", `{"hook_event_name":"Notification","session_id":"s-1","notification_type":"idle_prompt","message":"Claude is waiting for your input"}`)
	if st := get(); st.State != "done" {
		t.Fatalf("idle_prompt over done: %+v", st)
	}
	var other hookState
	e.json(&other, "get-agent-state", "-s", "work", "-w", "other")
	if other.State != "none" {
		t.Fatalf("the focused pane took a hook's report: %+v", other)
	}
	hookIn(t, e, "0", "claude-code", `{"hook_event_name":"SessionEnd","session_id":"s-1","reason":"prompt_input_exit"}`)
	if st := get(); st.State != "none" {
		t.Fatalf("after SessionEnd: %+v", st)
	}
}

func TestASessionOnlyHookRecordsTheConversationAndNotTheState(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", `(?m)^\$`, "--timeout", "10000")
	hookIn(t, e, "0", "droid", `{"hook_event_name":"SessionStart","session_id":"conv-7","source":"startup"}`)
	var st hookState
	e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
	if st.SessionID != "conv-7" || st.State != "none" || st.Source != "" {
		t.Fatalf("after Droid's SessionStart: %+v", st)
	}
}

func TestAgentHookOutsideEveryPaneReportsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	r := e.runIn(`{"hook_event_name":"Stop","session_id":"s"}`, "agent-hook", "claude-code", "--explain")
	if r.code != 0 || r.out != "" {
		t.Fatalf("exit %d, stdout %q", r.code, r.out)
	}
	if !strings.Contains(r.err, "no pane") {
		t.Fatalf("--explain should say it found no pane: %q", r.err)
	}
	var st hookState
	e.json(&st, "get-agent-state", "-s", "work")
	if st.State != "none" {
		t.Fatalf("the focused pane took the report of an agent outside every pane: %+v", st)
	}
}

// runGuarded runs the binary and fails if it has not exited after 20 s: a
// hook that hangs would hang the harness.
func runGuarded(t *testing.T, e *env, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(e.bin, args...)
	cmd.Env = e.vars
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return result{out.String(), errb.String(), code}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("tuios %v never gave up", args)
	}
	return result{}
}

// fakeDaemon listens where the daemon would and answers with answer, or
// not at all when answer is nil. It records every request.
func fakeDaemon(t *testing.T, e *env, answer func(verb string) string) func() []string {
	t.Helper()
	dir := filepath.Dir(e.socket())
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", e.socket())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					var req struct {
						ID   int    `json:"id"`
						Verb string `json:"verb"`
					}
					json.Unmarshal([]byte(line), &req)
					mu.Lock()
					got = append(got, strings.TrimSpace(line))
					mu.Unlock()
					if answer == nil {
						continue // a daemon that never answers
					}
					b, _ := json.Marshal(req.ID)
					c.Write([]byte(`{"id":` + string(b) + `,"result":` + answer(req.Verb) + "}\n"))
				}
			}()
		}
	}()
	t.Cleanup(func() { l.Close() })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

func TestAgentHookNeverBlocksTheHarness(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// No daemon: nothing is started, nothing printed, exit 0; Gemini CLI
	// still gets the JSON it reads from every hook.
	if r := runGuarded(t, e, `{"hook_event_name":"Stop"}`, "agent-hook", "claude-code"); r.code != 0 || r.out != "" || r.err != "" {
		t.Fatalf("no daemon: %+v", r)
	}
	if r := runGuarded(t, e, `{"hook_event_name":"AfterAgent"}`, "agent-hook", "gemini-cli"); r.code != 0 || strings.TrimSpace(r.out) != "{}" {
		t.Fatalf("gemini without a daemon: %+v", r)
	}
	if _, err := os.Stat(e.socket()); err == nil {
		t.Fatal("agent-hook started a daemon")
	}
	// Bad input and unknown flags still exit 0 and print nothing.
	for _, args := range [][]string{{"agent-hook"}, {"agent-hook", "nope"}, {"agent-hook", "claude-code", "--from-the-future"}} {
		if r := runGuarded(t, e, "not json", args...); r.code != 0 || r.out != "" || r.err != "" {
			t.Fatalf("%v: %+v", args, r)
		}
	}
	// A daemon that accepts and never answers: the hook gives up.
	requests := fakeDaemon(t, e, nil)
	r := runGuarded(t, e, `{"hook_event_name":"Stop","session_id":"s"}`, "agent-hook", "claude-code", "--window", "w1", "--timeout", "200ms")
	if r.code != 0 || r.out != "" {
		t.Fatalf("silent daemon: %+v", r)
	}
	if len(requests()) == 0 {
		t.Fatal("the hook never asked the daemon")
	}
}

func TestAgentHookSendsOnlyWhatTheDaemonLists(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// An older daemon: set-agent-state without if_state or now.
	requests := fakeDaemon(t, e, func(verb string) string {
		if verb == "list-verbs" {
			return `{"type":"verb_list","verbs":[{"verb":"set-agent-state","params":[{"name":"session"},{"name":"window"},{"name":"state"},{"name":"harness"},{"name":"message"},{"name":"agent_session_id"}]}]}`
		}
		return `{"type":"agent_state_set","applied":true}`
	})
	runGuarded(t, e, `{"hook_event_name":"Notification","notification_type":"idle_prompt","session_id":"s"}`, "agent-hook", "claude-code", "-w", "w1")
	for _, q := range requests() {
		if strings.Contains(q, `"verb":"set-agent-state","params"`) {
			t.Fatalf("a report that needs if_state reached a daemon without it: %s", q)
		}
	}
	runGuarded(t, e, `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"}}`, "agent-hook", "claude-code", "-w", "w1")
	var sent string
	for _, q := range requests() {
		if strings.Contains(q, `"verb":"set-agent-state","params"`) {
			sent = q
		}
	}
	if sent == "" || strings.Contains(sent, `"now"`) || strings.Contains(sent, `"harness_pid"`) || !strings.Contains(sent, `"state":"working"`) {
		t.Fatalf("sent %q", sent)
	}
}

// Codex runs every pane's hooks from one shared helper, with the
// environment of the pane that started it: the hook must find its pane by
// the agent's session, never by that environment.
func TestAHookASharedHelperRunsFindsItsPaneBySession(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	var w0, w1 struct {
		WindowID string `json:"window_id"`
	}
	e.json(&w0, "get-window", "-s", "work", "-w", "0")
	// A pane whose Codex is mid-turn in session A.
	e.ok("set-agent-state", "working", "-s", "work", "-w", w0.WindowID, "--harness", "codex", "--agent-session-id", "A")
	// A second pane running a Codex that has no session yet.
	codex := filepath.Join(e.dir, "codex")
	if err := os.Link(e.bin, codex); err != nil {
		t.Fatal(err)
	}
	e.json(&w1, "new-window", "-s", "work", "second", "--no-focus", "--", codex, "pretend-agent", "-steps", "400", "-step", "250ms")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", w1.WindowID, "--until", "working,needs_input", "--timeout", "15000")
	var st hookState
	e.json(&st, "get-agent-state", "-s", "work", "-w", w1.WindowID)
	if st.Harness != "codex" {
		t.Fatalf("the second pane is not seen as Codex: %+v", st)
	}
	// The helper was started from the first pane: its environment names it.
	helper := func(payload string) {
		t.Helper()
		cmd := exec.Command(e.bin, "agent-hook", "codex")
		cmd.Env = append(append([]string{}, e.vars...), "TUIOS_PANE_ID="+w0.WindowID, "TUIOS_SESSION=work")
		cmd.Stdin = strings.NewReader(payload)
		if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
			t.Fatalf("agent-hook: %v %q", err, out)
		}
	}
	helper(`{"hook_event_name":"UserPromptSubmit","session_id":"B","turn_id":"t1","prompt":"hi"}`)
	e.json(&st, "get-agent-state", "-s", "work", "-w", w1.WindowID)
	if st.SessionID != "B" || st.Source != "report" {
		t.Fatalf("the second pane's first hook went elsewhere: %+v", st)
	}
	helper(`{"hook_event_name":"Stop","session_id":"A","turn_id":"t0"}`)
	helper(`{"hook_event_name":"PermissionRequest","session_id":"B","turn_id":"t1","tool_name":"Bash","tool_input":{"command":"make"}}`)
	var first hookState
	e.json(&first, "get-agent-state", "-s", "work", "-w", w0.WindowID)
	e.json(&st, "get-agent-state", "-s", "work", "-w", w1.WindowID)
	if first.State != "done" || first.SessionID != "A" || st.State != "needs_input" || st.Message != "approve Bash: make" {
		t.Fatalf("first %+v\nsecond %+v", first, st)
	}
}
