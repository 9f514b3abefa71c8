package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// protoPane is an agent start-agent --protocol opened in session "work".
type protoPane struct {
	t      *testing.T
	e      *env
	name   string
	window string
}

type protoState struct {
	WindowID string            `json:"window_id"`
	State    string            `json:"state"`
	Message  string            `json:"message"`
	Source   string            `json:"source"`
	Harness  string            `json:"harness_id"`
	Protocol string            `json:"protocol"`
	Meta     map[string]string `json:"meta"`
}

// startFakeProto starts the fake ACP agent (agent_proto_fake_test.go) in
// the given mode through start-agent --protocol acp.
func startFakeProto(t *testing.T, e *env, mode string, extra ...string) (*protoPane, map[string]any) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"start-agent", "--protocol", "acp", self, "-s", "work", "--name", "fake", "--env", "FAKE_ACP_AGENT=" + mode,
		"--cwd", e.workDir(), "--ready-timeout", "20000", "--json"}, extra...)
	r := e.run(args...)
	var res map[string]any
	if err := json.Unmarshal([]byte(r.out), &res); err != nil {
		t.Fatalf("start-agent: exit %d %v\n%s\n%s", r.code, err, r.out, r.err)
	}
	p := &protoPane{t: t, e: e, name: "fake", window: res["window_id"].(string)}
	return p, res
}

func (p *protoPane) get() protoState {
	var s protoState
	p.e.json(&s, "get-agent-state", "-s", "work", "-w", p.name)
	return s
}

func (p *protoPane) wait(state string, timeout time.Duration) protoState {
	p.t.Helper()
	if r := p.e.run("wait-for", "agent-state", "-s", "work", "-w", p.name, "--until", state,
		"--timeout", strconv.Itoa(int(timeout/time.Millisecond))); r.code != 0 {
		p.t.Fatalf("the pane never read %s (now %+v):\n%s", state, p.get(), p.screen())
	}
	return p.get()
}

func (p *protoPane) screen() string {
	return p.e.ok("capture-pane", "-s", "work", "-w", p.name)
}

func (p *protoPane) waitScreen(pattern string, timeout time.Duration) {
	p.t.Helper()
	if r := p.e.run("wait-for", "window-output", "-s", "work", "-w", p.name, "--pattern", pattern,
		"--timeout", strconv.Itoa(int(timeout/time.Millisecond))); r.code != 0 {
		p.t.Fatalf("the screen never showed %s:\n%s", pattern, p.screen())
	}
}

// typePrompt types a prompt as a person's terminal would: a bracketed
// paste, then Enter.
func (p *protoPane) typePrompt(text string) {
	p.t.Helper()
	p.e.ok("send-text", "-s", "work", "-w", p.name, "\x1b[200~"+text+"\x1b[201~")
	p.e.ok("send-keys", "-s", "work", "-w", p.name, "Enter")
}

// The fake ACP agent through a whole life: start-agent returns when the
// pane reads idle; a prompt typed as a paste runs a turn (working, then
// done with the answer's first line) whose text is drawn without the
// agent's escape sequences; a permission request becomes a held Inbox
// item (no config), allowed from the Inbox (the command runs) and denied
// (it does not); one answered in the pane with 1 after the dwell; Ctrl+C
// cancels a running turn (idle); Ctrl+D quits and the window closes.
func TestProtocolPaneFakeACPAgent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	work := e.workDir()
	p, res := startFakeProto(t, e, "ok")
	if res["ready"] != true || res["ready_by"] != "idle" || res["protocol"] != "acp" {
		t.Fatalf("start-agent: %v", res)
	}
	st := p.get()
	if st.State != "idle" || st.Source != "report" || st.Harness != "acp" || st.Protocol != "acp" {
		t.Fatalf("after start: %+v", st)
	}
	ev := (&agentPane{t: t, e: e}).watch()

	// A plain turn: the answer is drawn cleaned, the state ends done.
	p.typePrompt("hello there")
	st = p.wait("done", 10*time.Second)
	if !strings.Contains(st.Message, "echo: hello there") {
		t.Fatalf("done message: %+v", st)
	}
	// The state comes from the agent's message, the text from the pane
	// drawing it: the two race, so the screen is read until it has all
	// (bounded).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		screen, lacks := p.screen(), ""
		for _, want := range []string{"› hello there", "echo: hello there", "[x] read it", "[>] answer it"} {
			if !strings.Contains(screen, want) {
				lacks = want
				break
			}
		}
		if lacks == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the transcript lacks %q:\n%s", lacks, screen)
		}
	}
	// The agent's OSC 0 did not become the pane's title, and its erase
	// did not clear the transcript (both checked above and here).
	if ws := e.ok("list-windows", "-s", "work", "--json"); strings.Contains(ws, "evil title") {
		t.Fatalf("the agent's escape sequence set the pane's title:\n%s", ws)
	}

	// Allowed from the Inbox: held without any config, the command runs.
	person := attachHeldPerson(t, e.socket())
	allowed := filepath.Join(work, "allowed.txt")
	p.typePrompt("run: echo yes > " + allowed)
	it := person.heldItem(p.window)
	if it["summary"] != "approve shell: echo yes > "+allowed || it["kind"] != "approval" {
		t.Fatalf("held item: %v", it)
	}
	if st := p.get(); st.State != "needs_input" {
		t.Fatalf("while held: %+v", st)
	}
	if _, err := os.Stat(allowed); err == nil {
		t.Fatal("the command ran before anyone answered")
	}
	ap := person.call("get-approval", map[string]any{"request_id": it["held_id"]})
	if opts, _ := json.Marshal(ap["options"]); string(opts) != `["once","deny"]` || ap["tool"] != "shell" || ap["target"] != "echo yes > "+allowed {
		t.Fatalf("the hold: %v", ap)
	}
	person.allowOnce(e, it, allowed, "yes")
	p.wait("done", 10*time.Second)

	// The risk rules read the command: a risky allow needs its rules
	// named; the deny goes through.
	p.typePrompt("run: rm -rf " + filepath.Join(work, "tree"))
	it = person.heldItem(p.window)
	ap = person.call("get-approval", map[string]any{"request_id": it["held_id"]})
	if risk, _ := json.Marshal(ap["risk"]); !strings.Contains(string(risk), "recursive delete") {
		t.Fatalf("no risk on rm -rf: %v", ap)
	}
	if _, err := person.try("reply-approval", map[string]any{"request_id": it["held_id"], "decision": "once", "human_nonce": person.nonce}); err == nil || err["code"] != "risk_unacknowledged" {
		t.Fatalf("a risky allow without risk_ack: %v", err)
	}
	person.deny(p.window)
	p.wait("done", 10*time.Second)

	// Denied from the Inbox: it never runs.
	denied := filepath.Join(work, "denied.txt")
	p.typePrompt("run: echo no > " + denied)
	if it = person.heldItem(p.window); it["summary"] != "approve shell: echo no > "+denied {
		t.Fatalf("held item: %v", it)
	}
	person.deny(p.window)
	st = p.wait("done", 10*time.Second)
	if _, err := os.Stat(denied); err == nil {
		t.Fatal("the denied command ran")
	}
	if !strings.Contains(st.Message, "Not run") {
		t.Fatalf("after deny: %+v", st)
	}

	// Answered in the pane: 1 once the request has been on screen.
	inPane := filepath.Join(work, "inpane.txt")
	p.typePrompt("run: echo pane > " + inPane)
	p.waitScreen(`1 allow once`, 10*time.Second)
	p.wait("needs_input", 5*time.Second)
	time.Sleep(600 * time.Millisecond) // the dwell: a person reads first
	e.ok("send-keys", "-s", "work", "-w", p.name, "1")
	p.wait("done", 10*time.Second)
	if b, err := os.ReadFile(inPane); err != nil || strings.TrimSpace(string(b)) != "pane" {
		t.Fatalf("the command answered in the pane did not run: %v %q\n%s", err, b, p.screen())
	}

	// Ctrl+C while a held request waits: the turn is cancelled, the
	// request answered cancelled (the command never runs), the hold gone.
	never := filepath.Join(work, "never.txt")
	p.typePrompt("run: echo never > " + never)
	person.heldItem(p.window)
	e.ok("send-keys", "-s", "work", "-w", p.name, "C-c")
	if st := p.wait("idle", 5*time.Second); st.Message != "cancelled" {
		t.Fatalf("after Ctrl+C on a request: %+v", st)
	}
	if _, err := os.Stat(never); err == nil {
		t.Fatal("the cancelled request's command ran")
	}
	items, _ := person.call("list-attention", map[string]any{})["items"].([]any)
	for _, x := range items {
		if it := x.(map[string]any); it["window"] == p.window && it["held_id"] != nil {
			t.Fatalf("the hold outlived Ctrl+C: %v", it)
		}
	}

	// Ctrl+C cancels a running turn.
	p.typePrompt("please wait")
	p.wait("working", 5*time.Second)
	e.ok("send-keys", "-s", "work", "-w", p.name, "C-c")
	st = p.wait("idle", 5*time.Second)
	if st.Message != "cancelled" {
		t.Fatalf("after Ctrl+C: %+v", st)
	}

	// The states in order, as the protocol said them (every change is
	// reported, a working of a few milliseconds included). The event
	// stream may still be delivering the last of them: read it until it
	// holds them all (bounded).
	want := "working done working needs_input working done working needs_input working done working needs_input working done working needs_input working done working needs_input idle working idle"
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var seen []string
		for _, x := range ev.all() {
			if x.Window == p.window && (len(seen) == 0 || seen[len(seen)-1] != x.State) {
				seen = append(seen, x.State)
			}
		}
		got := strings.Join(seen, " ")
		if strings.Contains(got, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("states: %s\nwant them to hold: %s", got, want)
		}
	}

	// Ctrl+D on an empty line quits: the window goes.
	e.ok("send-keys", "-s", "work", "-w", p.name, "C-d")
	deadline := time.Now().Add(10 * time.Second)
	for strings.Contains(e.ok("list-windows", "-s", "work"), "fake") {
		if time.Now().After(deadline) {
			t.Fatalf("the pane did not quit:\n%s", p.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Agents that break the protocol: each leaves the pane errored with the
// reason, drawn in the pane, and the daemon answering as before.
func TestProtocolPaneBadAgents(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mode, prompt, reason string
		flags                []string
	}{
		{mode: "garbage", reason: "lines that are not JSON-RPC"},
		{mode: "silent", reason: "did not answer the handshake within 2s", flags: []string{"--ready-timeout", "2000"}},
		{mode: "huge", reason: "a message over 8 MiB"},
		{mode: "flood", prompt: "go", reason: "more than 20000 messages in 5s"},
		{mode: "perms", prompt: "go", reason: "asked more than 32 permissions at once"},
		{mode: "die", prompt: "go", reason: "fatal: out of cheese"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			e := newEnv(t)
			p, res := startFakeProto(t, e, c.mode, c.flags...)
			if c.prompt != "" {
				if res["ready"] != true {
					t.Fatalf("start-agent: %v", res)
				}
				p.typePrompt(c.prompt)
			}
			st := p.wait("errored", 30*time.Second)
			if !strings.Contains(st.Message, c.reason) {
				t.Fatalf("errored for the wrong reason: %+v", st)
			}
			p.waitScreen(regexpQuote(c.reason[:min(len(c.reason), 24)]), 5*time.Second)
			// The daemon is unaffected: it answers, and another pane works.
			e.ok("list-windows", "-s", "work")
			e.ok("new-window", "-s", "work", "sh")
			e.ok("send-text", "-s", "work", "-w", "sh", "echo alive-$((6*7))\n")
			e.ok("wait-for", "window-output", "-s", "work", "-w", "sh", "--pattern", "alive-42", "--timeout", "5000")
			// Closing the pane ends its agent, which runs in a session of
			// its own: the garbage agent never reads its input, so only
			// the kernel's parent-death signal stops it.
			e.ok("close-window", "-s", "work", "-w", "fake")
			for deadline := time.Now().Add(10 * time.Second); len(fakeAgentsOf(e)) > 0; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the agent outlived its pane: pids %v", fakeAgentsOf(e))
				}
			}
			if c.mode == "perms" {
				// The cancelled turn's requests left nothing held.
				person := attachHeldPerson(t, e.socket())
				items, _ := person.call("list-attention", map[string]any{})["items"].([]any)
				for _, x := range items {
					if it := x.(map[string]any); it["held_id"] != nil {
						t.Fatalf("a hold outlived the cancelled turn: %v", it)
					}
				}
			}
		})
	}
}

func regexpQuote(s string) string { return regexp.QuoteMeta(s) }

// fakeAgentsOf lists the live fake agents started by e's daemon: the
// processes whose environment names its socket and FAKE_ACP_AGENT.
func fakeAgentsOf(e *env) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, ent := range ents {
		pid, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + ent.Name() + "/environ")
		if err != nil {
			continue
		}
		env := "\x00" + string(b)
		if strings.Contains(env, "\x00FAKE_ACP_AGENT=") && strings.Contains(env, "\x00TUIOS_SOCKET="+e.socket()+"\x00") {
			if st, err := os.ReadFile("/proc/" + ent.Name() + "/stat"); err == nil && !strings.Contains(string(st), ") Z ") {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// A protocol pane takes what tuios types the way any agent pane does: the
// first prompt of start-agent --prompt, a queued prompt (delivered once
// the pane reports it is at rest), ask-agent's question and its answer;
// and respond answers its held permission request.
func TestProtocolPaneTakesPromptQueueAskAndRespond(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	work := e.workDir()
	p, res := startFakeProto(t, e, "ok", "--prompt", "first things first")
	if res["prompt_status"] != "sent" {
		t.Fatalf("start-agent --prompt: %v", res)
	}
	st := p.wait("done", 10*time.Second)
	if !strings.Contains(st.Message, "echo: first things first") {
		t.Fatalf("after --prompt: %+v", st)
	}

	// Queued while a turn runs: typed once the pane is at rest again.
	p.typePrompt("please wait")
	p.wait("working", 5*time.Second)
	e.ok("queue", "-s", "work", "-w", p.name, "queued one")
	time.Sleep(300 * time.Millisecond)
	if st := p.get(); st.State != "working" {
		t.Fatalf("the queue typed into a working pane: %+v", st)
	}
	e.ok("send-keys", "-s", "work", "-w", p.name, "C-c")
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(p.get().Message, "echo: queued one") {
		if time.Now().After(deadline) {
			t.Fatalf("the queued prompt never ran (now %+v):\n%s", p.get(), p.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}

	// ask-agent: the answer comes back.
	out := e.ok("ask-agent", "-s", "work", "-w", p.name, "--timeout", "15000", "--json", "what is up")
	if !strings.Contains(out, "echo: what is up") {
		t.Fatalf("ask-agent answered:\n%s", out)
	}

	// respond approves the held request.
	person := attachHeldPerson(t, e.socket())
	made := filepath.Join(work, "responded.txt")
	p.typePrompt("run: echo r > " + made)
	person.heldItem(p.window)
	r := person.call("respond", map[string]any{"session": "work", "window": p.window, "action": "approve", "human_nonce": person.nonce})
	if r["decision"] != "once" {
		t.Fatalf("respond: %v", r)
	}
	p.wait("done", 10*time.Second)
	if _, err := os.Stat(made); err != nil {
		t.Fatalf("the command respond approved did not run: %v", err)
	}
}
