package detect_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/pty"
)

// How long after an agent reaches a pane's foreground the pane shows its
// first state, on the real clock, a real shell and a real PTY. Each
// iteration types the agent's command line into the shell, takes the time
// of the Enter as the moment the agent appears (the shell's fork and exec
// are counted against the tracker), waits for working, then interrupts
// the agent and waits for the pane to clear. Two agents: the pretend
// agent, which paints at once, and a script named claude that starts
// silent for 600 ms, as Claude Code 2.1.197 does (its first byte comes
// about 0.6 s after exec here).
//
//	go test -run '^$' -bench FirstState -benchtime 20x ./detect/
//
// The machine is shared, so the median is the figure to read.
func BenchmarkFirstState(b *testing.B) {
	bin := agentBin(b)
	silent := filepath.Join(b.TempDir(), "claude")
	if err := os.WriteFile(silent, []byte("#!/bin/sh\nsleep 0.6\nprintf 'silent start over\\n'\nsleep 60\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	for _, agent := range []struct{ name, line string }{
		{"paints-at-once", "claude -as '' -prompt=false -steps 1000 -step 1s"},
		{"silent-600ms", silent},
	} {
		b.Run(agent.name, func(b *testing.B) {
			tr := detect.NewTracker(detect.TrackerOptions{StallAfter: -1})
			defer tr.Close()
			env := []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + b.TempDir(), "TERM=xterm-256color", "PS1=$ ", "ENV="}
			proc, err := pty.Start(pty.Options{Argv: []string{"sh", "-i"}, Env: env, Cols: 100, Rows: 30})
			if err != nil {
				b.Fatal(err)
			}
			pane := tr.Attach("w", detect.PaneOptions{ShellPID: proc.Pid(), Cols: 100, Rows: 30, Reply: proc})
			done := make(chan struct{})
			go func() {
				defer close(done)
				buf := make([]byte, 32<<10)
				for {
					n, err := proc.Read(buf)
					if n > 0 {
						pane.Write(buf[:n])
					}
					if err != nil {
						return
					}
				}
			}()
			defer func() { proc.Close(); <-done }()
			sub := tr.Arbiter().Subscribe(agentstate.SubscribeOptions{Pane: "w", Buffer: 256})
			defer sub.Close()
			waitFor := func(s agentstate.State) time.Time {
				deadline := time.After(20 * time.Second)
				for {
					if tr.Arbiter().Get("w").State == s {
						return time.Now()
					}
					select {
					case c := <-sub.C:
						if c.To == s {
							return c.At
						}
					case <-deadline:
						b.Fatalf("the pane never read %s (now %+v)", s, tr.Arbiter().Get("w"))
					}
				}
			}
			time.Sleep(300 * time.Millisecond) // the shell's first prompt
			var lags []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				proc.Write([]byte(agent.line + "\n"))
				typed := time.Now()
				lags = append(lags, waitFor(agentstate.Working).Sub(typed))
				proc.Write([]byte{3}) // ctrl-c: the shell comes back
				waitFor(agentstate.None)
				time.Sleep(50 * time.Millisecond)
			}
			b.StopTimer()
			slices.Sort(lags)
			b.ReportMetric(float64(lags[len(lags)/2].Microseconds())/1000, "ms-median")
			b.ReportMetric(float64(lags[len(lags)-1].Microseconds())/1000, "ms-worst")
			b.Logf("lags %v", lags)
		})
	}
}
