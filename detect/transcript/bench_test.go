package transcript_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/detect/transcript"
)

// A 150 MB transcript of realistic lines (a few KB each, content the
// decoder must walk past) ending in an end_turn.
func bigTranscript(b *testing.B, size int) string {
	b.Helper()
	p := filepath.Join(b.TempDir(), "big.jsonl")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	body := strings.Repeat("lorem ipsum dolor sit amet \\\"quoted\\\" ", 60)
	user := `{"parentUuid":"a","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"` + body + `"}]},"uuid":"b","timestamp":"2026-11-30T10:00:00Z","sessionId":"s-1","cwd":"/home/u/proj","version":"2.1.222"}` + "\n"
	asst := `{"parentUuid":"b","isSidechain":false,"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"` + body + `"}],"stop_reason":"tool_use"},"uuid":"c","timestamp":"2026-11-30T10:00:01Z","sessionId":"s-1","cwd":"/home/u/proj","version":"2.1.222"}` + "\n"
	chunk := strings.Repeat(user+asst, 64)
	for n := 0; n < size; n += len(chunk) {
		f.WriteString(chunk)
	}
	f.WriteString(strings.Replace(asst, `"tool_use"`, `"end_turn"`, 1))
	f.Close()
	return p
}

func BenchmarkColdRead150MB(b *testing.B) {
	p := bigTranscript(b, 150<<20)
	st, _ := os.Stat(p)
	b.ReportMetric(float64(st.Size())/(1<<20), "MiB")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		obs, ok, err := transcript.NewReader(p).Read()
		if err != nil || !ok || obs.Turn != transcript.TurnDone {
			b.Fatal(obs, ok, err)
		}
	}
}

// A warm reader seeing one appended record, as a watched join does.
func BenchmarkWarmReadAppend(b *testing.B) {
	p := bigTranscript(b, 4<<20)
	r := transcript.NewReader(p)
	r.Read()
	rec := `{"type":"assistant","isSidechain":false,"message":{"content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn"},"sessionId":"s-1"}` + "\n"
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	defer f.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.WriteString(rec)
		if _, ok, err := r.Read(); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}
