package inbox_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/mail"
)

// A hold rides on the approval: it keeps its summary while the pane
// reports other lines, becomes a plan and back, and ends when the block
// turns into a question.
func TestHold(t *testing.T) {
	r := newRig(t)
	r.approval("p", "approval: Do you want to proceed?")
	evs, err := r.q.Hold(inbox.Hold{Pane: "p", RequestID: "h1", Summary: "approve Bash: go test ./...",
		Options: []string{"once", "always", "deny"}, AlwaysScope: []string{"Bash(go test:*) in .claude/settings.local.json"},
		Expires: t0.Add(2 * time.Minute), DenyMessage: true})
	if err != nil {
		t.Fatal(err)
	}
	wantOps(t, evs, "update approval#1")
	it := evs[0].Item
	if it.HeldID != "h1" || it.Summary != "approve Bash: go test ./..." || len(it.Options) != 3 || it.Expires != t0.Add(2*time.Minute).UnixNano() || !it.DenyMessage {
		t.Fatalf("%+v", it)
	}
	wantOps(t, r.approval("p", "approval: something else on the screen"), "") // the held summary stays
	if r.find(inbox.KindApproval, "p").Summary != "approve Bash: go test ./..." {
		t.Fatal("the pane's line replaced the held one")
	}
	// A newer hold replaces the older.
	evs, _ = r.q.Hold(inbox.Hold{Pane: "p", RequestID: "h2", Kind: inbox.KindPlan, Summary: "Refactor the retry loop (14 lines)", PlanLines: 14, PlanSHA: "f00"})
	if len(evs) != 1 || evs[0].HoldEnded != "h1" || evs[0].Item.Kind != inbox.KindPlan || evs[0].Item.PlanLines != 14 {
		t.Fatalf("%+v", evs)
	}
	// Unanswered, a plan turns back into an approval.
	evs = r.q.EndHold("p", "h2")
	if len(evs) != 1 || evs[0].HoldEnded != "h2" || evs[0].Item.Kind != inbox.KindApproval || evs[0].Item.Held() || evs[0].Item.PlanSHA != "" {
		t.Fatalf("%+v", evs)
	}
	wantOps(t, r.q.EndHold("p", "h2"), "")
	// The block turning into a question ends the hold.
	r.q.Hold(inbox.Hold{Pane: "p", RequestID: "h3", Summary: "approve Bash: ls"})
	evs = r.question("p", "which directory?")
	if len(evs) != 1 || evs[0].HoldEnded != "h3" || evs[0].Item.Kind != inbox.KindQuestion {
		t.Fatalf("%+v", evs)
	}
	// Leaving needs_input closes the held item; the close names the hold.
	r.approval("p", "approve Bash: ls")
	r.q.Hold(inbox.Hold{Pane: "p", RequestID: "h4", Summary: "approve Bash: ls"})
	evs = r.working("p")
	if len(evs) != 1 || evs[0].Item.Closed != inbox.ReasonResolved || evs[0].Item.HeldID != "h4" {
		t.Fatalf("%+v", evs)
	}
}

func TestHoldRefusals(t *testing.T) {
	r := newRig(t)
	r.question("q", "which?")
	r.working("w")
	r.approval("a", "approve Bash: ls")
	tests := []struct {
		h    inbox.Hold
		code inbox.Code
		why  inbox.Why
	}{
		{inbox.Hold{Pane: "a", Summary: "approve Bash: ls"}, inbox.CodeInvalidParams, inbox.WhyMissing},
		{inbox.Hold{Pane: "a", RequestID: "x", Kind: inbox.KindAsk, Summary: "approve Bash: ls"}, inbox.CodeInvalidParams, inbox.WhyUnknownKind},
		{inbox.Hold{Pane: "a", RequestID: "x", Summary: "approve Bash: ls", Options: []string{"maybe"}}, inbox.CodeInvalidParams, inbox.WhyBadOptions},
		{inbox.Hold{Pane: "a", RequestID: "x", Summary: "approve Bash: ls", Options: []string{"once", "once"}}, inbox.CodeInvalidParams, inbox.WhyBadOptions},
		{inbox.Hold{Pane: "q", RequestID: "x", Summary: "approve Bash: ls"}, inbox.CodeNotBlocked, inbox.WhyNotBlocked},
		{inbox.Hold{Pane: "w", RequestID: "x", Summary: "approve Bash: ls"}, inbox.CodeNotBlocked, inbox.WhyNotBlocked},
		{inbox.Hold{Pane: "ghost", RequestID: "x", Summary: "approve Bash: ls"}, inbox.CodeNotBlocked, inbox.WhyNotBlocked},
		{inbox.Hold{Pane: "a", RequestID: "x", Summary: "approve Bash: ls\nrm -rf /"}, inbox.CodeNotShown, inbox.WhyNotShown},
		{inbox.Hold{Pane: "a", RequestID: "x", Summary: "approve Bash: ls  -l"}, inbox.CodeNotShown, inbox.WhyNotShown},
		{inbox.Hold{Pane: "a", RequestID: "x", Summary: "approve Bash: curl -H 'Authorization: Bearer abc'"}, inbox.CodeNotShown, inbox.WhyNotShown},
		{inbox.Hold{Pane: "a", RequestID: "x", Summary: "approve Bash: " + strings.Repeat("x", 160)}, inbox.CodeNotShown, inbox.WhyNotShown},
		{inbox.Hold{Pane: "a", RequestID: "x", Summary: "approve Bash: ls\u202e"}, inbox.CodeNotShown, inbox.WhyNotShown},
	}
	for i, tt := range tests {
		evs, err := r.q.Hold(tt.h)
		wantRefusal(t, err, tt.code, tt.why)
		if evs != nil {
			t.Errorf("%d: a refused hold made events", i)
		}
	}
	if r.find(inbox.KindApproval, "a").Held() {
		t.Fatal("a refused hold held")
	}
	// A scope line that cannot be shown drops "always".
	evs, err := r.q.Hold(inbox.Hold{Pane: "a", RequestID: "x", Summary: "approve Bash: ls", Options: []string{"once", "always", "deny"}, AlwaysScope: []string{"Bash(ls:*)\t"}})
	if err != nil || strings.Join(evs[0].Item.Options, ",") != "once,deny" || evs[0].Item.AlwaysScope != nil {
		t.Fatalf("%v %+v", err, evs)
	}
}

// Answers: only asks and held approvals take one, and only one of their
// options; the blocking key stays closed until the pane moves on.
func TestAnswer(t *testing.T) {
	r := newRig(t)
	r.approval("p", "approve Bash: ls")
	r.q.Hold(inbox.Hold{Pane: "p", RequestID: "h1", Summary: "approve Bash: ls"})
	_, err := r.q.Answer("1", "always", "human") // not offered
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyBadAnswer)
	evs, err := r.q.Answer("1", "once", "human")
	if err != nil || evs[0].Item.Answer != "once" {
		t.Fatalf("%v %+v", err, evs)
	}
	wantOps(t, r.approval("p", "approve Bash: ls"), "")
	r.working("p")
	r.question("p", "next?")
	_, err = r.q.Answer("2", "yes", "human")
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyNotAnswerable)
	_, err = r.q.Answer("1", "once", "human")
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyUnknownID)
}

func TestAsk(t *testing.T) {
	r := newRig(t)
	ask := inbox.Ask{Pane: inbox.Pane{Session: "api"}, RequestID: "r0", Question: "Deploy the branch to staging?", Options: []string{"yes", "no", "later"}}
	evs, err := r.q.Ask(ask)
	if err != nil {
		t.Fatal(err)
	}
	if it := evs[0].Item; it.Kind != inbox.KindAsk || it.Summary != ask.Question || it.RequestID != "r0" || len(it.Options) != 3 || it.Window != "" {
		t.Fatalf("%+v", it)
	}
	evs, err = r.q.Ask(ask) // coming back for it
	if err != nil || evs != nil {
		t.Fatalf("%v %v", err, evs)
	}
	for i := 1; i < inbox.MaxAsksFromNoPane; i++ {
		ask.RequestID = "r" + string(rune('a'+i))
		if _, err := r.q.Ask(ask); err != nil {
			t.Fatal(err)
		}
	}
	ask.RequestID = "r17"
	_, err = r.q.Ask(ask) // H7
	wantRefusal(t, err, inbox.CodeRateLimited, inbox.WhyTooManyAsks)
	ask.Pane.Session = "web"
	if _, err := r.q.Ask(ask); err != nil {
		t.Fatalf("another session: %v", err)
	}
	_, err = r.q.Ask(inbox.Ask{Pane: pane("p"), Question: "x?", Options: []string{"a"}})
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyMissing)
	_, err = r.q.Ask(inbox.Ask{Pane: pane("p"), RequestID: "z", Question: "x?", Options: []string{"a", "a"}})
	wantRefusal(t, err, inbox.CodeInvalidParams, inbox.WhyBadOptions)
}

// H3: what ask-human refuses.
func TestValidateAsk(t *testing.T) {
	nine := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	tests := []struct {
		q    string
		opts []string
		why  inbox.Why
	}{
		{"Ship it?", []string{"yes", "no"}, ""},
		{strings.Repeat("x", 160), []string{"yes"}, ""},
		{"Ship it?", nine, ""},
		{strings.Repeat("x", 161), []string{"yes"}, inbox.WhyBadQuestion},
		{"", []string{"yes"}, inbox.WhyBadQuestion},
		{"Ship\tit?", []string{"yes"}, inbox.WhyBadQuestion},
		{"Ship  it?", []string{"yes"}, inbox.WhyBadQuestion},
		{"Ship it? token=abc", []string{"yes"}, inbox.WhyBadQuestion},
		{"Ship it?", append(nine, "10"), inbox.WhyBadOptions},
		{"Ship it?", nil, inbox.WhyBadOptions},
		{"Ship it?", []string{strings.Repeat("y", 61)}, inbox.WhyBadOptions},
		{"Ship it?", []string{strings.Repeat("y", 60)}, ""},
		{"Ship it?", []string{"yes", "yes"}, inbox.WhyBadOptions},
		{"Ship it?", []string{"yes\n"}, inbox.WhyBadOptions},
		{"Ship it?", []string{" "}, inbox.WhyBadOptions},
	}
	for _, tt := range tests {
		err := inbox.ValidateAsk(tt.q, tt.opts)
		if tt.why == "" {
			if err != nil {
				t.Errorf("%q %q: %v", tt.q, tt.opts, err)
			}
			continue
		}
		wantRefusal(t, err, inbox.CodeInvalidParams, tt.why)
	}
}

// M12 with a real ring: one item per thread, count = unread, closed read.
func TestMailFromARing(t *testing.T) {
	r := newRig(t)
	ring := mail.NewRing(mail.RingOptions{Session: "api", Clock: r.clock, RateBurst: -1})
	lead := "0a1b2c3d-0000-4000-8000-000000000001"
	first, _ := ring.Send(mail.SendRequest{From: lead, FromLabel: "lead", To: mail.Human, Subject: "which retry policy?", Text: "?"})
	ring.Send(mail.SendRequest{From: lead, FromLabel: "lead", To: mail.Human, ReplyTo: first.ID, Text: "also:\tjitter?"})
	ring.Send(mail.SendRequest{From: lead, To: "worker-id", Text: "not for the person"})
	feed := func() []inbox.Event {
		res := ring.Read(mail.ReadOptions{Thread: first.ID, Limit: -1})
		return r.q.Mail(inbox.MailFrom("api", res.Messages))
	}
	wantOps(t, feed(), "open mail#1")
	it, _ := r.q.Find(inbox.MailKey("api", first.ID))
	// The sender is named with its short id: another window named lead
	// (or a shell's "root@vm: ~") is told apart from this one.
	if it.Count != 2 || it.Thread != first.ID || it.Summary != "also: jitter?" || it.Name != "lead (0a1b2c3d)" || it.Window != lead {
		t.Fatalf("%+v", it)
	}
	wantOps(t, feed(), "")
	ring.Read(mail.ReadOptions{Inbox: mail.Human, Thread: first.ID})
	wantOps(t, feed(), "close read mail#1")
}

func TestOutbox(t *testing.T) {
	r := newRig(t)
	wantOps(t, r.q.Outbox(inbox.OutboxInput{Host: "build", Waiting: 1}), "open outbox#1")
	it, _ := r.q.Find(inbox.Item{Kind: inbox.KindOutbox, ForHost: "build"}.Key())
	if it.ForHost != "build" || it.Summary != "1 message waits for the link to build" || it.Kind.Group() != inbox.GroupOutbox {
		t.Fatalf("%+v", it)
	}
	wantOps(t, r.q.Outbox(inbox.OutboxInput{Host: "build", Waiting: 1}), "")
	wantOps(t, r.q.Outbox(inbox.OutboxInput{Host: "build", Refused: "no session api"}), "update outbox#1")
	it, _ = r.q.Find(inbox.Item{Kind: inbox.KindOutbox, ForHost: "build"}.Key())
	if it.Summary != "refused by build: no session api" {
		t.Fatalf("%q", it.Summary)
	}
	wantOps(t, r.q.Outbox(inbox.OutboxInput{Host: "gpu", Waiting: 2}), "open outbox#2")
	if l := r.q.List(inbox.ListOptions{}); kindsOf(l.Items) != "outbox,outbox" {
		t.Fatal(rows(l.Items))
	}
	// A host this machine cannot link to keeps a row, mail or not, until
	// the problem goes.
	wantOps(t, r.q.Outbox(inbox.OutboxInput{Host: "bad", Problem: "ssh option ProxyCommand is refused"}), "open outbox#3")
	it, _ = r.q.Find(inbox.Item{Kind: inbox.KindOutbox, ForHost: "bad"}.Key())
	if it.Summary != "no link to bad: ssh option ProxyCommand is refused" {
		t.Fatalf("%q", it.Summary)
	}
	wantOps(t, r.q.Outbox(inbox.OutboxInput{Host: "bad", Waiting: 2, Problem: "ssh option ProxyCommand is refused"}), "update outbox#3")
	wantOps(t, r.q.Outbox(inbox.OutboxInput{Host: "bad"}), "close resolved outbox#3")
}

// Questions come before mail and after approvals, whatever their age.
func TestAskSortsAmongQuestions(t *testing.T) {
	r := newRig(t)
	r.mail("api", 1, 1, 1, "old mail")
	r.clock.Advance(time.Second)
	r.q.Ask(inbox.Ask{Pane: pane("a"), RequestID: "r", Question: "Ship it?", Options: []string{"yes"}})
	r.approval("p", "approve Bash: ls")
	if got := kindsOf(r.list()); got != "approval,ask,mail" {
		t.Fatal(got)
	}
}
