package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

func TestPrintOutboxFencesWhatCameFromElsewhere(t *testing.T) {
	var res proto.OutboxList
	remarshal(map[string]any{"hosts": []any{map[string]any{"host": "build", "status": "up", "waiting": 1, "next_retry": time.Now().Add(4 * time.Second).UnixMilli(),
		"refused": "forbidden (to api): \x1b]52;c;aGk=\x07no mail", "messages": []any{map[string]any{"queue_id": 3, "session": "api", "text": "line one\nline two\x1b[2J"}}}}}, &res)
	var b bytes.Buffer
	printOutbox(&Context{Stdout: &b}, res, time.Now())
	out := b.String()
	if strings.Contains(out, "\x1b") || strings.Contains(out, "\x07") || !strings.Contains(out, "line one line two") || !strings.Contains(out, "next try in") ||
		!strings.Contains(out, "refused: forbidden (to api)") {
		t.Fatalf("printed:\n%q", out)
	}
	b.Reset()
	printOutbox(&Context{Stdout: &b}, proto.OutboxList{}, time.Now())
	if b.String() != "Nothing waits to be sent.\n" {
		t.Fatalf("empty: %q", b.String())
	}
}
