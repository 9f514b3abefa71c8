package inbox_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
)

// The queue is safe for concurrent use (run with -race): connections
// list and act while panes report.
func TestConcurrentUse(t *testing.T) {
	r := newRig(t)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			id := "p" + strconv.Itoa(g)
			for i := 0; i < 200; i++ {
				s := agentstate.Snapshot{Pane: id, State: []agentstate.State{agentstate.NeedsInput, agentstate.Working, agentstate.Errored, agentstate.Done}[i%4],
					Message: "m" + strconv.Itoa(i%3), CompletionSeq: uint64(i / 4), FinishedUnread: true}
				r.q.Update(pane(id), s)
				for _, it := range r.q.List(inbox.ListOptions{}).Items {
					if i%7 == 0 {
						r.q.Dismiss(it.ID)
					} else if i%11 == 0 {
						r.q.Snooze(it.ID, inbox.Snooze{For: time.Second})
					}
				}
				r.q.Undo()
				r.q.Tick(r.clock.Now().Add(time.Duration(i) * time.Second))
				r.q.NextWake()
				r.q.Marshal()
			}
		}(g)
	}
	wg.Wait()
	seen := map[inbox.Key]bool{}
	for _, it := range r.q.List(inbox.ListOptions{IncludeSnoozed: true}).Items {
		if seen[it.Key()] {
			t.Fatalf("two items for %s", it.Key())
		}
		seen[it.Key()] = true
	}
}

// The wire names of an item are the ones clients read (list-attention
// --json, attention events): a rename breaks them.
func TestItemWireNames(t *testing.T) {
	it := inbox.Item{ID: "1", Kind: inbox.KindApproval, Session: "api", Window: "w", Summary: "s", Since: 1, Seq: 2,
		Options: []string{"once"}, RequestID: "r", AlwaysScope: []string{"x"}, Expires: 3, Answer: "a", AnsweredBy: "human",
		Thread: 4, Count: 5, CompletionSeq: 6, Closed: inbox.ReasonSnoozed, Stale: true, SeenAt: 7, SnoozedUntil: -1,
		MarkedUnread: true, DenyMessage: true, PlanLines: 8, PlanSHA: "sha", HeldID: "h", HeldFor: "api", ForHost: "build",
		Host: "build", Workspace: "1", Harness: "claude-code", Name: "n"}
	b, err := json.Marshal(it)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range strings.Fields(`id kind host session window workspace harness name summary options request_id always_scope
		expires answer answered_by since seq thread count completion_seq closed stale seen_at snoozed_until marked_unread
		deny_message plan_lines plan_sha held_id held_for for_host`) {
		if !strings.Contains(string(b), `"`+k+`":`) {
			t.Errorf("no %q in %s", k, b)
		}
	}
}
