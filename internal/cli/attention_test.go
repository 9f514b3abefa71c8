package cli

import (
	"strings"
	"testing"
	"time"
)

func TestWriteAttentionTextForm(t *testing.T) {
	now := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	ago := func(d time.Duration) int64 { return now.Add(-d).UnixNano() }
	items := []attentionItem{
		{ID: "2", Kind: "approval", Session: "api", Name: "claude", Summary: "approve Bash: make", Since: ago(35 * time.Second)},
		{ID: "1", Kind: "question", Session: "docs", Name: "claude", Summary: "which retry policy?", Since: ago(46 * time.Second)},
		{ID: "7", Kind: "approval", Session: "api", Name: "held", Summary: "approve Bash: go test ./...", Since: ago(2 * time.Minute), HeldID: "r1"},
		{ID: "9", Kind: "finished", Session: "api", Name: "x\x1b[2Jy", Summary: "done", Since: ago(3 * time.Hour), SnoozedUntil: -1},
		{ID: "11", Kind: "finished", Session: "api", Name: "quiet", Since: ago(5 * time.Second)},                // Claude Code's Stop says nothing
		{ID: "12", Kind: "finished", Session: "api", Name: "hush", Since: ago(4 * time.Hour), SnoozedUntil: -1}, // nor when snoozed
	}
	var b strings.Builder
	WriteAttention(&b, items, now)
	want := "Approvals\n" +
		"   35s  #2     api/claude  approve Bash: make\n" +
		"    2m  #7     api/held  approve Bash: go test ./... (held: answer in the Inbox)\n" +
		"\nQuestions\n" +
		"   46s  #1     docs/claude  which retry policy?\n" +
		"\nDone\n" +
		"    5s  #11    api/quiet\n" +
		"\nSnoozed\n" +
		"    3h  #9     api/x\\x1b[2Jy  done [until it changes]\n" +
		"    4h  #12    api/hush  [until it changes]\n" +
		"\n4 waiting. Open the Inbox with the prefix key then i, or jump to the oldest with the prefix key then o.\n"
	if got := b.String(); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	b.Reset()
	WriteAttention(&b, nil, now)
	if b.String() != "Nothing waiting for you.\n" {
		t.Fatalf("empty: %q", b.String())
	}
}

func TestParseWhen(t *testing.T) {
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.Local)
	if at, err := parseWhen("09:00", now); err != nil || !at.Equal(time.Date(2026, 5, 2, 9, 0, 0, 0, time.Local)) {
		t.Fatalf("09:00 after ten: %v %v", at, err)
	}
	if at, err := parseWhen("11:30", now); err != nil || !at.Equal(time.Date(2026, 5, 1, 11, 30, 0, 0, time.Local)) {
		t.Fatalf("11:30: %v %v", at, err)
	}
	if _, err := parseWhen("soon", now); err == nil {
		t.Fatal("soon parsed")
	}
}

func TestWriteAttentionHostAndHeldMail(t *testing.T) {
	now := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	items := []attentionItem{
		{ID: "build:4", Kind: "approval", Host: "build", Session: "api", Name: "claude", Summary: "approve Bash: make", Since: now.Add(-time.Minute).UnixNano()},
		{ID: "5", Kind: "mail", Session: "api", Name: "human", Summary: "retest please", Since: now.Add(-2 * time.Minute).UnixNano(), HeldFor: "worker"},
	}
	var b strings.Builder
	WriteAttention(&b, items, now)
	got := b.String()
	for _, want := range []string{"#build:4 build:api/claude", "retest please [held for worker, p passes on in the Inbox]"} {
		if !strings.Contains(strings.Join(strings.Fields(got), " "), want) {
			t.Fatalf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "build:build:") {
		t.Fatalf("host named twice:\n%s", got)
	}
}
