package daemon

import (
	"os/exec"
	"sort"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/testsshd"
)

// benchWorld is a near daemon linked to the far one, a session "api" on
// both, and the pool warmed.
func benchWorld(b *testing.B) *linkWorld {
	w := newLinkWorld(b, testsshd.Options{})
	w.startNear(w.hostTable("far"), func(o *Options) { o.Logf = func(string, ...any) {} })
	r := dialRPC(b, w.sock)
	waitStatus(b, r, "far", "up")
	dialRPC(b, w.far.Socket()).must("new-session", map[string]any{"name": "api", "argv": []string{"/bin/cat"}})
	r.must("new-session", map[string]any{"name": "api", "argv": []string{"/bin/cat"}})
	eventually(b, "a channel warmed", func() bool { return len(poolOf(w.near, "far")) == 1 })
	return w
}

// latencies runs call b.N times and reports p50 and p99, and the channels
// opened per call.
func latencies(b *testing.B, w *linkWorld, call func() error) {
	lat := make([]time.Duration, 0, b.N)
	opens := w.near.links.Opens()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := time.Now()
		if err := call(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(w.near.links.Opens()-opens)/float64(b.N), "opens/op")
}

// A whole CLI-style call: connect to the local socket, (for a host)
// open-host-connection, one get-agent-state, close. local is the
// baseline; pooled takes a pooled channel; unpooled opens one each time
// (a far stdio-proxy through sshd), as before the pool.
func BenchmarkHostCLICall(b *testing.B) {
	w := benchWorld(b)
	params := map[string]any{"session": "api"}
	local := func() error {
		c, err := client.Dial(client.Options{Socket: w.sock})
		if err != nil {
			return err
		}
		defer c.Close()
		return c.Call("get-agent-state", params, nil)
	}
	far := func() error {
		c, err := client.Dial(client.Options{Socket: w.sock})
		if err != nil {
			return err
		}
		defer c.Close()
		if err := c.Call("open-host-connection", map[string]any{"host": "far"}, nil); err != nil {
			return err
		}
		return c.Call("get-agent-state", params, nil)
	}
	b.Run("local", func(b *testing.B) { latencies(b, w, local) })
	b.Run("pooled", func(b *testing.B) { latencies(b, w, far) })
	b.Run("unpooled", func(b *testing.B) {
		w.near.links.SetPooling(false)
		defer w.near.links.SetPooling(true)
		latencies(b, w, far)
	})
}

// The real CLI binary's wall time, median of 30 runs per b.N: `tuios
// get-agent-state -w far:api:0` with the pool and without, and the same
// verb on this machine. Run it with -benchtime=1x.
func BenchmarkHostCLIBinary(b *testing.B) {
	w := benchWorld(b)
	run := func(b *testing.B, args ...string) {
		var lat []time.Duration
		for i := 0; i < b.N; i++ {
			for j := 0; j < 30; j++ {
				cmd := exec.Command(w.bin, append([]string{"get-agent-state"}, args...)...)
				cmd.Env = []string{"TUIOS_SOCKET=" + w.sock, "HOME=" + w.home, "PATH=/usr/bin:/bin"}
				t := time.Now()
				out, err := cmd.CombinedOutput()
				if err != nil {
					b.Fatalf("%v: %v: %s", args, err, out)
				}
				lat = append(lat, time.Since(t))
			}
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
		b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds())/1000, "p90-ms")
	}
	b.Run("local", func(b *testing.B) { run(b, "-s", "api", "-w", "0") })
	b.Run("pooled", func(b *testing.B) { run(b, "-w", "far:api:0") })
	b.Run("unpooled", func(b *testing.B) {
		w.near.links.SetPooling(false)
		defer w.near.links.SetPooling(true)
		run(b, "-w", "far:api:0")
	})
}
