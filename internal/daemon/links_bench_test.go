package daemon

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/testsshd"
)

// get-agent-state round trips: on this daemon's socket (local), through a
// connection handed to a host by open-host-connection (link: near daemon,
// ssh channel over a real sshd on loopback, far stdio-proxy, far daemon),
// and by the daemon's own hostCall (kept channels). p50 and p99 reported.
func BenchmarkHostGetAgentState(b *testing.B) {
	w := newLinkWorld(b, testsshd.Options{})
	w.startNear(w.hostTable("far"), func(o *Options) { o.Logf = nil })
	r := dialRPC(b, w.sock)
	waitStatus(b, r, "far", "up")
	dialRPC(b, w.far.Socket()).must("new-session", map[string]any{"name": "api", "argv": []string{"/bin/cat"}})
	r.must("new-session", map[string]any{"name": "api", "argv": []string{"/bin/cat"}})

	local, err := client.Dial(client.Options{Socket: w.sock})
	if err != nil {
		b.Fatal(err)
	}
	defer local.Close()
	link, err := client.Dial(client.Options{Socket: w.sock})
	if err != nil {
		b.Fatal(err)
	}
	defer link.Close()
	if err := link.Call("open-host-connection", map[string]any{"host": "far"}, nil); err != nil {
		b.Fatal(err)
	}
	params := map[string]any{"session": "api"}
	run := func(b *testing.B, call func() error) {
		lat := make([]time.Duration, 0, b.N)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			t := time.Now()
			if err := call(); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(t))
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	}
	b.Run("local", func(b *testing.B) { run(b, func() error { return local.Call("get-agent-state", params, nil) }) })
	b.Run("link", func(b *testing.B) { run(b, func() error { return link.Call("get-agent-state", params, nil) }) })
	b.Run("hostCall", func(b *testing.B) {
		run(b, func() error {
			if err := w.near.links.Call(context.Background(), "far", "get-agent-state", params, nil); err != nil {
				return err
			}
			return nil
		})
	})
}
