package daemon

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/client"
)

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
