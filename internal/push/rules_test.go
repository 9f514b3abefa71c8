package push

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/push/pushtest"
)

// oneNtfy is a rig sending to one ntfy server.
func oneNtfy(t *testing.T, extra string) (*rig, *pushtest.Server) {
	t.Helper()
	srv := ca.Ntfy(ntfyToken, pushtest.Mode{})
	t.Cleanup(srv.Close)
	s := parseSettings(t, fmt.Sprintf("[notify]\n%s\n[notify.ntfy]\nurl = %q\ntoken = %q\n", extra, srv.URL+"/"+topic, ntfyToken))
	return newRig(t, s), srv
}

// F1: an approval whose line changes twice sends one notification, once
// it has been open for the settle; a snooze and its wake send nothing
// more.
func TestOneNotificationPerItem(t *testing.T) {
	r, srv := oneNtfy(t, "")
	it := r.item(inbox.KindApproval, "w1", "worker", "Bash: make test")
	r.open(it)
	r.clock.Advance(Settle - time.Millisecond)
	if got := r.take(); len(got) != 0 {
		t.Fatalf("sent before the settle: %+v", got)
	}
	it.Summary = "Bash: make test -run X"
	r.update(it)
	r.clock.Advance(time.Millisecond)
	if got := r.take(); len(got) != 1 || !got[0].OK {
		t.Fatalf("after the settle: %+v", got)
	}
	if d := srv.Deliveries(); d[0].Message != "Bash: make test -run X" {
		t.Fatalf("sent %q, not the line the item says by then", d[0].Message)
	}
	it.Summary = "Bash: make test -run Y"
	r.update(it)
	r.close(it, inbox.ReasonSnoozed)
	r.open(it) // woke
	r.clock.Advance(time.Hour)
	if got := r.take(); len(got) != 0 || len(srv.Deliveries()) != 1 {
		t.Fatalf("the same item sent again: %+v", got)
	}
	if r.clock.Pending() != 0 || r.n.Waiting() != 0 {
		t.Fatalf("an idle notifier holds %d timers and %d items", r.clock.Pending(), r.n.Waiting())
	}
}

// A prompt that opens and closes within the settle sends nothing.
func TestAFlickerSendsNothing(t *testing.T) {
	r, srv := oneNtfy(t, "")
	it := r.item(inbox.KindQuestion, "w1", "worker", "Continue?")
	r.open(it)
	r.clock.Advance(time.Second)
	r.close(it, inbox.ReasonResolved)
	r.clock.Advance(time.Minute)
	if got := r.take(); len(got) != 0 || srv.Hits() != 0 {
		t.Fatalf("a flicker sent: %+v", got)
	}
	if r.clock.Pending() != 0 {
		t.Fatalf("%d timers left", r.clock.Pending())
	}
}

// F2: the person typed 30 s ago: an approval waits until 120 s have
// passed since their key. Typing again holds it again; it goes once they
// stop.
func TestHeldWhileThePersonTypes(t *testing.T) {
	r, srv := oneNtfy(t, "")
	r.n.PersonTyped()
	r.clock.Advance(30 * time.Second)
	it := r.item(inbox.KindApproval, "w1", "worker", "Bash: rm -rf build")
	r.open(it)
	r.clock.Advance(89 * time.Second) // 119 s since the key
	if got := r.take(); len(got) != 0 {
		t.Fatalf("sent while the person is at the keyboard: %+v", got)
	}
	r.n.PersonTyped() // still there
	r.clock.Advance(119 * time.Second)
	if got := r.take(); len(got) != 0 {
		t.Fatalf("sent 119 s after the last key: %+v", got)
	}
	r.clock.Advance(time.Second)
	if got := r.take(); len(got) != 1 || len(srv.Deliveries()) != 1 {
		t.Fatalf("120 s after the last key: %+v", got)
	}

	// quiet_active_seconds = 0 sends at once, typing or not.
	r2, srv2 := oneNtfy(t, "quiet_active_seconds = 0")
	r2.n.PersonTyped()
	r2.open(r2.item(inbox.KindApproval, "w1", "worker", "Bash: ls"))
	r2.clock.Advance(Settle)
	if got := r2.take(); len(got) != 1 || srv2.Hits() != 1 {
		t.Fatalf("quiet 0: %+v", got)
	}
}

// An item answered while it was held sends nothing.
func TestHeldItemAnsweredSendsNothing(t *testing.T) {
	r, srv := oneNtfy(t, "")
	r.n.PersonTyped()
	it := r.item(inbox.KindApproval, "w1", "worker", "Bash: ls")
	r.open(it)
	r.clock.Advance(time.Minute)
	r.close(it, inbox.ReasonAnswered)
	r.clock.Advance(time.Hour)
	if r.take(); srv.Hits() != 0 || r.clock.Pending() != 0 {
		t.Fatalf("sent %d, %d timers", srv.Hits(), r.clock.Pending())
	}
}

// The cooldown spaces one pane's notifications of one kind; another
// pane, or another kind, is not held by it.
func TestCooldownPerPaneAndKind(t *testing.T) {
	r, srv := oneNtfy(t, "cooldown_seconds = 60\n[notify.triggers]\nerrored = true")
	a := r.item(inbox.KindApproval, "w1", "worker", "first")
	r.open(a)
	r.clock.Advance(Settle)
	r.close(a, inbox.ReasonAnswered)
	b := r.item(inbox.KindApproval, "w1", "worker", "second")
	r.open(b)
	other := r.item(inbox.KindApproval, "w2", "lead", "other pane")
	r.open(other)
	e := r.item(inbox.KindErrored, "w1", "worker", "exit 1")
	r.open(e)
	r.clock.Advance(Settle)
	if got := titles(srv, r.take()); got != "first|other pane|exit 1" {
		t.Fatalf("after the first: %s", got)
	}
	r.clock.Advance(60*time.Second - Settle - time.Millisecond) // the first went at Settle: its cooldown ends at 60 s + Settle
	if got := r.take(); len(got) != 0 {
		t.Fatalf("within the cooldown: %+v", got)
	}
	r.clock.Advance(time.Millisecond)
	if got := titles(srv, r.take()); got != "first|other pane|exit 1|second" {
		t.Fatalf("after the cooldown: %s", got)
	}
}

// titles lists the messages a server took, in order.
func titles(srv *pushtest.Server, _ []Result) string {
	var out []string
	for _, d := range srv.Deliveries() {
		out = append(out, d.Message)
	}
	return strings.Join(out, "|")
}

// max_per_hour caps the sends of any hour; the items over it wait for a
// place, oldest first, and one that closes meanwhile is dropped.
func TestMaxPerHour(t *testing.T) {
	r, srv := oneNtfy(t, "max_per_hour = 2\ncooldown_seconds = 0")
	var its []inbox.Item
	for i := range 4 {
		it := r.item(inbox.KindApproval, fmt.Sprintf("w%d", i), "p", fmt.Sprintf("item %d", i))
		its = append(its, it)
		r.open(it)
		r.clock.Advance(time.Second)
	}
	r.clock.Advance(Settle)
	if got := titles(srv, r.take()); got != "item 0|item 1" {
		t.Fatalf("first hour: %s", got)
	}
	r.close(its[2], inbox.ReasonAnswered)
	r.clock.Advance(time.Hour)
	if got := titles(srv, r.take()); got != "item 0|item 1|item 3" {
		t.Fatalf("next hour: %s", got)
	}
}

// Items of a linked host, kinds the triggers leave off and a notifier
// turned off send nothing; turning it on sends what still waits.
func TestWhatSendsNothing(t *testing.T) {
	r, srv := oneNtfy(t, "enabled = false")
	remote := r.item(inbox.KindApproval, "w1", "worker", "from far")
	remote.Host = "build"
	r.open(remote)
	r.open(r.item(inbox.KindMail, "", "", "mail")) // mail is off by default
	r.open(r.item(inbox.KindResume, "w2", "x", "resume"))
	local := r.item(inbox.KindPlan, "w3", "planner", "a plan")
	r.open(local)
	r.clock.Advance(time.Minute)
	if r.take(); srv.Hits() != 0 || r.clock.Pending() != 0 {
		t.Fatalf("off: %d sent, %d timers", srv.Hits(), r.clock.Pending())
	}
	s := r.n.Settings()
	s.Enabled = true
	r.n.SetSettings(s)
	r.clock.Advance(time.Minute)
	if got := titles(srv, r.take()); got != "a plan" {
		t.Fatalf("turned on: %s", got)
	}
}

// Events that were missed are made up with a resync: an item that closed
// meanwhile is dropped, one that opened is taken.
func TestResync(t *testing.T) {
	r, srv := oneNtfy(t, "")
	gone := r.item(inbox.KindApproval, "w1", "worker", "gone")
	r.open(gone)
	fresh := r.item(inbox.KindQuestion, "w2", "lead", "fresh")
	r.n.Resync([]inbox.Item{fresh})
	r.clock.Advance(Settle)
	if got := titles(srv, r.take()); got != "fresh" {
		t.Fatalf("after a resync: %s", got)
	}
}

// A provider that never answers, or a slow one, delays no other: each
// has its own lane; the slow one still delivers, the hanging one times
// out.
func TestASlowProviderDelaysNoOther(t *testing.T) {
	hang := ca.Ntfy(ntfyToken, pushtest.Mode{Hang: true})
	defer hang.Close()
	slow := ca.Pushover(pushoverApp, pushoverUser, pushtest.Mode{Delay: 150 * time.Millisecond})
	defer slow.Close()
	hook := ca.Webhook("", pushtest.Mode{})
	defer hook.Close()
	s := parseSettings(t, fmt.Sprintf("[notify]\ncooldown_seconds = 0\n[notify.ntfy]\nurl = %q\ntoken = %q\n"+
		"[notify.pushover]\nurl = %q\nuser = %q\ntoken = %q\n[notify.webhook]\nurl = %q\n",
		hang.URL+"/"+topic, ntfyToken, slow.URL+"/1/messages.json", pushoverUser, pushoverApp, hook.URL+"/h"))
	r := newRigTimeout(t, s, 500*time.Millisecond)
	for i := range 3 {
		r.open(r.item(inbox.KindApproval, fmt.Sprintf("w%d", i), "p", fmt.Sprint("item ", i)))
	}
	r.clock.Advance(Settle)
	if !hook.Wait(3, 5*time.Second) || !hang.WaitArrived(1, 5*time.Second) {
		t.Fatalf("the webhook got %d while ntfy hangs", hook.Hits())
	}
	if !slow.Wait(3, 5*time.Second) {
		t.Fatalf("the slow provider delivered %d", len(slow.Deliveries()))
	}
	if h, p := hook.Deliveries(), slow.Deliveries(); !h[2].At.Before(p[0].At) {
		t.Fatalf("the webhook's last (%v) came after the slow provider's first (%v)", h[2].At, p[0].At)
	}
	res := r.take() // the hanging sends time out, one after the other
	byProvider := map[string][]Result{}
	for _, x := range res {
		byProvider[x.Provider] = append(byProvider[x.Provider], x)
	}
	for _, x := range byProvider["ntfy"] {
		if x.OK || !strings.Contains(x.Error, "no answer within 500ms") {
			t.Fatalf("%+v", x)
		}
	}
	if len(byProvider["ntfy"]) != 3 || hang.Hits() != 3 || len(byProvider["pushover"]) != 3 || !byProvider["pushover"][2].OK {
		t.Fatalf("results: %+v after %d requests", res, hang.Hits())
	}
}

// The log says what was sent and what failed, without a secret.
func TestLogHoldsNoSecret(t *testing.T) {
	srv := newServers(t, pushtest.Mode{Status: 500})
	r := newRig(t, srv.settings(t))
	r.open(r.item(inbox.KindApproval, "w1", "worker", "Bash: ls"))
	r.clock.Advance(Settle)
	r.take()
	close(r.logs)
	n := 0
	for line := range r.logs {
		n++
		checkNoSecret(t, "log", line)
		if !strings.Contains(line, "not sent: the server answered 500") {
			t.Fatalf("log: %s", line)
		}
	}
	if n != 3 {
		t.Fatalf("%d log lines", n)
	}
}
