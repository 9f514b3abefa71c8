package inbox_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/inbox"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// rig drives a queue with snapshots from a real arbiter, as the daemon
// does.
type rig struct {
	t     *testing.T
	clock *fakeclock.Clock
	a     *agentstate.Arbiter
	q     *inbox.Queue
}

func newRig(t *testing.T) *rig {
	return newRigWith(t, inbox.Options{})
}

func newRigWith(t *testing.T, opt inbox.Options) *rig {
	t.Helper()
	c := fakeclock.New(t0)
	opt.Clock = c
	if opt.BootID == "" {
		opt.BootID = "boot-1"
	}
	return &rig{t: t, clock: c, a: agentstate.New(agentstate.Options{Clock: c, StallAfter: -1}), q: inbox.New(opt)}
}

func pane(id string) inbox.Pane {
	return inbox.Pane{ID: id, Session: "api", Name: id, Workspace: "1", Worktree: "/src/api", Home: "/home/me"}
}

// report applies a hook report to the arbiter and feeds the pane's
// snapshot to the queue.
func (r *rig) report(id string, s agentstate.State, msg string, kind agentstate.Kind) []inbox.Event {
	r.t.Helper()
	r.a.Apply(id, agentstate.Report{State: s, Source: agentstate.SourceReport, Message: msg, Kind: kind, Harness: "claude-code"})
	return r.sync(id)
}

func (r *rig) sync(id string) []inbox.Event {
	return r.q.Update(pane(id), r.a.Get(id))
}

func (r *rig) approval(id, msg string) []inbox.Event {
	return r.report(id, agentstate.NeedsInput, msg, agentstate.KindApproval)
}

func (r *rig) question(id, msg string) []inbox.Event {
	return r.report(id, agentstate.NeedsInput, msg, agentstate.KindQuestion)
}

func (r *rig) working(id string) []inbox.Event {
	return r.report(id, agentstate.Working, "working", 0)
}

// finish runs a turn to done.
func (r *rig) finish(id, msg string) []inbox.Event {
	r.working(id)
	return r.report(id, agentstate.Done, msg, 0)
}

func (r *rig) errored(id, msg string) []inbox.Event {
	return r.report(id, agentstate.Errored, msg, 0)
}

// focus is a client focusing the pane.
func (r *rig) focus(id string) []inbox.Event {
	r.a.MarkSeen(id)
	evs := r.sync(id)
	return append(evs, r.q.Seen(id)...)
}

func (r *rig) mail(session string, thread uint64, unread int, latest uint64, subject string) []inbox.Event {
	in := inbox.MailInput{Session: session, Thread: thread, Unread: unread}
	in.Latest.ID, in.Latest.From, in.Latest.FromLabel, in.Latest.Subject = latest, "lead-id", "lead", subject
	return r.q.Mail(in)
}

func (r *rig) list() []inbox.Item { return r.q.List(inbox.ListOptions{}).Items }

func (r *rig) find(k inbox.Kind, id string) inbox.Item {
	r.t.Helper()
	it, ok := r.q.Find(inbox.PaneKey(k, id))
	if !ok {
		r.t.Fatalf("no %s item for %s; list: %s", k, id, rows(r.q.List(inbox.ListOptions{IncludeSnoozed: true}).Items))
	}
	return it
}

func (r *rig) none(k inbox.Kind, id string) {
	r.t.Helper()
	if it, ok := r.q.Find(inbox.PaneKey(k, id)); ok {
		r.t.Fatalf("want no %s item for %s, have %+v", k, id, it)
	}
}

// ops prints events as "open approval#1; close resolved#1".
func ops(evs []inbox.Event) string {
	var b []string
	for _, e := range evs {
		s := fmt.Sprintf("%s %s#%s", e.Op, e.Item.Kind, e.Item.ID)
		if e.Op == inbox.OpClose {
			s = fmt.Sprintf("close %s %s#%s", e.Item.Closed, e.Item.Kind, e.Item.ID)
		}
		b = append(b, s)
	}
	return strings.Join(b, "; ")
}

// rows prints items as "approval#1 lead: text".
func rows(items []inbox.Item) string {
	var b []string
	for _, it := range items {
		b = append(b, fmt.Sprintf("%s#%s %s: %s", it.Kind, it.ID, it.Window, it.Summary))
	}
	return strings.Join(b, " | ")
}

func kindsOf(items []inbox.Item) string {
	var b []string
	for _, it := range items {
		b = append(b, string(it.Kind))
	}
	return strings.Join(b, ",")
}

func wantOps(t *testing.T, evs []inbox.Event, want string) {
	t.Helper()
	if got := ops(evs); got != want {
		t.Fatalf("events %q, want %q", got, want)
	}
}

func wantRefusal(t *testing.T, err error, code inbox.Code, why inbox.Why) {
	t.Helper()
	var e *inbox.Error
	if !errors.As(err, &e) {
		t.Fatalf("err %v, want an *inbox.Error %s/%s", err, code, why)
	}
	if e.Code() != code || e.Why != why {
		t.Fatalf("refusal %s/%s (%v), want %s/%s", e.Code(), e.Why, err, code, why)
	}
	if e.Message == "" {
		t.Fatal("a refusal without a message")
	}
}

// unrecognised is a notice an owner opens for a pane waiting at a screen
// no rule recognises (the tuios daemon's words).
const unrecognised = "waiting at a screen tuios does not recognise: look at the pane and answer it"
