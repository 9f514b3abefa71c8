package detect_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/vt"
)

// coloured output like a build log, 1 MiB.
func buildLog() []byte {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "\x1b[32mok\x1b[0m  \tgithub.com/tuios/tuios/pkg%03d\t0.%03ds\r\n", i%1000, i%997)
	}
	return []byte(b.String())
}

// The tracker's cost on top of the screen, per MB of output, for a pane
// attributed to claude-code (so looks run) and for a plain pane.
func BenchmarkTrackerOverheadPerMB(b *testing.B) {
	data := buildLog()
	chunks := [][]byte{}
	for i := 0; i < len(data); i += 4096 {
		chunks = append(chunks, data[i:min(i+4096, len(data))])
	}
	b.Run("screen-only", func(b *testing.B) {
		s := vt.New(vt.Options{Cols: 120, Rows: 40})
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, c := range chunks {
				s.Write(c)
			}
		}
	})
	for _, attributed := range []bool{false, true} {
		b.Run(fmt.Sprintf("tracker-attributed=%v", attributed), func(b *testing.B) {
			clock := fakeclock.New(time.Unix(0, 0))
			tr := detect.NewTracker(detect.TrackerOptions{Clock: clock, DetectInterval: -1, StallAfter: -1})
			defer tr.Close()
			p := tr.Attach("w", detect.PaneOptions{Cols: 120, Rows: 40})
			if attributed {
				p.Report(agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport, Harness: "claude-code"}, "")
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, c := range chunks {
					p.Write(c)
					clock.Advance(time.Millisecond) // chunks arrive over time: looks run every 250 ms
				}
			}
		})
	}
}

// The same 1 MiB through a pane with a process whose foreground is read
// on output: this test process, which has no terminal, so its reading
// never settles and output reads it every DetectGap (the worst case;
// chunks arrive 1 ms apart on the fake clock).
func BenchmarkTrackerOverheadPerMBWithForegroundReads(b *testing.B) {
	data := buildLog()
	clock := fakeclock.New(time.Unix(0, 0))
	tr := detect.NewTracker(detect.TrackerOptions{Clock: clock, StallAfter: -1})
	defer tr.Close()
	p := tr.Attach("w", detect.PaneOptions{ShellPID: os.Getpid(), Cols: 120, Rows: 40})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 0; j < len(data); j += 4096 {
			p.Write(data[j:min(j+4096, len(data))])
			clock.Advance(time.Millisecond)
		}
	}
}

// 200 idle panes: what they hold. Reported, not asserted: timers armed and
// goroutines started by the tracker itself.
func BenchmarkTracker200IdlePanes(b *testing.B) {
	for i := 0; i < b.N; i++ {
		clock := fakeclock.New(time.Unix(0, 0))
		tr := detect.NewTracker(detect.TrackerOptions{Clock: clock, StallAfter: -1})
		for j := 0; j < 200; j++ {
			p := tr.Attach(fmt.Sprint("p", j), detect.PaneOptions{Cols: 80, Rows: 24})
			p.Write([]byte("$ "))
		}
		clock.Advance(time.Second)
		b.ReportMetric(float64(clock.Pending()), "timers")
		tr.Close()
	}
}
