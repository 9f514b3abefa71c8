package inbox_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
)

// I3: a finished item snoozed for 15 minutes closes snoozed, leaves the
// list and the counts, sleeps through a repeated report, and comes back
// with its id and since; one wake time is asked for, none once nothing
// timed sleeps.
func TestSnoozeForAWhile(t *testing.T) {
	r := newRig(t)
	r.finish("p", "all green")
	before := r.find(inbox.KindFinished, "p")
	if !r.q.NextWake().IsZero() {
		t.Fatal("a wake time with nothing asleep")
	}
	evs, err := r.q.Snooze(before.ID, inbox.Snooze{For: 15 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	wantOps(t, evs, "close snoozed finished#1")
	if got := r.q.NextWake(); !got.Equal(t0.Add(15 * time.Minute)) {
		t.Fatalf("next wake %v", got)
	}
	l := r.q.List(inbox.ListOptions{})
	if len(l.Items) != 0 || l.Counts[inbox.KindFinished] != 0 {
		t.Fatalf("a snoozed item listed: %s %v", rows(l.Items), l.Counts)
	}
	if l := r.q.List(inbox.ListOptions{IncludeSnoozed: true}); len(l.Items) != 1 || l.Total != 0 || !l.Items[0].Snoozed() {
		t.Fatalf("--snoozed: %s total %d", rows(l.Items), l.Total)
	}
	r.clock.Advance(time.Minute)
	wantOps(t, r.report("p", agentstate.Done, "all green", 0), "") // the same report sleeps on
	wantOps(t, r.q.Tick(r.clock.Now()), "")
	r.clock.Advance(14 * time.Minute)
	wantOps(t, r.q.Tick(r.clock.Now()), "open finished#1")
	after := r.find(inbox.KindFinished, "p")
	if after.ID != before.ID || after.Since != before.Since || after.Snoozed() {
		t.Fatalf("woke as %+v, was %+v", after, before)
	}
	if !r.q.NextWake().IsZero() {
		t.Fatal("a wake time after everything woke")
	}
}

// I3, last part: the person focusing the pane first drops the sleeping
// item with that reason; so does the fact ending for every kind.
func TestSnoozedItemDroppedWhenItsFactEnds(t *testing.T) {
	tests := []struct {
		name string
		open func(r *rig) []inbox.Event
		end  func(r *rig) []inbox.Event
		want string
	}{
		{"finished seen", func(r *rig) []inbox.Event { return r.finish("p", "ok") }, func(r *rig) []inbox.Event { return r.focus("p") }, "close seen finished#1"},
		{"approval resolved", func(r *rig) []inbox.Event { return r.approval("p", "approve x") }, func(r *rig) []inbox.Event { return r.working("p") }, "close resolved approval#1"},
		{"errored resolved", func(r *rig) []inbox.Event { return r.errored("p", "x") }, func(r *rig) []inbox.Event { return r.working("p") }, "close resolved errored#1"},
		{"mail read", func(r *rig) []inbox.Event { return r.mail("api", 4, 1, 4, "hi") }, func(r *rig) []inbox.Event { return r.mail("api", 4, 0, 4, "hi") }, "close read mail#1"},
		{"pane closed", func(r *rig) []inbox.Event { return r.errored("p", "x") }, func(r *rig) []inbox.Event { return r.q.PaneClosed("p") }, "close window_closed errored#1"},
		{"session closed", func(r *rig) []inbox.Event { return r.errored("p", "x") }, func(r *rig) []inbox.Event { return r.q.SessionClosed("api") }, "close session_closed errored#1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t)
			tt.open(r)
			if _, err := r.q.Snooze("1", inbox.Snooze{For: time.Hour}); err != nil {
				t.Fatal(err)
			}
			evs := tt.end(r)
			wantOps(t, evs, tt.want)
			if evs[0].Item.SnoozedUntil == 0 {
				t.Fatal("the drop does not say the item slept")
			}
			if !r.q.NextWake().IsZero() || len(r.q.List(inbox.ListOptions{IncludeSnoozed: true}).Items) != 0 {
				t.Fatal("the dropped item is still held")
			}
			wantOps(t, r.q.Tick(t0.Add(2*time.Hour)), "")
		})
	}
}

// A snooze until it changes wakes on a report the item did not say, on a
// hook starting to hold it, on a new turn, on new mail.
func TestSnoozeUntilChange(t *testing.T) {
	r := newRig(t)
	r.approval("p", "approve Bash: make")
	evs, err := r.q.Snooze("1", inbox.Snooze{UntilChange: true})
	if err != nil || evs[0].Item.SnoozedUntil != inbox.UntilChange {
		t.Fatalf("%v %+v", err, evs)
	}
	if !r.q.NextWake().IsZero() {
		t.Fatal("an until-change snooze asks for a timer")
	}
	wantOps(t, r.approval("p", "approve Bash: make"), "")
	wantOps(t, r.approval("p", "approve Bash: make install"), "open approval#1")

	r.q.Snooze("1", inbox.Snooze{UntilChange: true})
	evs, err = r.q.Hold(inbox.Hold{Pane: "p", RequestID: "h1", Summary: "approve Bash: make install"})
	if err != nil {
		t.Fatal(err)
	}
	wantOps(t, evs, "open approval#1")

	r.finish("f", "one")
	f := r.find(inbox.KindFinished, "f")
	r.q.Snooze(f.ID, inbox.Snooze{UntilChange: true})
	r.a.Apply("f", agentstate.Report{State: agentstate.Done, Source: agentstate.SourceReport, Message: "one"})
	wantOps(t, r.sync("f"), "")
	r.working("f") // a new turn starts: the old one is resolved, asleep
	if _, ok := r.q.Find(inbox.PaneKey(inbox.KindFinished, "f")); ok {
		t.Fatal("working did not drop the finished item")
	}

	r.mail("api", 8, 1, 8, "hi")
	m, _ := r.q.Find(inbox.MailKey("api", 8))
	r.q.Snooze(m.ID, inbox.Snooze{UntilChange: true})
	wantOps(t, r.mail("api", 8, 1, 8, "hi"), "")
	wantOps(t, r.mail("api", 8, 2, 9, "hi again"), "open mail#"+m.ID)
}

// What snooze refuses, changing nothing: an item the person must answer
// (a held approval, a plan, an ask) or an outbox item never sleeps; a
// snooze must be exactly one of for, until or until-change, in the future
// and within a year; the id must be known.
func TestSnoozeRefusals(t *testing.T) {
	r := newRig(t)
	r.approval("held", "approve Bash: go test ./...")
	r.q.Hold(inbox.Hold{Pane: "held", RequestID: "h1", Summary: "approve Bash: go test ./..."})
	r.approval("plan", "approve plan")
	r.q.Hold(inbox.Hold{Pane: "plan", RequestID: "h2", Kind: inbox.KindPlan, Summary: "Refactor the retry loop (14 lines)", PlanLines: 14, PlanSHA: "abc"})
	r.q.Ask(inbox.Ask{Pane: pane("ask"), RequestID: "r1", Question: "Ship it?", Options: []string{"yes", "no"}})
	r.q.Outbox(inbox.OutboxInput{Host: "build", Waiting: 2})
	r.errored("e", "boom")
	ids := map[string]string{}
	for _, it := range r.list() {
		ids[string(it.Kind)+":"+it.Window] = it.ID
	}
	ob, _ := r.q.Find(inbox.Item{Kind: inbox.KindOutbox, ForHost: "build"}.Key())
	ids["outbox"] = ob.ID
	for _, id := range []string{ids["approval:held"], ids["plan:plan"], ids["ask:ask"], ids["outbox"]} {
		_, err := r.q.Snooze(id, inbox.Snooze{For: time.Minute})
		wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyNotSnoozable)
	}
	e := ids["errored:e"]
	for _, s := range []inbox.Snooze{
		{},
		{For: time.Minute, UntilChange: true},
		{Until: t0.Add(time.Hour), For: time.Minute},
		{Until: t0.Add(-time.Minute)},
		{Until: t0},
		{Until: t0.Add(366 * 24 * time.Hour)},
		{For: -time.Second},
		{For: 366 * 24 * time.Hour},
	} {
		_, err := r.q.Snooze(e, s)
		wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhySnoozeSpec)
	}
	_, err := r.q.Snooze("999", inbox.Snooze{For: time.Minute})
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyUnknownID)
	if it, _ := r.q.Get(e); it.Snoozed() {
		t.Fatal("a refused snooze changed the item")
	}
	// Snoozing a snoozed item moves its wake time.
	r.q.Snooze(e, inbox.Snooze{For: time.Hour})
	r.q.Snooze(e, inbox.Snooze{For: 2 * time.Hour})
	if got := r.q.NextWake(); !got.Equal(t0.Add(2 * time.Hour)) {
		t.Fatalf("next wake %v", got)
	}
}

func TestSnoozeFull(t *testing.T) {
	r := newRig(t)
	for i := 1; i <= inbox.MaxSnoozed+1; i++ {
		evs := r.mail("api", uint64(i), 1, uint64(i), "m")
		_, err := r.q.Snooze(evs[0].Item.ID, inbox.Snooze{For: time.Hour})
		if i <= inbox.MaxSnoozed && err != nil {
			t.Fatalf("snooze %d: %v", i, err)
		}
		if i == inbox.MaxSnoozed+1 {
			wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhySnoozeFull)
		}
	}
	opened, evicted := 0, 0
	for _, e := range r.q.Tick(t0.Add(time.Hour)) {
		if e.Op == inbox.OpOpen {
			opened++
		} else if e.Item.Closed == inbox.ReasonEvicted {
			evicted++
		}
	}
	if opened != inbox.MaxSnoozed || evicted != 1 {
		t.Fatalf("%d woke, %d evicted", opened, evicted)
	}
}

func TestWake(t *testing.T) {
	r := newRig(t)
	r.errored("p", "boom")
	_, err := r.q.Wake("1")
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyNotSnoozed)
	r.q.Snooze("1", inbox.Snooze{Until: t0.Add(time.Hour)})
	evs, err := r.q.Wake("1")
	if err != nil {
		t.Fatal(err)
	}
	wantOps(t, evs, "open errored#1")
	_, err = r.q.Wake("2")
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyUnknownID)
}

// What a dismiss tells the daemon to do, per kind.
func TestDismissEffects(t *testing.T) {
	r := newRig(t)
	r.finish("f", "ok")
	r.mail("api", 6, 2, 7, "hi")
	r.q.Outbox(inbox.OutboxInput{Host: "build", Waiting: 3})
	r.q.Ask(inbox.Ask{Pane: pane("a"), RequestID: "r1", Question: "Ship it?", Options: []string{"yes"}})
	r.approval("h", "approve Bash: ls")
	r.q.Hold(inbox.Hold{Pane: "h", RequestID: "h1", Summary: "approve Bash: ls"})
	tests := []struct {
		id   string
		want inbox.Dismissed
	}{
		{"1", inbox.Dismissed{ID: "1", Kind: inbox.KindFinished, Session: "api", MarkSeen: "f"}},
		{"2", inbox.Dismissed{ID: "2", Kind: inbox.KindMail, Session: "api", ReadSession: "api", ReadThread: 6}},
		{"3", inbox.Dismissed{ID: "3", Kind: inbox.KindOutbox, ForHost: "build", Discarded: 3}},
		{"4", inbox.Dismissed{ID: "4", Kind: inbox.KindAsk, Session: "api", RequestID: "r1"}},
		{"5", inbox.Dismissed{ID: "5", Kind: inbox.KindApproval, Session: "api", HeldID: "h1"}},
	}
	for _, tt := range tests {
		d, evs, err := r.q.Dismiss(tt.id)
		if err != nil || d != tt.want || len(evs) != 1 || evs[0].Item.Closed != inbox.ReasonDismissed {
			t.Errorf("dismiss %s: %+v %v %s, want %+v", tt.id, d, err, ops(evs), tt.want)
		}
	}
	_, _, err := r.q.Dismiss("1")
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyDismissed)
	_, _, err = r.q.Dismiss("42")
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyUnknownID)
	// A dismissed mail thread stays dismissed until newer mail.
	wantOps(t, r.mail("api", 6, 2, 7, "hi"), "")
	wantOps(t, r.mail("api", 6, 3, 8, "more"), "open mail#6")
}

// Other kinds just leave the list: a later transition opens a new item.
func TestDismissedBlockingWaitsForATransition(t *testing.T) {
	r := newRig(t)
	r.approval("p", "approve Bash: make")
	r.q.Dismiss("1")
	wantOps(t, r.approval("p", "approve Bash: make"), "")
	wantOps(t, r.question("p", "a new line on the same prompt"), "")
	r.working("p")
	wantOps(t, r.approval("p", "approve Bash: make"), "open approval#2")

	r.errored("e", "boom")
	r.q.Dismiss("3")
	wantOps(t, r.errored("e", "boom again"), "")
	r.working("e")
	wantOps(t, r.errored("e", "boom"), "open errored#4")

	r.finish("f", "one")
	r.q.Dismiss("5")
	wantOps(t, r.sync("f"), "")
	wantOps(t, r.finish("f", "two"), "open finished#6")
}

// I5: undo within 10 s restores the same id; another dismiss undone after
// 11 s does nothing, and restore is refused.
func TestUndoWindow(t *testing.T) {
	r := newRig(t)
	r.finish("p", "ok")
	item := r.find(inbox.KindFinished, "p")
	r.q.Dismiss(item.ID)
	r.clock.Advance(9 * time.Second)
	evs, err := r.q.Undo()
	if err != nil {
		t.Fatal(err)
	}
	wantOps(t, evs, "open finished#1")
	back := r.find(inbox.KindFinished, "p")
	if back.ID != item.ID || back.Since != item.Since {
		t.Fatalf("restored %+v, was %+v", back, item)
	}
	r.q.Dismiss(item.ID)
	r.clock.Advance(11 * time.Second)
	_, err = r.q.Undo()
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyTooLate)
	r.none(inbox.KindFinished, "p")
	_, err = r.q.Restore(item.ID)
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyUnknownID)
	_, err = r.q.Undo()
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyNothingToUndo)

	// Restore by id, in time, past the window.
	r.errored("e", "boom")
	e := r.find(inbox.KindErrored, "e")
	r.q.Dismiss(e.ID)
	r.clock.Advance(11 * time.Second)
	_, err = r.q.Restore(e.ID)
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyTooLate)
}

// u again goes to the one before; 16 entries are kept; an undone snooze
// wakes the item.
func TestUndoStack(t *testing.T) {
	r := newRig(t)
	for i := 0; i < 20; i++ {
		r.errored("p"+strconv.Itoa(i), "boom")
	}
	for i := 1; i <= 18; i++ {
		r.q.Dismiss(strconv.Itoa(i))
	}
	evs, _ := r.q.Snooze("19", inbox.Snooze{For: time.Hour})
	wantOps(t, evs, "close snoozed errored#19")
	var got []string
	for {
		evs, err := r.q.Undo()
		if err != nil {
			wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyNothingToUndo)
			break
		}
		got = append(got, evs[0].Item.ID)
	}
	if len(got) != inbox.UndoDepth || got[0] != "19" || got[1] != "18" || got[15] != "4" {
		t.Fatalf("undid %v", got)
	}
	if it := r.find(inbox.KindErrored, "p18"); it.Snoozed() || it.ID != "19" {
		t.Fatalf("p18: %+v", it)
	}
}

// What Restore refuses: a dismissed approval whose pane has since left
// needs_input (the fact it stood for has ended), and the rest below.
func TestRestoreRefusals(t *testing.T) {
	t.Run("pane left needs_input", func(t *testing.T) {
		r := newRig(t)
		r.approval("p", "approve Bash: make")
		r.q.Dismiss("1")
		r.working("p")
		_, err := r.q.Restore("1")
		wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyFactEnded)
	})
	t.Run("pane closed", func(t *testing.T) {
		r := newRig(t)
		r.errored("p", "boom")
		r.q.Dismiss("1")
		r.q.PaneClosed("p")
		_, err := r.q.Undo()
		wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyFactEnded)
	})
	t.Run("a newer item", func(t *testing.T) {
		r := newRig(t)
		r.finish("p", "one")
		r.q.Dismiss("1")
		r.finish("p", "two")
		_, err := r.q.Restore("1")
		wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyNewerItem)
	})
	t.Run("outbox and ask", func(t *testing.T) {
		r := newRig(t)
		r.q.Outbox(inbox.OutboxInput{Host: "build", Waiting: 1})
		r.q.Ask(inbox.Ask{Pane: pane("a"), RequestID: "r", Question: "Ship it?", Options: []string{"yes"}})
		r.q.Dismiss("1")
		r.q.Dismiss("2")
		_, err := r.q.Undo() // the ask (H6)
		wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyNotRestorable)
		_, err = r.q.Undo() // the outbox: the refusal used up the ask's entry
		wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyNotRestorable)
	})
	t.Run("restore of an open item", func(t *testing.T) {
		r := newRig(t)
		r.errored("p", "boom")
		_, err := r.q.Restore("1")
		wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyNotSnoozed)
	})
	t.Run("undo of a snooze whose item is gone", func(t *testing.T) {
		r := newRig(t)
		r.errored("p", "boom")
		r.q.Snooze("1", inbox.Snooze{UntilChange: true})
		r.working("p")
		_, err := r.q.Undo()
		wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyFactEnded)
	})
}

// A restored held approval or plan comes back without its hold; a plan
// as a plain approval with no plan fields.
func TestRestoreDropsTheHold(t *testing.T) {
	r := newRig(t)
	r.approval("p", "approve plan mode exit")
	r.q.Hold(inbox.Hold{Pane: "p", RequestID: "h1", Kind: inbox.KindPlan, Summary: "Refactor the retry loop (14 lines)", PlanLines: 14, PlanSHA: "abc"})
	if it := r.find(inbox.KindPlan, "p"); it.Kind != inbox.KindPlan || !it.Held() {
		t.Fatalf("%+v", it)
	}
	d, _, _ := r.q.Dismiss("1")
	if d.HeldID != "h1" {
		t.Fatalf("dismiss did not end the hold: %+v", d)
	}
	evs, err := r.q.Undo()
	if err != nil {
		t.Fatal(err)
	}
	it := evs[0].Item
	if it.ID != "1" || it.Kind != inbox.KindApproval || it.Held() || it.PlanLines != 0 || it.PlanSHA != "" || it.Options != nil ||
		it.Summary != "approve plan mode exit" {
		t.Fatalf("restored %+v", it)
	}
	if _, err := r.q.Snooze("1", inbox.Snooze{For: time.Minute}); err != nil {
		t.Fatalf("a restored approval is not held: %v", err)
	}
}

// A restored mail item is not closed again by the read its dismiss
// caused; reading the thread or newer mail does.
func TestRestoreMail(t *testing.T) {
	r := newRig(t)
	r.mail("api", 3, 2, 4, "hi")
	d, _, _ := r.q.Dismiss("1")
	if d.ReadThread != 3 {
		t.Fatalf("%+v", d)
	}
	wantOps(t, r.mail("api", 3, 0, 4, "hi"), "") // the daemon marked it read
	evs, _ := r.q.Undo()
	wantOps(t, evs, "open mail#1")
	wantOps(t, r.mail("api", 3, 0, 4, "hi"), "")
	wantOps(t, r.q.MailRead("api", 3), "close read mail#1")
}

// Unread: the pane's last finished turn comes back, marked, for every
// client; refusals say why.
func TestMarkUnread(t *testing.T) {
	r := newRig(t)
	r.report("fresh", agentstate.Idle, "", 0)
	r.working("busy")
	r.finish("p", "all green")
	r.focus("p")
	r.none(inbox.KindFinished, "p")
	tests := []struct {
		pane    string
		focused bool
		why     inbox.Why
	}{
		{"ghost", false, inbox.WhyUnknownPane},
		{"p", true, inbox.WhyFocused},
		{"busy", false, inbox.WhyNotAtRest},
		{"fresh", false, inbox.WhyNoTurn},
	}
	for _, tt := range tests {
		_, err := r.q.MarkUnread(tt.pane, tt.focused)
		wantRefusal(t, err, inbox.CodeInvalidParams, tt.why)
	}
	evs, err := r.q.MarkUnread("p", false)
	if err != nil {
		t.Fatal(err)
	}
	wantOps(t, evs, "open finished#2")
	if it := r.find(inbox.KindFinished, "p"); !it.MarkedUnread || it.CompletionSeq != 1 {
		t.Fatalf("%+v", it)
	}
	wantOps(t, r.sync("p"), "") // the arbiter still says seen: the mark holds
	evs, _ = r.q.MarkUnread("p", false)
	wantOps(t, evs, "")
	wantOps(t, r.q.Seen("p"), "close seen finished#2")

	// On an open finished item it only marks.
	r.finish("q", "ok")
	evs, _ = r.q.MarkUnread("q", false)
	wantOps(t, evs, "update finished#3")
}
