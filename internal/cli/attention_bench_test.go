package cli_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkListAttentionCLI is `tuios list-attention --json` with 1,000
// open approval items, from process start to the answer printed: what a
// script polling the Inbox pays per call.
func BenchmarkListAttentionCLI(b *testing.B) {
	e := newEnv(b)
	e.ok("new", "--detach", "fleet")
	// 1,000 panes running cat, each reported blocked on an approval.
	script := strings.Builder{}
	for i := range 1000 {
		fmt.Fprintf(&script, "id=$(tuios new-window -s fleet a%d --no-focus --json -- /bin/cat | sed -n 's/.*\"window_id\": *\"\\([^\"]*\\)\".*/\\1/p')\n", i)
		fmt.Fprintf(&script, "tuios set-agent-state needs_input -s fleet -w \"$id\" --kind approval -m 'approve Bash: go test ./... (%d)'\n", i)
	}
	file := filepath.Join(e.dir, "setup.sh")
	if err := os.WriteFile(file, []byte(script.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	c := exec.Command("/bin/sh", file)
	c.Env = e.vars
	if out, err := c.CombinedOutput(); err != nil {
		b.Fatalf("setting up: %v\n%s", err, out)
	}
	var l cliAttList
	for deadline := time.Now().Add(30 * time.Second); l.Total < 1000 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		e.json(&l, "list-attention")
	}
	if l.Total != 1000 {
		b.Fatalf("%d items open, want 1000", l.Total)
	}
	var ms []float64
	b.ResetTimer()
	for range max(b.N, 30) {
		cmd := exec.Command(e.bin, "list-attention", "--json")
		cmd.Env = e.vars
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		ms = append(ms, float64(time.Since(start).Microseconds())/1000)
	}
	b.StopTimer()
	slices.Sort(ms)
	b.ReportMetric(ms[len(ms)/2], "cli-ms")
	b.ReportMetric(0, "ns/op")
}
