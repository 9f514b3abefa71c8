package agentlog

import (
	"os"
	"testing"
)

// Fuzz: any bytes parse without panicking into entries that hold no
// control character but newline and tab, and consumed ends on a line.
func FuzzParseConversation(f *testing.F) {
	b, _ := os.ReadFile("../testdata/claude_transcript.jsonl") // the daemon's tests read it too
	f.Add(b)
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"\u001b]0;x\u0007hi"}]}]}}` + "\n"))
	f.Add([]byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"TodoWrite","input":{"todos":[{"content":1}]}}]}}` + "\n{\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		es, n := parseConversation(in)
		if n < 0 || n > len(in) || n > 0 && in[n-1] != '\n' {
			t.Fatalf("consumed %d of %d", n, len(in))
		}
		for _, e := range es {
			for _, s := range []string{e.Text, e.Tool, e.File, e.Time, e.ToolUseID} {
				for _, c := range s {
					if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c == 0x1b {
						t.Fatalf("control %U in %q", c, s)
					}
				}
			}
			if len(e.Text) > transcriptTextMax+len("…") {
				t.Fatalf("text of %d bytes", len(e.Text))
			}
		}
	})
}
