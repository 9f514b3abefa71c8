package cli_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// How long after an agent is started in a daemon's pane the pane shows
// its first state: the same figure as detect's BenchmarkFirstState,
// through the daemon and its event stream. The moment the command line is
// in the pane's PTY (send-text returned) is taken as the moment the agent
// appears; the agent-state event's own time is when the daemon saw it.
//
//	go test -run '^$' -bench DaemonFirstState -benchtime 10x ./internal/cli/
func BenchmarkDaemonFirstState(b *testing.B) {
	e := newEnv(b)
	silent := filepath.Join(e.dir, "bin", "claude")
	os.MkdirAll(filepath.Dir(silent), 0o755)
	if err := os.WriteFile(silent, []byte("#!/bin/sh\nsleep 0.6\nprintf 'silent start over\\n'\nsleep 60\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	e.ok("new", "--detach", "work")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", `(?m)^\$`, "--timeout", "10000")
	events := e.watchAgentEvents(b)
	for _, agent := range []struct{ name, line string }{
		{"paints-at-once", "tuios pretend-agent -prompt=false -steps 1000 -step 1s"},
		{"silent-600ms", silent},
	} {
		b.Run(agent.name, func(b *testing.B) {
			var lags []time.Duration
			for i := 0; i < b.N; i++ {
				from := len(events.all())
				e.ok("send-text", "-s", "work", agent.line+"\n")
				typed := time.Now()
				var at time.Time
				for deadline := time.Now().Add(20 * time.Second); at.IsZero(); time.Sleep(5 * time.Millisecond) {
					if time.Now().After(deadline) {
						b.Fatalf("no working event: %+v\n%s\n%s", events.all()[from:], e.ok("capture-pane", "-s", "work"), e.ok("get-agent-state", "-s", "work", "-w", "0"))
					}
					for _, ev := range events.all()[from:] {
						if ev.State == "working" {
							at, _ = time.Parse(time.RFC3339Nano, ev.Time)
							break
						}
					}
				}
				lags = append(lags, at.Sub(typed))
				e.ok("send-keys", "-s", "work", "ctrl+c")
				e.ok("wait-for", "agent-state", "-s", "work", "-w", "0", "--until", "none", "--timeout", "20000")
				time.Sleep(100 * time.Millisecond)
			}
			slices.Sort(lags)
			b.ReportMetric(float64(lags[len(lags)/2].Microseconds())/1000, "ms-median")
			b.ReportMetric(float64(lags[len(lags)-1].Microseconds())/1000, "ms-worst")
			b.Logf("lags %v", lags)
		})
	}
}
