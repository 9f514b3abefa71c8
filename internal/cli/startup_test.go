package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// heavyInit are packages whose init builds tables at every process start
// (go-runewidth alone cost ~40 ms of a 55 ms `tuios --help`). Agents call
// the CLI in loops, so none of them may be linked into the binary.
var heavyInit = []string{
	"github.com/mattn/go-runewidth",
	"github.com/rivo/uniseg",
	"github.com/lucasb-eyer/go-colorful",
	"github.com/charmbracelet/x/ansi", // the top-level package pulls in go-runewidth; x/ansi/parser is fine
}

// TestNoHeavyInitInTheBinary fails when one of heavyInit comes back into
// cmd/tuios, so the CLI's start-up cost cannot regress silently.
func TestNoHeavyInitInTheBinary(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool:", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/tuios/tuios/cmd/tuios").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/tuios/tuios/vt") {
		t.Fatalf("go list -deps did not list vt; the check would prove nothing:\n%s", out)
	}
	for _, p := range heavyInit {
		if slices.Contains(deps, p) {
			t.Errorf("cmd/tuios links %s, whose init runs at every CLI call", p)
		}
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
