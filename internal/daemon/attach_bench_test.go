package daemon

import (
	"bytes"
	"encoding/json"
	"sort"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// BenchmarkAttachedEcho is the daemon's part of a key's echo on an
// attached client: a typed character goes in on the call connection and
// its row comes back on the attach stream, then it is erased the same
// way. A shell at its prompt echoes through the terminal, as in use. The
// p50 is one character's round trip (typed, echoed, sent).
func BenchmarkAttachedEcho(b *testing.B) {
	_, sock := server(b)
	r := dialRPC(b, sock)
	id := str(r.must("new-session", map[string]any{"name": "e"})["window_id"])
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": `\$`, "timeout": 10000})
	st, _ := attachStreamT(b, sock, map[string]any{"session": "e", "cols": 120, "rows": 40})
	calls := dialRPC(b, sock)
	// until reads stream lines until a screen row of the pane holds want
	// (or, with want "", no longer holds gone).
	until := func(has []byte, gone bool) {
		for {
			l := st.next()
			if l.typ != "screen" {
				continue
			}
			var sc proto.AttachScreen
			json.Unmarshal(l.raw, &sc)
			for _, row := range sc.Lines {
				if bytes.Contains([]byte(row.Text), has) != gone {
					return
				}
			}
		}
	}
	until([]byte("$"), false)
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := string(rune('a' + i%26))
		t0 := time.Now()
		calls.must("send-text", map[string]any{"window": id, "text": c})
		until([]byte("$ "+c), false)
		lat = append(lat, time.Since(t0))
		calls.must("send-text", map[string]any{"window": id, "text": "\x7f"})
		until([]byte("$ "+c), true)
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
}
