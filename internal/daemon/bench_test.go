package daemon

import (
	"context"
	"fmt"
	"github.com/tuios/tuios/internal/config"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/client"
)

// server starts an in-process daemon on a private socket.
func server(tb testing.TB) (*Server, string) {
	tb.Helper()
	return serverWith(tb, nil)
}

// serverWith is server with options changed by set (nil: none).
func serverWith(tb testing.TB, set func(*Options)) (*Server, string) {
	tb.Helper()
	return testServer(tb, set, true)
}

// strictServer is a server that, like the daemon proper, puts every
// process this test binary starts itself inside (boundary.go).
func strictServer(tb testing.TB) (*Server, string) {
	tb.Helper()
	return testServer(tb, nil, false)
}

// cappedServer is a server with connection caps small enough to flood
// in a test.
func cappedServer(tb testing.TB, lim connLimits) (*Server, string) {
	tb.Helper()
	return testServerWith(tb, nil, func(s *Server) { s.ownChildrenOutside, s.limits = true, lim })
}

func testServer(tb testing.TB, set func(*Options), childrenOutside bool) (*Server, string) {
	tb.Helper()
	return testServerWith(tb, set, func(s *Server) { s.ownChildrenOutside = childrenOutside })
}

// testServerWith makes a server, changes it with tune before it listens,
// and serves it until the test ends.
func testServerWith(tb testing.TB, set func(*Options), tune func(*Server)) (*Server, string) {
	tb.Helper()
	dir, err := os.MkdirTemp("", "tb")
	if err != nil {
		tb.Fatal(err)
	}
	sock := filepath.Join(dir, "s", "tuios.sock")
	opt := Options{Socket: sock, Shell: "/bin/sh", Env: []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "PS1=$ ", "ENV="}, StateDir: filepath.Join(dir, "state"),
		Tracker: detect.TrackerOptions{StallAfter: -1, Home: dir}, Config: &config.File{}}
	if set != nil {
		set(&opt)
	}
	srv, err := New(opt)
	if err != nil {
		tb.Fatal(err)
	}
	// The test binary is the daemon here, and it also starts the
	// person's programs and sshd: its own children are not put inside
	// (the boundary tests turn this off, and the CLI's run a real daemon).
	tune(srv)
	if err := srv.Listen(); err != nil {
		tb.Fatal(err)
	}
	go srv.Serve(context.Background())
	tb.Cleanup(func() { srv.Close(); os.RemoveAll(dir) })
	return srv, sock
}

// A verb's round trip over the socket, with p50 and p99 reported.
func BenchmarkVerbRoundTrip(b *testing.B) {
	_, sock := server(b)
	c, err := client.Dial(client.Options{Socket: sock})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	c.Call("new-session", map[string]any{"name": "b"}, nil)
	for _, verb := range []string{"hello", "get-agent-state"} {
		b.Run(verb, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				t := time.Now()
				if err := c.Call(verb, nil, nil); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t))
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}

// list-agents --all over 200 panes.
func BenchmarkListAgents200Panes(b *testing.B) {
	_, sock := server(b)
	c, err := client.Dial(client.Options{Socket: sock})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	c.Call("new-session", map[string]any{"name": "b", "window": false}, nil)
	for i := 0; i < 200; i++ {
		if err := c.Call("new-window", map[string]any{"session": "b", "name": fmt.Sprint("w", i), "no_focus": true}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var res struct {
			Total int `json:"total"`
		}
		if err := c.Call("list-agents", map[string]any{"session": "b", "all": true}, &res); err != nil || res.Total != 200 {
			b.Fatal(err, res.Total)
		}
	}
}
