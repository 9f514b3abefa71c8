package agentlog

import (
	"strings"
	"testing"
)

// Claude Code may write a prompt's record after the first records of its
// answer; the conversation is read in the order the records were made.
func TestConversationInTheOrderItHappened(t *testing.T) {
	lines := []string{
		`{"type":"assistant","timestamp":"2026-12-06T09:00:02.000Z","message":{"content":[{"type":"text","text":"I'll write the file."}]}}`,
		`{"type":"assistant","timestamp":"2026-12-06T09:00:02.000Z","message":{"content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"/w/a.txt","content":"hi\n"}}]}}`,
		`{"type":"user","timestamp":"2026-12-06T09:00:01.000Z","message":{"content":"Write a.txt"}}`,
		`{"type":"user","timestamp":"2026-12-06T09:00:03.000Z","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"done"}]}}`,
		`{"type":"assistant","timestamp":"2026-12-06T09:00:04.000Z","message":{"content":[{"type":"text","text":"Wrote it."}]}}`,
	}
	entries, _ := parseConversation([]byte(strings.Join(lines, "\n") + "\n"))
	var kinds []string
	for _, e := range entries {
		kinds = append(kinds, e.Kind)
	}
	if got := strings.Join(kinds, ","); !strings.HasPrefix(got, "prompt,answer,tool_call,tool_result") || !strings.HasSuffix(got, "answer") {
		t.Fatalf("kinds %s", got)
	}
	if entries[0].Text != "Write a.txt" || entries[1].Text != "I'll write the file." {
		t.Fatalf("entries %+v", entries)
	}
}
