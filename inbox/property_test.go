package inbox_test

import (
	"math/rand"
	"testing"
	"time"

	as "github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
)

// TestQueueProperties drives random streams of state changes, focuses,
// mail, notices, holds, dismisses, snoozes, wakes, restores, undos and
// clock ticks, and checks after every step that:
//
//   - no key ever has two items (open and snoozed counted together), and
//     an id always names the same key;
//   - no open fact is lost: a pane on needs_input or errored, a turn
//     nobody has seen, unread mail each have an item (open or snoozed),
//     unless the person dismissed it and the fact has not moved on since;
//   - an item never moves inside its group: two rows of one group keep
//     their order from one list to the next;
//   - seq only grows.
func TestQueueProperties(t *testing.T) {
	seeds := 400
	if testing.Short() {
		seeds = 50
	}
	for seed := int64(1); seed <= int64(seeds); seed++ {
		runQueueProperty(t, seed, 400)
		if t.Failed() {
			t.Fatalf("seed %d failed", seed)
		}
	}
}

type paneModel struct {
	blockDone bool // the person dismissed the blocking item on this needs_input
	errDone   bool
	finished  bool // a turn finished that nobody has seen or dismissed
	lastSeq   uint64
}

type threadModel struct {
	unread int
	latest uint64
	mark   uint64 // dismissed through
}

func runQueueProperty(t *testing.T, seed int64, steps int) {
	rng := rand.New(rand.NewSource(seed))
	r := newRig(t)
	panes := []string{"a", "b", "c", "d"}
	pm := map[string]*paneModel{}
	for _, p := range panes {
		pm[p] = &paneModel{}
	}
	threads := map[uint64]*threadModel{1: {}, 2: {}, 3: {}}
	var nextMsg uint64 = 10
	idKey := map[string]inbox.Key{}
	dismissedMark := map[string]uint64{} // mail item id -> mark before its dismiss
	var lastSeq uint64
	var prev []inbox.Item
	msgs := []string{"approve Bash: make", "approve Bash: rm -rf build", "which file?", "continue?"}

	pick := func() string { return panes[rng.Intn(len(panes))] }
	anyID := func() string {
		items := r.q.List(inbox.ListOptions{IncludeSnoozed: true}).Items
		if len(items) == 0 || rng.Intn(8) == 0 {
			return "999"
		}
		return items[rng.Intn(len(items))].ID
	}
	// observe folds the queue's own events into the model where the
	// person's acts bring facts back.
	observe := func(evs []inbox.Event) {
		for _, e := range evs {
			if e.Item.Seq <= lastSeq {
				t.Fatalf("seed %d: seq %d after %d", seed, e.Item.Seq, lastSeq)
			}
			lastSeq = e.Item.Seq
			k := e.Item.Key()
			if old, ok := idKey[e.Item.ID]; ok && old != k {
				t.Fatalf("seed %d: id %s named %s, now %s", seed, e.Item.ID, old, k)
			}
			idKey[e.Item.ID] = k
			if e.Op != inbox.OpOpen {
				continue
			}
			switch e.Item.Kind {
			case inbox.KindApproval, inbox.KindQuestion, inbox.KindPlan:
				pm[e.Item.Window].blockDone = false
			case inbox.KindErrored:
				pm[e.Item.Window].errDone = false
			case inbox.KindFinished:
				pm[e.Item.Window].finished = true
			case inbox.KindMail:
				if m, ok := dismissedMark[e.Item.ID]; ok {
					threads[e.Item.Thread].mark = m
				}
			}
		}
	}
	update := func(p string) {
		s := r.a.Get(p)
		m := pm[p]
		switch s.State {
		case as.Working, as.NeedsInput, as.Errored:
			m.finished = false
		case as.Idle, as.Done:
			if s.CompletionSeq > m.lastSeq && s.FinishedUnread {
				m.finished = true
			}
		}
		if s.State != as.NeedsInput {
			m.blockDone = false
		}
		if s.State != as.Errored {
			m.errDone = false
		}
		m.lastSeq = s.CompletionSeq
		observe(r.q.Update(pane(p), s))
	}

	for step := 0; step < steps; step++ {
		op := rng.Intn(20)
		switch op {
		case 0, 1, 2, 3, 4: // a state report
			p := pick()
			var rep as.Report
			switch rng.Intn(8) {
			case 0, 1:
				rep = as.Report{State: as.Working, Source: as.SourceReport}
			case 2, 3:
				msg := msgs[rng.Intn(len(msgs))]
				rep = as.Report{State: as.NeedsInput, Source: as.SourceReport, Message: msg}
			case 4:
				rep = as.Report{State: as.Done, Source: as.SourceReport, Message: "done"}
			case 5:
				rep = as.Report{State: as.Idle, Source: as.SourceReport}
			case 6:
				rep = as.Report{State: as.Errored, Source: as.SourceReport, Message: []string{"boom", "529"}[rng.Intn(2)]}
			case 7:
				rep = as.Report{Source: as.SourceReport, State: []as.State{as.Unknown, as.None}[rng.Intn(2)]}
			}
			rep.Harness = "claude-code"
			r.a.Apply(p, rep)
			update(p)
		case 5: // a client focuses a pane
			p := pick()
			r.a.MarkSeen(p)
			update(p)
			pm[p].finished = false
			observe(r.q.Seen(p))
		case 6: // mail to the person
			th := uint64(1 + rng.Intn(3))
			m := threads[th]
			if rng.Intn(3) == 0 {
				m.unread = 0
			} else {
				m.unread++
				nextMsg++
				m.latest = nextMsg
			}
			in := inbox.MailInput{Session: "api", Thread: th, Unread: m.unread}
			if m.unread > 0 {
				in.Latest.ID, in.Latest.Subject = m.latest, "note"
			}
			observe(r.q.Mail(in))
		case 7, 8: // dismiss
			id := anyID()
			it, ok := r.q.Get(id)
			_, evs, err := r.q.Dismiss(id)
			if ok != (err == nil) {
				t.Fatalf("seed %d step %d: dismiss %s: %v (held %v)", seed, step, id, err, ok)
			}
			if ok {
				switch it.Kind {
				case inbox.KindApproval, inbox.KindQuestion, inbox.KindPlan:
					if r.a.Get(it.Window).State == as.NeedsInput && it.Summary != unrecognised {
						pm[it.Window].blockDone = true
					}
				case inbox.KindErrored:
					if r.a.Get(it.Window).State == as.Errored {
						pm[it.Window].errDone = true
					}
				case inbox.KindFinished:
					pm[it.Window].finished = false
				case inbox.KindMail:
					m := threads[it.Thread]
					dismissedMark[id] = m.mark
					m.mark = max(m.mark, m.latest)
				}
			}
			observe(evs)
		case 9, 10: // snooze
			id := anyID()
			var s inbox.Snooze
			switch rng.Intn(3) {
			case 0:
				s.UntilChange = true
			default:
				s.For = time.Duration(1+rng.Intn(60)) * time.Second
			}
			evs, _ := r.q.Snooze(id, s)
			observe(evs)
		case 11, 12: // undo
			evs, _ := r.q.Undo()
			observe(evs)
		case 13: // restore, or wake
			id := anyID()
			if rng.Intn(2) == 0 {
				evs, _ := r.q.Restore(id)
				observe(evs)
			} else {
				evs, _ := r.q.Wake(id)
				observe(evs)
			}
		case 14, 15: // time passes
			r.clock.Advance(time.Duration(rng.Intn(15000)) * time.Millisecond)
			observe(r.q.Tick(r.clock.Now()))
		case 16: // unread
			evs, _ := r.q.MarkUnread(pick(), rng.Intn(4) == 0)
			observe(evs)
		case 17: // a notice
			observe(r.q.Notice(pane(pick()), unrecognised))
		case 18: // a hold, or its end
			p := pick()
			if rng.Intn(2) == 0 {
				evs, _ := r.q.Hold(inbox.Hold{Pane: p, RequestID: "h" + p, Kind: []inbox.Kind{inbox.KindApproval, inbox.KindPlan}[rng.Intn(2)], Summary: "approve Bash: ls"})
				observe(evs)
			} else {
				observe(r.q.EndHold(p, ""))
			}
		case 19: // an ask, or its answer
			evs, _ := r.q.Ask(inbox.Ask{Pane: pane(pick()), RequestID: "r" + string(rune('0'+rng.Intn(5))), Question: "Ship it?", Options: []string{"yes", "no"}})
			observe(evs)
			for _, it := range r.list() {
				if it.Kind == inbox.KindAsk && rng.Intn(2) == 0 {
					evs, _ := r.q.Answer(it.ID, "yes", "human")
					observe(evs)
					break
				}
			}
		}

		// One item per key.
		all := r.q.List(inbox.ListOptions{IncludeSnoozed: true}).Items
		keys := map[inbox.Key]string{}
		for _, it := range all {
			if other, dup := keys[it.Key()]; dup {
				t.Fatalf("seed %d step %d op %d: items %s and %s for %s", seed, step, op, other, it.ID, it.Key())
			}
			keys[it.Key()] = it.ID
		}
		// No open fact lost.
		has := func(k inbox.Key) bool { _, ok := keys[k]; return ok }
		for _, p := range panes {
			s, m := r.a.Get(p), pm[p]
			if s.State == as.NeedsInput && !m.blockDone && !has(inbox.BlockingKey(p)) {
				t.Fatalf("seed %d step %d op %d: %s waits on needs_input with no item: %s", seed, step, op, p, rows(all))
			}
			if s.State == as.Errored && !m.errDone && !has(inbox.PaneKey(inbox.KindErrored, p)) {
				t.Fatalf("seed %d step %d op %d: %s errored with no item", seed, step, op, p)
			}
			if m.finished && !has(inbox.PaneKey(inbox.KindFinished, p)) {
				t.Fatalf("seed %d step %d op %d: %s finished a turn nobody saw, with no item", seed, step, op, p)
			}
		}
		for th, m := range threads {
			if m.unread > 0 && m.latest > m.mark && !has(inbox.MailKey("api", th)) {
				t.Fatalf("seed %d step %d op %d: thread %d has %d unread with no item", seed, step, op, th, m.unread)
			}
		}
		// Never reordered inside a group.
		cur := r.list()
		pos := map[string]int{}
		for i, it := range cur {
			pos[it.ID] = i
		}
		for i := 0; i < len(prev); i++ {
			for j := i + 1; j < len(prev); j++ {
				a, b := prev[i], prev[j]
				pa, oka := pos[a.ID]
				pb, okb := pos[b.ID]
				if !oka || !okb || cur[pa].Kind.Group() != cur[pb].Kind.Group() || a.Kind.Group() != b.Kind.Group() || a.Kind.Group() != cur[pa].Kind.Group() {
					continue
				}
				if pa > pb {
					t.Fatalf("seed %d step %d op %d: %s#%s and %s#%s swapped in %s", seed, step, op, a.Kind, a.ID, b.Kind, b.ID, a.Kind.Group())
				}
			}
		}
		prev = cur
	}
}
