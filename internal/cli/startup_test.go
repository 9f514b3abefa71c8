package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Agents call the CLI in loops, so no package linked into the binary may
// build tables when the process starts (go-runewidth before v0.0.30 spent
// ~40 ms of a 55 ms `tuios --help` doing that). What a package's init
// allocates is the deterministic trace of such work, so that is what is
// bounded: the time itself is measured by BenchmarkStartup, never asserted.
const (
	maxInitBytesPerPackage = 64 << 10
	maxInitBytesTotal      = 256 << 10
)

// TestNoHeavyInitInTheBinary runs the built binary with
// GODEBUG=inittrace=1 and fails when a package's init, or all of them
// together, allocate more than the bounds above.
func TestNoHeavyInitInTheBinary(t *testing.T) {
	t.Parallel()
	bin := tuiosBin(t)
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tuios --version: %v\n%s", err, stderr.String())
	}
	// init PKG @0.60 ms, 0.079 ms clock, 4280 bytes, 26 allocs
	line := regexp.MustCompile(`(?m)^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, \d+ allocs$`)
	total, seen := 0, false
	for _, m := range line.FindAllStringSubmatch(stderr.String(), -1) {
		n, _ := strconv.Atoi(m[2])
		total += n
		seen = seen || m[1] == "github.com/tuios/tuios/detect"
		if n > maxInitBytesPerPackage {
			t.Errorf("%s allocates %d bytes in its init, at every CLI call (bound %d)", m[1], n, maxInitBytesPerPackage)
		}
	}
	if !seen {
		t.Fatalf("the init trace did not list detect; the check would prove nothing:\n%s", stderr.String())
	}
	if total > maxInitBytesTotal {
		t.Errorf("package inits allocate %d bytes together at every CLI call (bound %d)", total, maxInitBytesTotal)
	}
}

// BenchmarkStartup measures one CLI call the way an agent's loop pays for
// it, against tmux on the same machine in the same run: the median wall
// time of `tuios ls` against a running daemon and of `tmux list-sessions`
// against a running server (at least 30 runs each, interleaved so machine
// noise hits both alike), and `tuios --version`, which does not reach the
// daemon. Run with:
//
//	go test ./internal/cli -run '^$' -bench Startup -benchtime 50x
func BenchmarkStartup(b *testing.B) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		b.Skip("tmux is not installed")
	}
	e := newEnv(b)
	for i := range 5 {
		e.ok("new", "--detach", "s"+strconv.Itoa(i))
	}
	sock := filepath.Join(e.dir, "tmux.sock")
	tm := func(args ...string) *exec.Cmd {
		c := exec.Command(tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
		c.Env = e.vars
		return c
	}
	for i := range 5 {
		if out, err := tm("new-session", "-d", "-s", "s"+strconv.Itoa(i)).CombinedOutput(); err != nil {
			b.Fatalf("tmux new-session: %v %s", err, out)
		}
	}
	b.Cleanup(func() { tm("kill-server").Run() })

	tuios := func(args ...string) *exec.Cmd {
		c := exec.Command(e.bin, args...)
		c.Env = e.vars
		return c
	}
	timeOf := func(c *exec.Cmd) float64 {
		c.Stdout, c.Stderr = nil, nil
		start := time.Now()
		if err := c.Run(); err != nil {
			b.Fatalf("%v: %v", c.Args, err)
		}
		return float64(time.Since(start).Microseconds()) / 1000
	}
	// agent-hook as a harness runs it: a PreToolUse payload on stdin,
	// from process start to the report applied in the daemon.
	var wins struct {
		Windows []struct {
			ID string `json:"window_id"`
		} `json:"windows"`
	}
	e.json(&wins, "list-windows")
	hook := func() *exec.Cmd {
		c := tuios("agent-hook", "claude-code", "--window", wins.Windows[0].ID)
		c.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","session_id":"bench","tool_name":"Bash","tool_input":{"command":"go test ./..."}}`)
		return c
	}
	runs := max(b.N, 30)
	var ls, version, tmuxLs, hooks []float64
	b.ResetTimer()
	for range runs {
		ls = append(ls, timeOf(tuios("ls")))
		tmuxLs = append(tmuxLs, timeOf(tm("list-sessions")))
		version = append(version, timeOf(tuios("--version")))
		hooks = append(hooks, timeOf(hook()))
	}
	b.StopTimer()
	med := func(v []float64) float64 { slices.Sort(v); return v[len(v)/2] }
	l, t, v, h := med(ls), med(tmuxLs), med(version), med(hooks)
	b.ReportMetric(l, "tuios-ls-ms")
	b.ReportMetric(t, "tmux-ls-ms")
	b.ReportMetric(l/t, "ls/tmux")
	b.ReportMetric(v, "tuios-version-ms")
	b.ReportMetric(h, "agent-hook-ms")
	b.ReportMetric(h/t, "hook/tmux")
	b.ReportMetric(0, "ns/op")
	if os.Getenv("TUIOS_BENCH_VERBOSE") != "" {
		b.Logf("medians of %d runs: tuios ls %.2f ms, tmux list-sessions %.2f ms (%.2f×), tuios --version %.2f ms, agent-hook %.2f ms (%.2f×)", runs, l, t, l/t, v, h, h/t)
	}
}
