package inbox_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/inbox"
)

// mirrorRig is a local queue with a mirror beside it, on a fake clock.
type mirrorRig struct {
	t     *testing.T
	clock *fakeclock.Clock
	q     *inbox.Queue
	m     *inbox.Mirror
}

func newMirrorRig(t *testing.T) *mirrorRig {
	c := fakeclock.New(t0)
	q := inbox.New(inbox.Options{Clock: c, BootID: "boot-1"})
	return &mirrorRig{t: t, clock: c, q: q, m: inbox.NewMirror(q, c)}
}

// far is an item as a far daemon lists it.
func far(id string, k inbox.Kind, summary string, since int64) inbox.Item {
	return inbox.Item{ID: id, Kind: k, Session: "api", Window: "w" + id, Name: "claude-" + id, Summary: summary, Since: since}
}

func (r *mirrorRig) list(host string) []inbox.Item {
	items, _ := r.m.List(host, inbox.ListOptions{IncludeSnoozed: true})
	return items
}

func TestMirrorSyncGivesHostIDsAndSkipsMirroredItems(t *testing.T) {
	r := newMirrorRig(t)
	before := r.q.Seq()
	evs := r.m.Sync("far", "b1", []inbox.Item{
		far("3", inbox.KindQuestion, "which retry policy?", 10),
		{ID: "4", Kind: inbox.KindApproval, Host: "gpu", Session: "x", Summary: "mirrored on far from gpu", Since: 5},
		{ID: "7", Kind: inbox.KindErrored, Host: "local", Session: "y", Summary: "boom", Since: 6},
		{ID: "bad id\x1b[2J", Kind: inbox.KindErrored, Session: "y", Summary: "an id no daemon issues"},
	})
	if len(evs) != 2 {
		t.Fatalf("events %+v, want two opens (far:7, far:3)", evs)
	}
	got := r.list("")
	if len(got) != 2 || got[0].ID != "far:3" || got[1].ID != "far:7" {
		t.Fatalf("items %+v, want far:3 (question) then far:7 (errored)", got)
	}
	for _, it := range got {
		if it.Host != "far" {
			t.Errorf("item %s host %q, want far", it.ID, it.Host)
		}
	}
	if r.q.Seq() != before+2 {
		t.Errorf("queue seq %d, want %d: mirrored changes share the local seq", r.q.Seq(), before+2)
	}
	if evs[1].Item.Seq != r.q.Seq() {
		t.Errorf("last event seq %d, queue seq %d", evs[1].Item.Seq, r.q.Seq())
	}
	// A listing that says the same thing changes nothing.
	if evs := r.m.Sync("far", "b1", []inbox.Item{far("3", inbox.KindQuestion, "which retry policy?", 10), {ID: "7", Kind: inbox.KindErrored, Host: "local", Session: "y", Summary: "boom", Since: 6}}); len(evs) != 0 {
		t.Errorf("same listing: events %+v", evs)
	}
	// The far item is gone: closed here (resolved).
	evs = r.m.Sync("far", "b1", []inbox.Item{far("3", inbox.KindQuestion, "which retry policy?", 10)})
	if len(evs) != 1 || evs[0].Op != inbox.OpClose || evs[0].Item.ID != "far:7" || evs[0].Item.Closed != inbox.ReasonResolved {
		t.Errorf("events %+v, want far:7 closed resolved", evs)
	}
}

func TestMirrorApplyFollowsTheFarEvents(t *testing.T) {
	r := newMirrorRig(t)
	r.m.Sync("far", "b1", nil)
	evs := r.m.Apply("far", inbox.OpOpen, far("12", inbox.KindApproval, "Bash: make", 20))
	if len(evs) != 1 || evs[0].Op != inbox.OpOpen || evs[0].Item.ID != "far:12" {
		t.Fatalf("open: %+v", evs)
	}
	evs = r.m.Apply("far", inbox.OpUpdate, far("12", inbox.KindApproval, "Bash: make test", 20))
	if len(evs) != 1 || evs[0].Op != inbox.OpUpdate || evs[0].Item.Summary != "Bash: make test" {
		t.Fatalf("update: %+v", evs)
	}
	closed := far("12", inbox.KindApproval, "Bash: make test", 20)
	closed.Closed = inbox.ReasonAnswered
	evs = r.m.Apply("far", inbox.OpClose, closed)
	if len(evs) != 1 || evs[0].Item.Closed != inbox.ReasonAnswered {
		t.Fatalf("close: %+v", evs)
	}
	// An event about an item mirrored on far is not mirrored onward.
	again := far("13", inbox.KindApproval, "x", 21)
	again.Host = "gpu"
	if evs := r.m.Apply("far", inbox.OpOpen, again); len(evs) != 0 {
		t.Errorf("re-mirrored: %+v", evs)
	}
	if n := len(r.list("")); n != 0 {
		t.Errorf("%d items left", n)
	}
}

func TestMirrorStaleWhileTheLinkIsDown(t *testing.T) {
	r := newMirrorRig(t)
	r.m.Sync("far", "b1", []inbox.Item{far("3", inbox.KindQuestion, "which retry policy?", 10)})
	r.clock.Advance(2 * time.Minute)
	r.m.Heard("far")
	heard := r.clock.Now().UnixNano()
	r.clock.Advance(3 * time.Minute)
	evs := r.m.Down("far")
	if len(evs) != 1 || evs[0].Op != inbox.OpUpdate || !evs[0].Item.Stale || evs[0].Item.SeenAt != heard {
		t.Fatalf("down: %+v, want one update stale with seen_at %d", evs, heard)
	}
	if evs := r.m.Down("far"); len(evs) != 0 {
		t.Errorf("a second down: %+v", evs)
	}
	items, counts := r.m.List("", inbox.ListOptions{})
	if len(items) != 1 || !items[0].Stale {
		t.Fatalf("a stale item is still listed: %+v", items)
	}
	if counts[inbox.KindQuestion] != 0 {
		t.Errorf("a stale item is counted: %v", counts)
	}
	hs := r.m.Hosts()
	if len(hs) != 1 || !hs[0].Stale || hs[0].SeenAt != heard || hs[0].Items != 0 {
		t.Errorf("hosts %+v", hs)
	}
	// Back up: the next listing makes it fresh, with the same id.
	evs = r.m.Sync("far", "b1", []inbox.Item{far("3", inbox.KindQuestion, "which retry policy?", 10)})
	if len(evs) != 1 || evs[0].Op != inbox.OpUpdate || evs[0].Item.Stale || evs[0].Item.SeenAt != 0 || evs[0].Item.ID != "far:3" {
		t.Fatalf("back up: %+v", evs)
	}
	if _, counts := r.m.List("", inbox.ListOptions{}); counts[inbox.KindQuestion] != 1 {
		t.Errorf("fresh again but not counted: %v", counts)
	}
}

func TestMirrorKeepsAtMost256ItemsPerHost(t *testing.T) {
	r := newMirrorRig(t)
	var listing []inbox.Item
	for i := 1; i <= 300; i++ {
		k := inbox.KindFinished
		if i > 250 {
			k = inbox.KindQuestion // later ids, but listed first
		}
		listing = append(listing, far(fmt.Sprint(i), k, "turn", int64(i)))
	}
	r.m.Sync("far", "b1", listing)
	r.m.Sync("gpu", "b1", []inbox.Item{far("1", inbox.KindQuestion, "kept apart", 1)})
	got := r.list("far")
	if len(got) != inbox.MaxHostItems {
		t.Fatalf("%d items kept, want %d", len(got), inbox.MaxHostItems)
	}
	if got[0].ID != "far:251" || got[49].ID != "far:300" || got[50].ID != "far:1" || got[255].ID != "far:206" {
		t.Errorf("kept %s..%s, %s..%s: want the 50 questions, then the oldest finished", got[0].ID, got[49].ID, got[50].ID, got[255].ID)
	}
	if n := len(r.list("gpu")); n != 1 {
		t.Errorf("gpu has %d items: hosts are capped apart", n)
	}
	// One more opens: the oldest finished item goes (evicted).
	evs := r.m.Apply("far", inbox.OpOpen, far("400", inbox.KindApproval, "Bash: rm -rf build", 400))
	if len(evs) != 2 || evs[1].Op != inbox.OpClose || evs[1].Item.ID != "far:1" || evs[1].Item.Closed != inbox.ReasonEvicted {
		t.Fatalf("events %+v, want far:400 open then far:1 evicted", evs)
	}
	if n := len(r.list("far")); n != inbox.MaxHostItems {
		t.Errorf("%d items after the open", n)
	}
	// The local queue is untouched by all this.
	if l := r.q.List(inbox.ListOptions{}); len(l.Items) != 0 {
		t.Errorf("local items %+v", l.Items)
	}
}

func TestMirrorDismissIsLocalOnly(t *testing.T) {
	r := newMirrorRig(t)
	fin := far("5", inbox.KindFinished, "done", 10)
	fin.CompletionSeq = 1
	r.m.Sync("far", "b1", []inbox.Item{fin})
	d, evs, err := r.m.Dismiss("far:5")
	if err != nil || d.Host != "far" || len(evs) != 1 || evs[0].Item.Closed != inbox.ReasonDismissed {
		t.Fatalf("dismiss: %+v %+v %v", d, evs, err)
	}
	if d.MarkSeen != "" || d.ReadThread != 0 {
		t.Errorf("a host item's dismiss asks for something on this machine: %+v", d)
	}
	// The far side still lists it: it stays off here.
	if evs := r.m.Sync("far", "b1", []inbox.Item{fin}); len(evs) != 0 || len(r.list("")) != 0 {
		t.Fatalf("dismissed item came back on a relist: %+v", evs)
	}
	fin.Summary = "done, said again"
	if evs := r.m.Apply("far", inbox.OpUpdate, fin); len(evs) != 0 {
		t.Errorf("a new line on the same turn brought it back: %+v", evs)
	}
	// A new turn there brings it back, with the same id.
	fin.CompletionSeq = 2
	evs = r.m.Apply("far", inbox.OpUpdate, fin)
	if len(evs) != 1 || evs[0].Op != inbox.OpOpen || evs[0].Item.ID != "far:5" {
		t.Fatalf("new turn: %+v", evs)
	}
	if _, _, err := r.m.Dismiss("far:nope"); err == nil {
		t.Error("dismiss of an unknown id: no error")
	}
}

func TestMirrorSnoozeIsLocalAndWakes(t *testing.T) {
	r := newMirrorRig(t)
	r.m.Sync("far", "b1", []inbox.Item{far("3", inbox.KindQuestion, "which retry policy?", 10)})
	evs, err := r.m.Snooze("far:3", inbox.Snooze{For: time.Minute})
	if err != nil || len(evs) != 1 || evs[0].Item.Closed != inbox.ReasonSnoozed {
		t.Fatalf("snooze: %+v %v", evs, err)
	}
	if items, _ := r.m.List("", inbox.ListOptions{}); len(items) != 0 {
		t.Fatalf("snoozed item listed: %+v", items)
	}
	if w := r.m.NextWake(); !w.Equal(t0.Add(time.Minute)) {
		t.Errorf("next wake %v", w)
	}
	// The same listing again leaves it asleep.
	if evs := r.m.Sync("far", "b1", []inbox.Item{far("3", inbox.KindQuestion, "which retry policy?", 10)}); len(evs) != 0 {
		t.Errorf("relist woke it: %+v", evs)
	}
	r.clock.Advance(time.Minute)
	evs = r.m.Tick(r.clock.Now())
	if len(evs) != 1 || evs[0].Op != inbox.OpOpen || evs[0].Item.ID != "far:3" {
		t.Fatalf("tick: %+v", evs)
	}
	// Until change: a new line there wakes it.
	if _, err := r.m.Snooze("far:3", inbox.Snooze{UntilChange: true}); err != nil {
		t.Fatal(err)
	}
	evs = r.m.Apply("far", inbox.OpUpdate, far("3", inbox.KindQuestion, "which backoff?", 10))
	if len(evs) != 1 || evs[0].Op != inbox.OpOpen || evs[0].Item.Summary != "which backoff?" {
		t.Fatalf("change: %+v", evs)
	}
	held := far("9", inbox.KindApproval, "Bash: make", 11)
	held.HeldID = "req-1"
	r.m.Apply("far", inbox.OpOpen, held)
	if _, err := r.m.Snooze("far:9", inbox.Snooze{For: time.Minute}); err == nil {
		t.Error("a held approval was snoozed")
	}
}

func TestMirrorUndoTakesTheNewestActEitherSide(t *testing.T) {
	r := newMirrorRig(t)
	r.q.Outbox(inbox.OutboxInput{Host: "gpu", Waiting: 1})
	local := r.q.List(inbox.ListOptions{}).Items[0]
	r.m.Sync("far", "b1", []inbox.Item{far("3", inbox.KindQuestion, "q", 10)})
	if _, err := r.q.Snooze(local.ID, inbox.Snooze{For: time.Hour}); err == nil {
		t.Fatal("outbox snoozed") // outbox items cannot be snoozed: use a dismiss
	}
	r.q.Notice(inbox.Pane{ID: "p1", Session: "api", Name: "w"}, "stalled")
	l := r.q.List(inbox.ListOptions{Kinds: []inbox.Kind{inbox.KindQuestion}}).Items
	if _, _, err := r.q.Dismiss(l[0].ID); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(time.Second)
	if _, _, err := r.m.Dismiss("far:3"); err != nil {
		t.Fatal(err)
	}
	evs, err := r.m.Undo()
	if err != nil || len(evs) != 1 || evs[0].Item.ID != "far:3" {
		t.Fatalf("first undo: %+v %v, want far:3 back", evs, err)
	}
	evs, err = r.m.Undo()
	if err != nil || len(evs) != 1 || evs[0].Item.ID != l[0].ID {
		t.Fatalf("second undo: %+v %v, want local %s back", evs, err, l[0].ID)
	}
}

func TestMirrorCleansFarText(t *testing.T) {
	r := newMirrorRig(t)
	hostile := inbox.Item{ID: "8", Kind: inbox.KindQuestion, Session: "api\x1b]0;pwned\x07", Name: "w\u202eevil",
		Summary: "token=abc123secret \x1b[31mred\x1b[0m\nsecond line", Options: []string{"yes\x1b[2J"}, Since: 1}
	r.m.Sync("far", "b1", []inbox.Item{hostile})
	got := r.list("far")
	if len(got) != 1 {
		t.Fatalf("items %+v", got)
	}
	it := got[0]
	for _, s := range append([]string{it.Session, it.Name, it.Summary}, it.Options...) {
		if strings.ContainsAny(s, "\x1b\x07\n\u202e") {
			t.Errorf("control or bidi characters kept: %q", s)
		}
	}
	if strings.Contains(it.Summary, "abc123secret") {
		t.Errorf("secret kept: %q", it.Summary)
	}
}

func TestMergeKeepsListOrder(t *testing.T) {
	local := []inbox.Item{
		{ID: "1", Kind: inbox.KindApproval, Since: 10},
		{ID: "2", Kind: inbox.KindFinished, Since: 5},
	}
	mirrored := []inbox.Item{
		{ID: "far:1", Host: "far", Kind: inbox.KindApproval, Since: 5},
		{ID: "far:2", Host: "far", Kind: inbox.KindApproval, Since: 10},
		{ID: "far:3", Host: "far", Kind: inbox.KindMail, Since: 1},
	}
	var ids []string
	for _, it := range inbox.Merge(local, mirrored) {
		ids = append(ids, it.ID)
	}
	if got := strings.Join(ids, " "); got != "far:1 1 far:2 far:3 2" {
		t.Errorf("merged %s", got)
	}
}

func TestMirrorRemoveClosesHostItems(t *testing.T) {
	r := newMirrorRig(t)
	r.m.Sync("far", "b1", []inbox.Item{far("3", inbox.KindQuestion, "q", 10)})
	evs := r.m.Remove("far")
	if len(evs) != 1 || evs[0].Item.Closed != inbox.ReasonHostRemoved {
		t.Fatalf("remove: %+v", evs)
	}
	if r.m.Known("far") || len(r.m.Hosts()) != 0 {
		t.Error("removed host still followed")
	}
}

func TestMirrorAnotherBootStartsOver(t *testing.T) {
	r := newMirrorRig(t)
	r.m.Sync("far", "b1", []inbox.Item{far("1", inbox.KindQuestion, "old question", 10)})
	if _, _, err := r.m.Dismiss("far:1"); err != nil {
		t.Fatal(err)
	}
	// The far daemon started again with an empty queue: id 1 is another
	// item there, and must not stay hidden by the old dismiss.
	evs := r.m.Sync("far", "b2", []inbox.Item{far("1", inbox.KindErrored, "new boom", 20)})
	if len(evs) != 1 || evs[0].Op != inbox.OpOpen || evs[0].Item.Summary != "new boom" {
		t.Fatalf("new boot: %+v", evs)
	}
	r.m.Sync("far", "b2", []inbox.Item{far("1", inbox.KindErrored, "new boom", 20), far("2", inbox.KindQuestion, "q", 21)})
	evs = r.m.Sync("far", "b3", []inbox.Item{far("2", inbox.KindQuestion, "another q", 30)})
	if len(evs) != 3 || evs[0].Op != inbox.OpClose || evs[1].Op != inbox.OpClose || evs[2].Op != inbox.OpOpen {
		t.Fatalf("third boot: %+v, want the two old items closed, the new one opened", evs)
	}
}
