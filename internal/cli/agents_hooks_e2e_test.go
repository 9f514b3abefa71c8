package cli_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Helpers of the end-to-end tests that run a real agent CLI, installed
// from npm under $TUIOS_AGENTS_PREFIX (default /tmp/agents), with tuios's
// integration installed, against the model API stand-in.

// npmAgent is an agent CLI an npm install left.
type npmAgent struct {
	prefix  string // the npm prefix
	shim    string // node_modules/.bin/<bin>
	pkg     string // node_modules/<package>
	version string // its package.json version
}

// findNPMAgent finds the package's bin under the npm prefix, or skips.
func findNPMAgent(t *testing.T, pkg, bin string) npmAgent {
	t.Helper()
	prefix := os.Getenv("TUIOS_AGENTS_PREFIX")
	if prefix == "" {
		prefix = "/tmp/agents"
	}
	a := npmAgent{prefix: prefix, shim: filepath.Join(prefix, "node_modules", ".bin", bin),
		pkg: filepath.Join(prefix, "node_modules", filepath.FromSlash(pkg))}
	if _, err := os.Stat(a.shim); err != nil {
		t.Skipf("%s is not installed: %s is missing (npm install %s under an npm prefix and point TUIOS_AGENTS_PREFIX at it)", pkg, a.shim, pkg)
	}
	var pj struct{ Name, Version string }
	b, err := os.ReadFile(filepath.Join(a.pkg, "package.json"))
	if err != nil || json.Unmarshal(b, &pj) != nil || pj.Name != pkg || pj.Version == "" {
		t.Skipf("%s does not lead to the %s package", a.shim, pkg)
	}
	a.version = pj.Version
	return a
}

// agentPane is one agent running in pane 0 of session "work".
type agentPane struct {
	t    *testing.T
	e    *env
	home string // the scratch HOME
	work string // the agent's working directory (symlinks resolved)
}

// newAgentPane makes a tuios world with a scratch home and a work
// directory, its shell ready in session "work".
func newAgentPane(t *testing.T) *agentPane {
	t.Helper()
	e := newEnv(t)
	p := &agentPane{t: t, e: e, home: filepath.Join(e.dir, "home"), work: filepath.Join(e.dir, "work")}
	os.MkdirAll(p.work, 0o755)
	if w, err := filepath.EvalSymlinks(p.work); err == nil {
		p.work = w
	}
	return p
}

// write puts a file under the scratch home.
func (p *agentPane) write(rel, body string) string {
	p.t.Helper()
	path := filepath.Join(p.home, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		p.t.Fatal(err)
	}
	return path
}

// start opens the session and runs command in the work directory, then
// waits up to timeout for the agent's screen to match ready, and gives
// back the test's start turn (agentStarted): call it for the test's
// last agent.
func (p *agentPane) start(command, ready string, timeout time.Duration) {
	p.t.Helper()
	e := p.e
	e.ok("new", "--detach", "work")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", `(?m)^\$`, "--timeout", "10000")
	e.ok("send-text", "-s", "work", "cd "+p.work+" && "+command+"\n")
	if r := e.run("wait-for", "window-output", "-s", "work", "--pattern", ready,
		"--timeout", strconv.Itoa(int(timeout/time.Millisecond))); r.code != 0 {
		p.t.Fatalf("the agent's prompt (%s) never came:\n%s", ready, e.ok("capture-pane", "-s", "work"))
	}
	agentStarted(p.t)
}

func (p *agentPane) get() hookState {
	var s hookState
	p.e.json(&s, "get-agent-state", "-s", "work", "-w", "0")
	return s
}

// wait waits for the pane's state and returns it.
func (p *agentPane) wait(state string, timeout time.Duration) hookState {
	p.t.Helper()
	if r := p.e.run("wait-for", "agent-state", "-s", "work", "-w", "0", "--until", state,
		"--timeout", strconv.Itoa(int(timeout/time.Millisecond))); r.code != 0 {
		p.t.Fatalf("the pane never read %s (now %+v):\n%s", state, p.get(), p.e.ok("capture-pane", "-s", "work"))
	}
	return p.get()
}

// waitReport waits for the pane to read state from the hooks (source
// report), not from the screen or the process.
func (p *agentPane) waitReport(state string, timeout time.Duration) hookState {
	p.t.Helper()
	end := time.Now().Add(timeout)
	for {
		st := p.get()
		if st.State == state && st.Source == "report" {
			return st
		}
		if time.Now().After(end) {
			p.t.Fatalf("the hooks never reported %s (now %+v):\n%s", state, st, p.e.ok("capture-pane", "-s", "work"))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitScreen waits for the pane's screen to match pattern.
func (p *agentPane) waitScreen(pattern string, timeout time.Duration) {
	p.t.Helper()
	if r := p.e.run("wait-for", "window-output", "-s", "work", "--pattern", pattern,
		"--timeout", strconv.Itoa(int(timeout/time.Millisecond))); r.code != 0 {
		p.t.Fatalf("the screen never showed %s:\n%s", pattern, p.e.ok("capture-pane", "-s", "work"))
	}
}

// approve presses key on the approval dialog, whose screen matches
// dialog, until the pane leaves needs_input. An agent may take keys only a
// moment after its dialog is drawn (Qwen Code drops an Enter that comes at
// once), and a person would press again; the key is pressed again only
// while the dialog is still on the screen.
func (p *agentPane) approve(key, dialog string) {
	p.t.Helper()
	re := regexp.MustCompile(dialog)
	for try := 0; try < 5; try++ {
		if try > 0 && !re.MatchString(p.e.ok("capture-pane", "-s", "work")) {
			p.wait("working,done,idle,errored", 20*time.Second)
			return
		}
		p.e.ok("send-keys", "-s", "work", key)
		if r := p.e.run("wait-for", "agent-state", "-s", "work", "-w", "0", "--until", "working,done,idle,errored",
			"--timeout", "2000"); r.code == 0 {
			if try > 0 {
				p.t.Logf("the approval took %d presses", try+1)
			}
			return
		}
	}
	p.t.Fatalf("the approval was never taken (now %+v):\n%s", p.get(), p.e.ok("capture-pane", "-s", "work"))
}

// prompt types text and, after a pause (agents take a fast Enter after
// text as part of a paste), Enter.
func (p *agentPane) prompt(text string) {
	p.t.Helper()
	p.e.typeLine("", text)
}

// typeLine types text into a pane of the work session (window "" is the
// focused one) and presses Enter once the agent has drawn the text. An
// Enter that reaches an agent with its text, or within its paste window
// after it, is taken as part of a paste (a newline in the prompt): the
// text on the screen says the agent has read it, and 300 ms from then is
// past that window. Counted from sending instead, a loaded machine could
// spend the 300 ms before the agent read a byte.
func (e *env) typeLine(window, text string) {
	e.t.Helper()
	at := []string{"-s", "work"}
	if window != "" {
		at = append(at, "-w", window)
	}
	e.ok(append(append([]string{"send-text"}, at...), text)...)
	e.ok(append(append([]string{"wait-for", "window-output"}, at...), "--pattern", regexp.QuoteMeta(text), "--timeout", "20000")...)
	time.Sleep(300 * time.Millisecond)
	e.ok(append(append([]string{"send-keys"}, at...), "Enter")...)
}

// quit presses ctrl+c until the pane reads none: agents quit on a second
// ctrl+c within a moment, and the first may go to cancelling a request
// still in flight. (SessionEnd reports none, but the pane also reads none
// once the agent's process is gone, whichever comes first.)
func (p *agentPane) quit() {
	p.t.Helper()
	for try := 0; try < 6; try++ {
		p.e.ok("send-keys", "-s", "work", "ctrl+c")
		time.Sleep(300 * time.Millisecond)
		if p.get().State == "none" {
			return
		}
	}
	p.wait("none", 10*time.Second)
}

// made checks that the approved command ran.
func (p *agentPane) made(file, marker string) {
	p.t.Helper()
	b, err := os.ReadFile(filepath.Join(p.work, file))
	if err != nil || !strings.Contains(string(b), marker) {
		p.t.Fatalf("the approved command did not run: %v %q\n%s", err, b, p.e.ok("capture-pane", "-s", "work"))
	}
}

// stateEvent is one agent-state event with its message.
type stateEvent struct {
	Window  string `json:"window"`
	State   string `json:"state"`
	Source  string `json:"source"`
	Message string `json:"message"`
	Time    string `json:"time"`
}

// stateEvents records the daemon's agent-state events (tuios events),
// messages included.
type stateEvents struct {
	mu   sync.Mutex
	list []stateEvent
	wake chan struct{} // closed (and replaced) as each event is read
}

func (p *agentPane) watch() *stateEvents {
	p.t.Helper()
	return p.e.watchAgentEvents(p.t)
}

// watchAgentEvents starts tuios events --types agent-state and returns
// once it is subscribed (a session named work must exist).
func (e *env) watchAgentEvents(t testing.TB) *stateEvents {
	t.Helper()
	cmd := exec.Command(e.bin, "events", "--types", "agent-state")
	cmd.Env = e.vars
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	se := &stateEvents{wake: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var ev stateEvent
			if json.Unmarshal(sc.Bytes(), &ev) == nil {
				se.mu.Lock()
				se.list = append(se.list, ev)
				close(se.wake)
				se.wake = make(chan struct{})
				se.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		<-done
	})
	se.subscribed(t, e)
	return se
}

// subscribed returns once the stream is known to be subscribed: tuios
// events prints nothing until an event comes, so a probe window reports
// a state until its event is read back. Without it a state the test
// causes at once (a prompt's first working) can go out before the
// subscription and never be seen.
func (se *stateEvents) subscribed(t testing.TB, e *env) {
	t.Helper()
	var w struct {
		WindowID string `json:"window_id"`
	}
	if err := json.Unmarshal([]byte(e.ok("new-window", "-s", "work", "events-probe", "--no-focus", "--json", "--", "sleep", "600")), &w); err != nil || w.WindowID == "" {
		t.Fatalf("probe window: %v", err)
	}
	defer e.ok("close-window", "-s", "work", "-w", w.WindowID)
	deadline := time.Now().Add(20 * time.Second)
	for state := "working"; ; {
		e.ok("set-agent-state", state, "-s", "work", "-w", w.WindowID, "-m", "events probe")
		for end := time.Now().Add(200 * time.Millisecond); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
			for _, ev := range se.all() {
				if ev.Window == w.WindowID {
					return
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("tuios events never subscribed")
		}
		if state == "working" {
			state = "idle"
		} else {
			state = "working"
		}
	}
}

func (se *stateEvents) all() []stateEvent {
	se.mu.Lock()
	defer se.mu.Unlock()
	return append([]stateEvent(nil), se.list...)
}

// settled waits until the stream's last event of window ("": of any
// window) is state, at most within: a wait-for that saw the state returns
// before the events stream (another process, another socket) has read
// its event.
func (se *stateEvents) settled(window, state string, within time.Duration) bool {
	timeout := time.After(within)
	for {
		se.mu.Lock()
		last, wake := "", se.wake
		for _, ev := range se.list {
			if ev.Window == window || window == "" && ev.Window != "" {
				last = ev.State
			}
		}
		se.mu.Unlock()
		if last == state {
			return true
		}
		select {
		case <-wake:
		case <-timeout:
			return false
		}
	}
}

// reported returns the first event of a pane in state from the hooks
// (source report) whose message holds text.
func (se *stateEvents) reported(state, text string) (stateEvent, bool) {
	for _, ev := range se.all() {
		if ev.Window != "" && ev.State == state && ev.Source == "report" && strings.Contains(ev.Message, text) {
			return ev, true
		}
	}
	return stateEvent{}, false
}
