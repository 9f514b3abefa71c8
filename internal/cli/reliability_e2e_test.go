package cli_test

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestAMissingRequiredFlagIsRefusedAtOnce: without --pattern the wait used
// to run out its whole timeout; now it is refused before it starts.
func TestAMissingRequiredFlagIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "w")
	r := e.run("wait-for", "window-output", "-s", "w", "-w", "0", "--timeout", "600000")
	if r.code != 1 || !strings.HasPrefix(r.err, "tuios: invalid_params: ") || !strings.Contains(r.err, "pattern") {
		t.Fatalf("wait-for without --pattern: %+v", r)
	}
	r = e.run("wait-for", "window-output", "-s", "w", "-w", "0", "--pattern", "x", "--timeout", "999999999999")
	if r.code != 1 || !strings.Contains(r.err, "invalid_params") || !strings.Contains(r.err, "timeout") {
		t.Fatalf("an unbounded timeout: %+v", r)
	}
}

// TestTheTextFormOfAnErrorNamesItsCode: a script that did not ask for JSON
// can still branch on the code.
func TestTheTextFormOfAnErrorNamesItsCode(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "w")
	for _, c := range []struct {
		args []string
		code string
	}{
		{[]string{"send-text", "-s", "nope", "hi"}, "session_not_found"},
		{[]string{"ask-agent", "-s", "w", "-w", "human", "hi"}, "no_keyboard"},
		{[]string{"set-agent-state", "-s", "w", "-w", "0", "wroking"}, "invalid_params"},
	} {
		r := e.run(c.args...)
		if r.code != 1 || !strings.HasPrefix(r.err, "tuios: "+c.code+": ") {
			t.Errorf("tuios %v: %+v; want stderr starting %q", c.args, r, "tuios: "+c.code+": ")
		}
	}
}

// TestVersion: --version prints one line from the build info without
// reaching a daemon; version adds the daemon's, and hello reports the same.
func TestVersion(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	line := regexp.MustCompile(`^tuios \S+ \(rev \S+, protocol 1, go1\.\S+\)\n$`)
	for _, flag := range []string{"--version", "-V"} {
		if out := e.ok(flag); !line.MatchString(out) {
			t.Fatalf("tuios %s = %q", flag, out)
		}
	}
	if _, err := os.Stat(e.socket()); err == nil {
		t.Fatal("--version started a daemon")
	}
	if out := e.ok("version"); !strings.Contains(out, "daemon: none running") {
		t.Fatalf("version with no daemon:\n%s", out)
	}
	e.ok("ls")
	var v struct {
		Revision string `json:"revision"`
		Protocol int    `json:"protocol"`
		Daemon   *struct {
			Version  string `json:"daemon_version"`
			Revision string `json:"revision"`
			Protocol int    `json:"protocol"`
			PID      int    `json:"pid"`
		} `json:"daemon"`
	}
	e.json(&v, "version")
	if v.Protocol != 1 || v.Daemon == nil || v.Daemon.Protocol != 1 || v.Daemon.PID == 0 || v.Daemon.Revision != v.Revision || v.Daemon.Version == "" {
		t.Fatalf("version --json: %+v %+v", v, v.Daemon)
	}
}

// bgJobs starts sessions whose shells run background jobs in groups of
// their own that ignore SIGHUP and SIGTERM, and returns the jobs' pids.
func bgJobs(t *testing.T, e *env, sessions int) []int {
	t.Helper()
	var pids []int
	for i := range sessions {
		name := "s" + strconv.Itoa(i)
		e.ok("new", "--detach", name)
		e.ok("send-text", "-s", name, "set -m; (trap '' HUP TERM; exec sleep 1000) & echo BG=$!\n")
		out := e.ok("wait-for", "window-output", "-s", name, "-w", "0", "--pattern", `BG=[0-9]+`, "--timeout", "10000")
		m := regexp.MustCompile(`BG=([0-9]+)`).FindStringSubmatch(out)
		if m == nil {
			out = e.ok("capture-pane", "-s", name, "-w", "0")
			m = regexp.MustCompile(`BG=([0-9]+)`).FindStringSubmatch(out)
		}
		if m == nil {
			t.Fatalf("no pid printed in %s:\n%s", name, out)
		}
		pid, _ := strconv.Atoi(m[1])
		pids = append(pids, pid)
	}
	return pids
}

func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] != 'Z'
}

// TestKillServerLeavesNoPaneProcess: kill-server answers once every pane's
// processes are gone, background jobs included.
func TestKillServerLeavesNoPaneProcess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pids := bgJobs(t, e, 4)
	e.ok("kill-server")
	for _, pid := range pids {
		if running(pid) {
			t.Errorf("pane process %d survived kill-server", pid)
		}
	}
}

// TestSIGTERMLeavesNoPaneProcess: the daemon stopped by a signal kills its
// panes before it exits.
func TestSIGTERMLeavesNoPaneProcess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pids := bgJobs(t, e, 3)
	var hello struct {
		PID int `json:"pid"`
	}
	c, r := dial(t, e)
	defer c.Close()
	m := roundTrip(t, c, r, `{"verb":"hello"}`)
	b, _ := json.Marshal(m["result"])
	json.Unmarshal(b, &hello)
	if hello.PID == 0 {
		t.Fatalf("hello: %v", m)
	}
	syscall.Kill(hello.PID, syscall.SIGTERM)
	deadline := time.Now().Add(15 * time.Second)
	for running(hello.PID) {
		if time.Now().After(deadline) {
			t.Fatal("the daemon did not stop on SIGTERM")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, pid := range pids {
		if running(pid) {
			t.Errorf("pane process %d outlived the daemon", pid)
		}
	}
}

// TestRunningOutOfDescriptorsDoesNotStopTheDaemon: a daemon with a small
// descriptor limit, flooded with connections, refuses or delays them and
// answers again once they go.
func TestRunningOutOfDescriptorsDoesNotStopTheDaemon(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cmd := exec.Command("sh", "-c", "ulimit -n 48 && exec \"$0\" daemon", e.bin)
	cmd.Env = e.vars
	logs := &lockedBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	// Wait for this daemon's socket without a verb: a verb would start a
	// daemon of its own (without the limit) if it came first.
	deadline := time.Now().Add(10 * time.Second)
	for {
		if c, err := net.Dial("unix", e.socket()); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("daemon did not start: %s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.ok("new", "--detach", "keep")
	var held []net.Conn
	for range 100 {
		c, err := net.Dial("unix", e.socket())
		if err != nil {
			break
		}
		held = append(held, c)
	}
	deadline = time.Now().Add(15 * time.Second)
	for !strings.Contains(logs.String(), "accept:") {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon never ran out of descriptors (%d connections held); the test proves nothing:\n%s", len(held), logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, c := range held {
		c.Close()
	}
	deadline = time.Now().Add(15 * time.Second)
	for {
		r := e.run("ls")
		if r.code == 0 && strings.Contains(r.out, "keep") {
			break
		}
		if time.Now().After(deadline) || cmd.ProcessState != nil {
			t.Fatalf("the daemon stopped answering after running out of descriptors: %+v\n%s", r, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// lockedBuffer is a bytes.Buffer a child process writes to while the test
// reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
