package inbox_test

import (
	"strconv"
	"testing"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/review"
)

func benchQueue(b *testing.B) *inbox.Queue {
	ck, err := review.NewChecker(review.RiskConfig{})
	if err != nil {
		b.Fatal(err)
	}
	return inbox.New(inbox.Options{Clock: fakeclock.New(t0), BootID: "bench", Risk: ck})
}

func blocked(msg string) agentstate.Snapshot {
	return agentstate.Snapshot{Pane: "w", State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Message: msg, Harness: "claude-code", Claimed: true}
}

// The steady path: a pane on needs_input reported again, unchanged (every
// agentstate change that is not about the Inbox, such as a restamp, ends
// here). Nothing is published.
func BenchmarkUpdateUnchanged(b *testing.B) {
	q := benchQueue(b)
	p, s := pane("w"), blocked("approve Bash: go test ./...")
	q.Update(p, s)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if evs := q.Update(p, s); evs != nil {
			b.Fatal(evs)
		}
	}
}

// A working pane with no items: the commonest change.
func BenchmarkUpdateWorking(b *testing.B) {
	q := benchQueue(b)
	p, s := pane("w"), agentstate.Snapshot{Pane: "w", State: agentstate.Working, Harness: "claude-code"}
	q.Update(p, s)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q.Update(p, s)
	}
}

// A pane on needs_input changing its line every time: one update event
// per call (summary cleaned and risk read once per new line).
func BenchmarkUpdateNewLine(b *testing.B) {
	q := benchQueue(b)
	p := pane("w")
	ss := [2]agentstate.Snapshot{blocked("approve Bash: go test ./..."), blocked("approve Bash: git push --force origin main")}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if evs := q.Update(p, ss[i&1]); len(evs) != 1 && i > 0 {
			b.Fatal(evs)
		}
	}
}

// A pane flipping between working and needs_input: an item opens and
// closes every two calls.
func BenchmarkUpdateOpenClose(b *testing.B) {
	q := benchQueue(b)
	p := pane("w")
	ss := [2]agentstate.Snapshot{blocked("approve Bash: go test ./..."), {Pane: "w", State: agentstate.Working}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q.Update(p, ss[i&1])
	}
}

func thousand(b *testing.B) *inbox.Queue {
	q := benchQueue(b)
	for i := 0; i < 1000; i++ {
		id := "w" + strconv.Itoa(i)
		var s agentstate.Snapshot
		switch i % 4 {
		case 0:
			s = blocked("approve Bash: make " + id)
		case 1:
			s = agentstate.Snapshot{State: agentstate.NeedsInput, Kind: agentstate.KindQuestion, Message: "which one? " + id}
		case 2:
			s = agentstate.Snapshot{State: agentstate.Errored, Message: "API error " + id}
		case 3:
			s = agentstate.Snapshot{State: agentstate.Done, Message: "done " + id, CompletionSeq: 1, FinishedUnread: true}
		}
		s.Pane = id
		q.Update(pane(id), s)
	}
	if l := q.List(inbox.ListOptions{}); l.Total != 1000 {
		b.Fatalf("%d open", l.Total)
	}
	return q
}

// list-attention over 1,000 open items.
func BenchmarkList1000(b *testing.B) {
	q := thousand(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if l := q.List(inbox.ListOptions{}); len(l.Items) != 1000 {
			b.Fatal(len(l.Items))
		}
	}
}

// The same list narrowed to one kind.
func BenchmarkList1000OneKind(b *testing.B) {
	q := thousand(b)
	opt := inbox.ListOptions{Kinds: []inbox.Kind{inbox.KindErrored}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if l := q.List(opt); len(l.Items) != 250 {
			b.Fatal(len(l.Items))
		}
	}
}
