package inbox_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/review"
)

func TestKindTable(t *testing.T) {
	tests := []struct {
		k         inbox.Kind
		rank      int
		group     inbox.Group
		snoozable bool
		state     agentstate.State
	}{
		{inbox.KindApproval, 0, inbox.GroupApprovals, true, agentstate.NeedsInput},
		{inbox.KindPlan, 1, inbox.GroupPlans, false, agentstate.NeedsInput},
		{inbox.KindAsk, 2, inbox.GroupQuestions, false, agentstate.None},
		{inbox.KindQuestion, 3, inbox.GroupQuestions, true, agentstate.NeedsInput},
		{inbox.KindMail, 4, inbox.GroupMail, true, agentstate.None},
		{inbox.KindErrored, 5, inbox.GroupErrored, true, agentstate.Errored},
		{inbox.KindResume, 6, inbox.GroupResume, true, agentstate.None},
		{inbox.KindFinished, 7, inbox.GroupDone, true, agentstate.Done},
		{inbox.KindOutbox, 8, inbox.GroupOutbox, false, agentstate.None},
		{inbox.KindConfig, 9, inbox.GroupConfig, false, agentstate.None},
		{"mystery", 10, inbox.GroupOther, false, agentstate.None},
	}
	for _, tt := range tests {
		if tt.k.Rank() != tt.rank || tt.k.Group() != tt.group || tt.k.Snoozable() != tt.snoozable || tt.k.State() != tt.state {
			t.Errorf("%s: rank %d group %q snoozable %v state %s", tt.k, tt.k.Rank(), tt.k.Group(), tt.k.Snoozable(), tt.k.State())
		}
		if k, err := inbox.ParseKind(string(tt.k)); (err == nil) != tt.k.Valid() || (err == nil && k != tt.k) {
			t.Errorf("ParseKind(%q) = %q, %v", tt.k, k, err)
		}
	}
	if len(inbox.Kinds()) != 10 || len(inbox.Groups()) != 10 {
		t.Fatal("ten kinds, nine groups and Other")
	}
	_, err := inbox.ParseKind("colour")
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyUnknownKind)
}

// I1: created finished, mail, errored, approval; listed approval, mail,
// errored, finished; counts has one key per kind.
func TestListOrderIsKindOrder(t *testing.T) {
	r := newRig(t)
	r.finish("p1", "all green")
	r.clock.Advance(time.Second)
	r.mail("api", 7, 1, 7, "hello")
	r.clock.Advance(time.Second)
	r.errored("p2", "rate limited")
	r.clock.Advance(time.Second)
	r.approval("p3", "approve Bash: make")
	l := r.q.List(inbox.ListOptions{})
	if got := kindsOf(l.Items); got != "approval,mail,errored,finished" {
		t.Fatalf("order %s", got)
	}
	if len(l.Counts) != len(inbox.Kinds()) || l.Counts[inbox.KindApproval] != 1 || l.Counts[inbox.KindPlan] != 0 || l.Total != 4 {
		t.Fatalf("counts %v total %d", l.Counts, l.Total)
	}
	if l.BootID != "boot-1" || l.Seq != r.q.Seq() || l.Seq == 0 {
		t.Fatalf("boot %q seq %d", l.BootID, l.Seq)
	}
}

// Oldest first inside a group; an ask and a question share Questions; an
// update never moves a row inside its group, even at equal since.
func TestListOrderInsideGroups(t *testing.T) {
	r := newRig(t)
	r.question("b", "which retry policy?")
	r.q.Ask(inbox.Ask{Pane: pane("a"), RequestID: "r1", Question: "Ship it?", Options: []string{"yes", "no"}})
	r.question("c", "tabs or spaces?")
	want := "question#1 b: which retry policy? | ask#2 a: Ship it? | question#3 c: tabs or spaces?"
	if got := rows(r.list()); got != want {
		t.Fatalf("got %s", got)
	}
	r.question("b", "which retry policy, really?") // an update: seq rises, place stays
	if got := kindsOf(r.list()); got != "question,ask,question" || r.list()[0].Window != "b" {
		t.Fatalf("an update moved a row: %s", rows(r.list()))
	}
	if g := r.list()[1].Kind.Group(); g != inbox.GroupQuestions {
		t.Fatalf("ask listed under %s", g)
	}
	// Filters.
	l := r.q.List(inbox.ListOptions{Kinds: []inbox.Kind{inbox.KindAsk}})
	if len(l.Items) != 1 || l.Counts[inbox.KindQuestion] != 2 {
		t.Fatalf("kinds filter: %s counts %v", rows(l.Items), l.Counts)
	}
	l = r.q.List(inbox.ListOptions{Filter: func(it inbox.Item) bool { return it.Window == "c" }})
	if rows(l.Items) != "question#3 c: tabs or spaces?" {
		t.Fatalf("filter: %s", rows(l.Items))
	}
	if l := r.q.List(inbox.ListOptions{Session: "web"}); len(l.Items) != 0 || l.Counts[inbox.KindQuestion] != 2 {
		t.Fatalf("session filter: %s", rows(l.Items))
	}
}

// I2: a pane on needs_input that changes from a question to an approval
// keeps one item, its id and its since; a report that changes nothing
// publishes nothing.
func TestBlockingKeyUpdatesInPlace(t *testing.T) {
	r := newRig(t)
	wantOps(t, r.question("p", "which file?"), "open question#1")
	first := r.find(inbox.KindQuestion, "p")
	r.clock.Advance(5 * time.Second)
	wantOps(t, r.approval("p", "approve Bash: make"), "update approval#1")
	got := r.find(inbox.KindApproval, "p")
	if got.ID != first.ID || got.Since != first.Since || got.Seq <= first.Seq || got.Summary != "approve Bash: make" {
		t.Fatalf("item %+v after %+v", got, first)
	}
	wantOps(t, r.approval("p", "approve Bash: make"), "")
	wantOps(t, r.sync("p"), "")
	if n := len(r.list()); n != 1 {
		t.Fatalf("%d rows", n)
	}
	// A new name updates the row.
	p := pane("p")
	p.Name = "builder"
	wantOps(t, r.q.Update(p, r.a.Get("p")), "update approval#1")
	wantOps(t, r.q.Update(p, r.a.Get("p")), "")
}

// One item per key, for every key.
func TestOneItemPerKey(t *testing.T) {
	r := newRig(t)
	for i := 0; i < 3; i++ { // a flapping pane updates its rows
		r.approval("p", "approve Bash: make "+strconv.Itoa(i))
		r.errored("q", "boom "+strconv.Itoa(i))
		r.mail("api", 5, i+1, uint64(5+i), "note "+strconv.Itoa(i))
		r.q.Outbox(inbox.OutboxInput{Host: "build", Waiting: i + 1})
		r.q.Ask(inbox.Ask{Pane: pane("a"), RequestID: "same", Question: "Ship it?", Options: []string{"yes"}})
		r.q.Resume(pane("z"), "claude --resume abc"+strconv.Itoa(i))
	}
	r.finish("f", "done 1")
	r.finish("f", "done 2") // working closes, done opens a new one: still one row
	seen := map[inbox.Key]bool{}
	for _, it := range r.q.List(inbox.ListOptions{IncludeSnoozed: true}).Items {
		if seen[it.Key()] {
			t.Fatalf("two items for %s: %s", it.Key(), rows(r.list()))
		}
		seen[it.Key()] = true
	}
	if len(seen) != 7 {
		t.Fatalf("%d rows: %s", len(seen), rows(r.list()))
	}
	if it, _ := r.q.Find(inbox.MailKey("api", 5)); it.Count != 3 {
		t.Fatalf("mail count %d", it.Count)
	}
	if it, _ := r.q.Find(inbox.Item{Kind: inbox.KindOutbox, ForHost: "build"}.Key()); it.Count != 3 || it.Summary != "3 messages wait for the link to build" {
		t.Fatalf("outbox %+v", it)
	}
}

// Every way an item opens and closes (which pane state or act opens each
// kind, which ends it, and the close reason it gives), one row each.
func TestOpenAndCloseRules(t *testing.T) {
	tests := []struct {
		name  string
		setup func(r *rig) []inbox.Event
		act   func(r *rig) []inbox.Event
		want  string
	}{
		{"approval resolved when the pane leaves needs_input",
			func(r *rig) []inbox.Event { return r.approval("p", "approve Bash: make") },
			func(r *rig) []inbox.Event { return r.working("p") }, "close resolved approval#1"},
		{"question resolved when the pane leaves needs_input",
			func(r *rig) []inbox.Event { return r.question("p", "which one?") },
			func(r *rig) []inbox.Event { return r.report("p", agentstate.Idle, "", 0) }, "close resolved question#1"},
		{"errored resolved when the pane leaves errored",
			func(r *rig) []inbox.Event { return r.errored("p", "API error 529") },
			func(r *rig) []inbox.Event { return r.working("p") }, "close resolved errored#1"},
		{"finished seen when a client focuses the pane",
			func(r *rig) []inbox.Event { return r.finish("p", "done") },
			func(r *rig) []inbox.Event { return r.focus("p") }, "close seen finished#1"},
		{"finished resolved when the agent works again",
			func(r *rig) []inbox.Event { return r.finish("p", "done") },
			func(r *rig) []inbox.Event { return r.working("p") }, "close resolved finished#1"},
		{"finished resolved when the agent errors",
			func(r *rig) []inbox.Event { return r.finish("p", "done") },
			func(r *rig) []inbox.Event { return r.errored("p", "boom") }, "open errored#2; close resolved finished#1"},
		{"finished resolved when the agent needs input",
			func(r *rig) []inbox.Event { return r.finish("p", "done") },
			func(r *rig) []inbox.Event { return r.approval("p", "approve x") }, "open approval#2; close resolved finished#1"},
		{"resume resolved when the pane works",
			func(r *rig) []inbox.Event { return r.q.Resume(pane("p"), "claude --resume 1234") },
			func(r *rig) []inbox.Event { return r.working("p") }, "close resolved resume#1"},
		{"resume resolved when the command is typed",
			func(r *rig) []inbox.Event { return r.q.Resume(pane("p"), "claude --resume 1234") },
			func(r *rig) []inbox.Event {
				evs, _ := r.q.Close(inbox.PaneKey(inbox.KindResume, "p"), inbox.ReasonResolved)
				return evs
			}, "close resolved resume#1"},
		{"mail read",
			func(r *rig) []inbox.Event { return r.mail("api", 3, 1, 3, "hi") },
			func(r *rig) []inbox.Event { return r.mail("api", 3, 0, 3, "hi") }, "close read mail#1"},
		{"ask answered",
			func(r *rig) []inbox.Event {
				evs, _ := r.q.Ask(inbox.Ask{Pane: pane("p"), RequestID: "r1", Question: "Ship it?", Options: []string{"yes", "no"}})
				return evs
			},
			func(r *rig) []inbox.Event { evs, _ := r.q.Answer("1", "yes", "human"); return evs }, "close answered ask#1"},
		{"ask superseded by the pane's next question",
			func(r *rig) []inbox.Event {
				evs, _ := r.q.Ask(inbox.Ask{Pane: pane("p"), RequestID: "r1", Question: "Ship it?", Options: []string{"yes", "no"}})
				return evs
			},
			func(r *rig) []inbox.Event {
				evs, _ := r.q.Ask(inbox.Ask{Pane: pane("p"), RequestID: "r2", Question: "Ship it now?", Options: []string{"yes", "no"}})
				return evs
			}, "close superseded ask#1; open ask#2"},
		{"ask closes with its pane",
			func(r *rig) []inbox.Event {
				evs, _ := r.q.Ask(inbox.Ask{Pane: pane("p"), RequestID: "r1", Question: "Ship it?", Options: []string{"yes"}})
				return evs
			},
			func(r *rig) []inbox.Event { return r.q.PaneClosed("p") }, "close window_closed ask#1"},
		{"held approval answered",
			func(r *rig) []inbox.Event {
				r.approval("p", "approve Bash: go test ./...")
				evs, _ := r.q.Hold(inbox.Hold{Pane: "p", RequestID: "h1", Summary: "approve Bash: go test ./..."})
				return evs
			},
			func(r *rig) []inbox.Event { evs, _ := r.q.Answer("1", "once", "human"); return evs }, "close answered approval#1"},
		{"outbox resolved when everything is delivered",
			func(r *rig) []inbox.Event { return r.q.Outbox(inbox.OutboxInput{Host: "build", Waiting: 2}) },
			func(r *rig) []inbox.Event { return r.q.Outbox(inbox.OutboxInput{Host: "build"}) }, "close resolved outbox#1"},
		{"outbox host removed",
			func(r *rig) []inbox.Event {
				return r.q.Outbox(inbox.OutboxInput{Host: "build", Refused: "no session api"})
			},
			func(r *rig) []inbox.Event { return r.q.HostRemoved("build") }, "close host_removed outbox#1"},
		{"window closed closes the pane's items but not mail",
			func(r *rig) []inbox.Event {
				r.mail("api", 9, 1, 9, "hi")
				r.errored("p", "x")
				return r.q.Resume(pane("p"), "codex resume 9")
			},
			func(r *rig) []inbox.Event { return r.q.PaneClosed("p") }, "close window_closed errored#2; close window_closed resume#3"},
		{"session closed closes everything of the session, mail included",
			func(r *rig) []inbox.Event {
				r.mail("api", 9, 1, 9, "hi")
				r.q.Outbox(inbox.OutboxInput{Host: "build", Waiting: 1})
				return r.errored("p", "x")
			},
			func(r *rig) []inbox.Event { return r.q.SessionClosed("api") }, "close session_closed mail#1; close session_closed errored#3"},
		{"dismissed",
			func(r *rig) []inbox.Event { return r.errored("p", "x") },
			func(r *rig) []inbox.Event { _, evs, _ := r.q.Dismiss("1"); return evs }, "close dismissed errored#1"},
		{"snoozed",
			func(r *rig) []inbox.Event { return r.errored("p", "x") },
			func(r *rig) []inbox.Event {
				evs, _ := r.q.Snooze("1", inbox.Snooze{For: time.Minute})
				return evs
			}, "close snoozed errored#1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t)
			if evs := tt.setup(r); len(evs) == 0 {
				t.Fatal("setup opened nothing")
			}
			wantOps(t, tt.act(r), tt.want)
		})
	}
}

// The close event of an answer carries the answer; of a snooze its wake
// time.
func TestCloseEventsCarryTheirFields(t *testing.T) {
	r := newRig(t)
	r.q.Ask(inbox.Ask{Pane: pane("p"), RequestID: "r1", Question: "Ship it?", Options: []string{"yes", "no"}})
	evs, err := r.q.Answer("1", "no", "human")
	if err != nil || evs[0].Item.Answer != "no" || evs[0].Item.AnsweredBy != "human" {
		t.Fatalf("%v %+v", err, evs)
	}
	r.errored("e", "boom")
	evs, _ = r.q.Snooze("2", inbox.Snooze{For: 15 * time.Minute})
	if evs[0].Item.SnoozedUntil != t0.Add(15*time.Minute).UnixNano() {
		t.Fatalf("snoozed_until %d", evs[0].Item.SnoozedUntil)
	}
}

// Seq rises with every change and is stamped on the item changed.
func TestSeqIsMonotonic(t *testing.T) {
	r := newRig(t)
	var last uint64
	check := func(evs []inbox.Event) {
		for _, e := range evs {
			if e.Item.Seq <= last {
				t.Fatalf("seq %d after %d", e.Item.Seq, last)
			}
			last = e.Item.Seq
		}
	}
	check(r.approval("p", "approve a"))
	check(r.approval("p", "approve b"))
	check(r.working("p"))
	check(r.finish("p", "ok"))
	if r.q.Seq() != last {
		t.Fatalf("queue seq %d, last event %d", r.q.Seq(), last)
	}
}

// I9: secrets masked, one line, at most 160 bytes.
func TestSummaryMasksSecrets(t *testing.T) {
	r := newRig(t)
	r.question("p", "curl -H \"Authorization: Bearer abc.def\" https://x\n\tand\x1b[31m more")
	it := r.find(inbox.KindQuestion, "p")
	if it.Summary != `curl -H "Authorization: Bearer [redacted]" https://x and[31m more` {
		t.Fatalf("summary %q", it.Summary)
	}
	long := ""
	for i := 0; i < 40; i++ {
		long += "ééé "
	}
	r.question("p", long)
	if s := r.find(inbox.KindQuestion, "p").Summary; len(s) > inbox.MaxSummaryBytes {
		t.Fatalf("%d bytes", len(s))
	}
}

// I10: 1024 open items; one more closes the oldest finished item.
func TestCapEvictsOldestFinishedFirst(t *testing.T) {
	r := newRig(t)
	r.mail("api", 1, 1, 1, "oldest of all")
	r.clock.Advance(time.Second)
	r.finish("f1", "older finished")
	r.clock.Advance(time.Second)
	r.finish("f2", "newer finished")
	for i := 4; i <= inbox.MaxOpen; i++ {
		r.mail("api", uint64(i+10), 1, uint64(i+10), "m")
	}
	if l := r.q.List(inbox.ListOptions{}); l.Total != inbox.MaxOpen {
		t.Fatalf("%d open", l.Total)
	}
	evs := r.errored("e", "one too many")
	wantOps(t, evs, "open errored#1025; close evicted finished#2")
	evs = r.errored("e2", "and another")
	wantOps(t, evs, "open errored#1026; close evicted finished#3")
	evs = r.errored("e3", "no finished left")
	wantOps(t, evs, "open errored#1027; close evicted mail#1")
}

// Approvals carry the risk rules their line matches.
func TestApprovalRisk(t *testing.T) {
	ck, err := review.NewChecker(review.RiskConfig{})
	if err != nil {
		t.Fatal(err)
	}
	r := newRigWith(t, inbox.Options{Risk: ck})
	r.approval("p", "approve Bash: git push --force origin main")
	it := r.find(inbox.KindApproval, "p")
	if len(it.Risk) != 1 || it.Risk[0].Rule != "force push" {
		t.Fatalf("risk %+v", it.Risk)
	}
	r.question("q", "git push --force?")
	if it := r.find(inbox.KindQuestion, "q"); it.Risk != nil {
		t.Fatalf("a question has no risk: %+v", it.Risk)
	}
	r.approval("p", "approve Bash: go test ./...")
	if it := r.find(inbox.KindApproval, "p"); it.Risk != nil {
		t.Fatalf("risk left over: %+v", it.Risk)
	}
}

// Notices on the blocking key: a started pane waiting at a screen tuios
// does not recognise, and a queued message the pane did not take, each
// open a question.
func TestNotices(t *testing.T) {
	r := newRig(t)
	r.report("fan", agentstate.Unknown, "", 0)
	wantOps(t, r.q.Notice(pane("fan"), unrecognised), "open question#1")
	wantOps(t, r.sync("fan"), "") // the same state keeps it
	if it := r.find(inbox.KindQuestion, "fan"); it.Summary != unrecognised {
		t.Fatalf("summary %q", it.Summary)
	}
	wantOps(t, r.report("fan", agentstate.Idle, "", 0), "close resolved question#1")

	// needs_input turns a notice into the pane's own item.
	r.report("q", agentstate.Idle, "", 0)
	r.q.Notice(pane("q"), inbox.NoticeStalled("q"))
	wantOps(t, r.approval("q", "approve Bash: ls"), "update approval#2")
	wantOps(t, r.working("q"), "close resolved approval#2")
	// A pane on needs_input is left alone.
	r.question("b", "which?")
	wantOps(t, r.q.Notice(pane("b"), inbox.NoticeStalled("b")), "")
}

func TestCloseRefusesReasonsWithTheirOwnCall(t *testing.T) {
	r := newRig(t)
	r.errored("p", "x")
	for _, why := range []inbox.Reason{inbox.ReasonDismissed, inbox.ReasonSnoozed, inbox.ReasonEvicted, inbox.ReasonAnswered, "bogus"} {
		_, err := r.q.Close(inbox.PaneKey(inbox.KindErrored, "p"), why)
		wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyBadReason)
	}
	if evs, err := r.q.Close(inbox.PaneKey(inbox.KindResume, "p"), inbox.ReasonResolved); evs != nil || err != nil {
		t.Fatalf("closing nothing: %v %v", evs, err)
	}
}
