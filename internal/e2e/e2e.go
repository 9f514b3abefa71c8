// Package e2e is the shared harness of tuios's end-to-end tests, the ones
// that run the real binary as a person or an agent would: the binary,
// built once per test process, and an isolated world to run it in (its
// own runtime dir, so its own daemon, its own home and a plain shell).
//
// It owns only what every such test needs. What a test drives (verbs and
// their JSON in internal/cli, tmux as the outer terminal in internal/tui,
// sshd in internal/testsshd) stays with the test. It is test support:
// nothing outside _test files and other test support imports it.
package e2e

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

// A test process builds the binary once; Main removes it.
var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// A test process's scratch directory (ProcessDir), made on first use;
// Main removes it.
var (
	procOnce sync.Once
	procDir  string
	procErr  error
)

// The real agents a test process runs at once (RealAgent): the budget
// they use, the test whose Heavy agent is starting (AgentOverlapEnv), and
// a wake-up for those waiting when some is given back.
var (
	agentsMu       sync.Mutex
	agentsFree     = sync.NewCond(&agentsMu)
	agentsUsed     int
	agentsStarting testing.TB
)

// Main runs the package's tests and removes what the harness built; call
// it from TestMain and exit with its code. Unless -parallel was given,
// it lets WaitBound tests run at once (see WaitBound).
func Main(m *testing.M) int {
	WaitBound()
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	if procDir != "" {
		os.RemoveAll(procDir)
	}
	return code
}

// ProcessDir is a directory that lives as long as the test process (Main
// removes it), for what one test hands on to later ones of the same
// process: a cache of something slow to make that every test would
// otherwise make again.
func ProcessDir(t testing.TB) string {
	t.Helper()
	procOnce.Do(func() { procDir, procErr = os.MkdirTemp("", "tuios-proc-") })
	if procErr != nil {
		t.Fatal(procErr)
	}
	return procDir
}

// WaitBound raises how many parallel tests run at once, when the command
// line did not say (-parallel): 2 per CPU instead of go test's 1. An
// end-to-end test spends its time waiting on other processes (a daemon,
// a shell, an agent starting, sshd, a timer in another process), not on
// its own CPU, so one a CPU leaves a 2-core machine idle while two tests
// wait. Not more: with 4 per CPU under -race, timing-bound end-to-end
// tests (a real agent's start-up, a state read within its settle) went
// past their waits on a 2-core machine. Call it from TestMain before
// m.Run (Main does).
func WaitBound() {
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(2*runtime.GOMAXPROCS(0)))
	}
}

// AgentCost is how much of the machine a real agent CLI takes while it
// runs: Light for a native binary (Claude Code's, Codex's), Heavy for one
// that runs on node or bun (Gemini CLI, Qwen Code, opencode, Kilo,
// claude-code-acp), seconds of CPU to start and some of it busy while
// idle.
type AgentCost int

const (
	Light AgentCost = 1
	Heavy AgentCost = 2
)

// AgentOverlapEnv, set to 1, lets a node agent start while another one,
// past its start, works (RealAgent). Off by default: on a 2-core machine
// it took internal/cli's real-agent tests from 173 s to 154 s (load
// average 4 to 9), and left less margin: under a load average of 25,
// opencode's first start (it installs its plugin's dependency) and a
// fan's Gemini CLI went past their waits beside another agent's turn.
const AgentOverlapEnv = "TUIOS_E2E_AGENT_OVERLAP"

// RealAgent holds cost of the test process's real-agent budget, one Light
// agent per CPU (a Heavy one takes two CPUs' share), until t ends,
// waiting for enough of it to be free. With more tests than CPUs at once
// (WaitBound), many agents starting together would push each past its
// test's wait; only the agents queue, lighter tests go on beside them.
// With AgentOverlapEnv set, a Heavy agent takes one CPU's share and the
// start turn (one node agent starting at a time) until AgentStarted(t)
// or t's end. Call it once per test that starts real agents (with the
// cost of the heaviest; one hold covers several agents of one test),
// never from a test whose subtests call it.
func RealAgent(t testing.TB, cost AgentCost) {
	t.Helper()
	// One Light agent per CPU: two node agents starting at once on a
	// 2-core machine (opencode and Kilo, each installing its plugin's
	// dependency) took 45 s to draw a prompt and failed their turns.
	// Once drawn, an agent mostly waits on its model (a stand-in) or the
	// person, which is what the overlap uses.
	budget := runtime.GOMAXPROCS(0)
	n := min(int(cost), budget)
	turn := false
	if cost >= Heavy && os.Getenv(AgentOverlapEnv) == "1" {
		n, turn = 1, true
	}
	agentsMu.Lock()
	for agentsUsed+n > budget || turn && agentsStarting != nil {
		agentsFree.Wait()
	}
	agentsUsed += n
	if turn {
		agentsStarting = t
	}
	agentsMu.Unlock()
	t.Cleanup(func() {
		agentsMu.Lock()
		agentsUsed -= n
		if agentsStarting == t {
			agentsStarting = nil
		}
		agentsMu.Unlock()
		agentsFree.Broadcast()
	})
}

// AgentStarted gives back t's start turn (RealAgent, with
// AgentOverlapEnv set) once every agent the test starts has drawn its
// prompt, so the next node agent starts while this one works; without
// the turn it does nothing. A test that does not call it keeps the turn
// to its end; one that starts another agent later must not call it
// first.
func AgentStarted(t testing.TB) {
	agentsMu.Lock()
	mine := agentsStarting == t
	if mine {
		agentsStarting = nil
	}
	agentsMu.Unlock()
	if mine {
		agentsFree.Broadcast()
	}
}

// Binary returns the path of cmd/tuios built from this module, building
// it on the first call of the test process (the go build cache makes it
// quick when nothing changed). A failed build fails every caller.
func Binary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "tuios-bin-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "tuios")
		binErr = build("./cmd/tuios", binPath)
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// Build builds the main package pkg of this module ("./examples/x") into
// out. For programs other than tuios itself, which Binary builds once.
func Build(t testing.TB, pkg, out string) {
	t.Helper()
	if err := build(pkg, out); err != nil {
		t.Fatal(err)
	}
}

func build(pkg, out string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = Root()
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

// Root is the module's root directory.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// World is one isolated place to run tuios in: Dir holds home/ (HOME)
// and run/ (XDG_RUNTIME_DIR, so the daemon's socket is its own), both
// 0700, and Vars is the environment for commands run there: the binary's
// directory first on PATH, a plain /bin/sh with a "$ " prompt, TERM
// xterm-256color.
type World struct {
	Dir  string
	Home string
	Vars []string
}

// NewWorld makes a World under a short temporary directory (a socket
// path must stay under 108 bytes), removed when the test ends, after
// the cleanups registered later (so a test's daemon is stopped first).
func NewWorld(t testing.TB, bin string) *World {
	t.Helper()
	dir, err := os.MkdirTemp("", "tu")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	w := &World{Dir: dir, Home: filepath.Join(dir, "home")}
	for _, sub := range []string{w.Home, filepath.Join(dir, "run")} {
		if err := os.MkdirAll(sub, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	w.Vars = []string{
		"PATH=" + filepath.Dir(bin) + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + w.Home,
		"XDG_RUNTIME_DIR=" + filepath.Join(dir, "run"),
		"SHELL=/bin/sh", "ENV=", "PS1=$ ", "TERM=xterm-256color",
	}
	return w
}
