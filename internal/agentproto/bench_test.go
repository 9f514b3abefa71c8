package agentproto

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/agentproto/conv"
)

// A frame of a full transcript (1,000 entries, the newest a 64 KiB
// message): what each redraw costs under a flood, at most 60 a second.
func BenchmarkFrameFullTranscript(b *testing.B) {
	m := newModel("acp", "agent")
	m.started = true
	for i := 0; i < maxBlocks; i++ {
		m.tr.tool(conv.Tool{ID: strconv.Itoa(i), Title: "go test ./...", Kind: "execute", Status: "completed", Output: "ok\nok\n"})
	}
	m.tr.text(conv.Text{Role: conv.RoleAgent, Text: strings.Repeat("a streamed answer ", maxBlockText/18)})
	b.ReportAllocs()
	for b.Loop() {
		rows, cr, cc := m.frame(120, 40)
		render(rows, cr, cc, true)
	}
}

// One streamed chunk appended to a long message.
func BenchmarkTranscriptChunk(b *testing.B) {
	tr := newTranscript()
	chunk := conv.Text{Role: conv.RoleAgent, Text: "token "}
	b.ReportAllocs()
	for b.Loop() {
		tr.text(chunk)
	}
}

func BenchmarkCleanAgentText(b *testing.B) {
	s := strings.Repeat("plain words of an answer, \x1b[1mbold\x1b[0m and a tab\there\n", 20)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		Clean(s)
	}
}
