package links

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/internal/atomicfile"
	"github.com/tuios/tuios/internal/proto"
)

// fakeFar is a far machine for the outbox: a link state and a daemon that
// answers send-agent-message as the test says. Only the machine is fake;
// the outbox, its timers (on a fake clock) and its file are the real ones.
type fakeFar struct {
	mu        sync.Mutex
	status    string
	answer    func(params map[string]any) *proto.Error // nil: delivered
	delivered []string                                 // texts, in order
	tries     int
	rows      []string // what the Inbox row was told, in order
}

func (f *fakeFar) setStatus(s string) { f.mu.Lock(); f.status = s; f.mu.Unlock() }

func (f *fakeFar) setAnswer(a func(map[string]any) *proto.Error) {
	f.mu.Lock()
	f.answer = a
	f.mu.Unlock()
}

func (f *fakeFar) got() ([]string, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.delivered...), f.tries
}

func (f *fakeFar) lastRow() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.rows) == 0 {
		return ""
	}
	return f.rows[len(f.rows)-1]
}

func (f *fakeFar) options(clk *fakeclock.Clock, path string, t *testing.T) OutboxOptions {
	return OutboxOptions{
		Clock: clk, Path: path, UID: os.Getuid(), Logf: t.Logf,
		Status: func(string) string { f.mu.Lock(); defer f.mu.Unlock(); return f.status },
		Deliver: func(ctx context.Context, host string, params map[string]any) (map[string]any, *proto.Error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.tries++
			if f.status != "up" { // as Call answers for a link that is not up
				return nil, proto.Errorf(CodeHostUnreachable, "host %s is %s: connection refused", host, f.status).
					WithHint(proto.Hint{Command: "tuios hosts", Detail: "tuios hosts says why the link is down"})
			}
			if f.answer != nil {
				if err := f.answer(params); err != nil {
					return nil, err
				}
			}
			f.delivered = append(f.delivered, fmt.Sprint(params["text"]))
			return map[string]any{"type": "agent_message_sent", "message_id": len(f.delivered)}, nil
		},
		Changed: func(host string, waiting int, refused string) {
			f.mu.Lock()
			f.rows = append(f.rows, fmt.Sprintf("%s waiting=%d refused=%q", host, waiting, refused))
			f.mu.Unlock()
		},
		SetAside: func(p, why string) {
			aside, err := atomicfile.SetAside(p, clk.Now())
			t.Logf("outbox: refused %s (%s); moved it to %s (%v)", p, why, aside, err)
		},
	}
}

func newTestOutbox(t *testing.T) (*Outbox, *fakeFar, *fakeclock.Clock, string) {
	t.Helper()
	clk := fakeclock.New(time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC))
	path := filepath.Join(t.TempDir(), "state", filepath.FromSlash(OutboxFile))
	far := &fakeFar{status: "unreachable"}
	return NewOutbox(far.options(clk, path, t)), far, clk, path
}

func msgTo(host, text string) OutboxMsg {
	return OutboxMsg{Host: host, Session: "api", To: "worker", From: "lead", Text: text}
}

func mustQueue(t *testing.T, o *Outbox, m OutboxMsg) map[string]any {
	t.Helper()
	res, err := o.Send(context.Background(), m, true)
	if err != nil {
		t.Fatalf("send %q: %v", m.Text, err)
	}
	if res["type"] != "agent_message_queued" || res["queued"] != true {
		t.Fatalf("send %q was not queued: %v", m.Text, res)
	}
	return res
}

// guard bounds a wait that should end at once: a failure guard, not a
// timing.
const guard = 45 * time.Second

// waitFor waits for cond with a deadline: a failure guard, not timing.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func fileMessages(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := decodeOutbox(b)
	if err != nil {
		t.Fatalf("the outbox file does not decode: %v\n%s", err, b)
	}
	var out []string
	for _, m := range st.Messages {
		out = append(out, m.Text)
	}
	return out
}

func TestOutboxKeepsMailWhileDownAndDeliversInOrderWhenTheLinkIsBack(t *testing.T) {
	t.Parallel()
	o, far, clk, path := newTestOutbox(t)
	for i, text := range []string{"one", "two", "three"} {
		res := mustQueue(t, o, msgTo("build", text))
		if res["waiting"] != i+1 || res["why"] != "link_down" || res["host"] != "build" || res["queue_id"] != uint64(i+1) {
			t.Fatalf("queued answer %d: %v", i, res)
		}
	}
	if got, tries := far.got(); len(got) != 0 || tries != 0 {
		t.Fatalf("a down link was tried: %v %d", got, tries)
	}
	if row := far.lastRow(); row != `build waiting=3 refused=""` {
		t.Fatalf("Inbox row: %s", row)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("outbox file: %v %v", fi, err)
	}
	if got := fileMessages(t, path); strings.Join(got, ",") != "one,two,three" {
		t.Fatalf("on disk: %v", got)
	}
	if clk.Pending() != 0 {
		t.Fatalf("%d timers armed while the link is down", clk.Pending())
	}
	// Mail to another host does not wait behind build's.
	far.setStatus("up")
	res, err := o.Send(context.Background(), msgTo("gpu", "direct"), true)
	if err != nil || res["type"] != "agent_message_sent" {
		t.Fatalf("gpu send: %v %v", res, err)
	}
	// build is up (as far as the event says) but its first message has not
	// gone yet: a new one waits behind it.
	res = mustQueue(t, o, msgTo("build", "four"))
	if res["why"] != "earlier_mail_waits" || res["waiting"] != 4 {
		t.Fatalf("behind earlier mail: %v", res)
	}
	o.LinkChanged() // host-changed: build is up
	waitFor(t, "every message delivered", func() bool { got, _ := far.got(); return len(got) == 5 })
	if got, _ := far.got(); strings.Join(got, ",") != "direct,one,two,three,four" {
		t.Fatalf("delivery order: %v", got)
	}
	waitFor(t, "the row closed", func() bool { return far.lastRow() == `build waiting=0 refused=""` })
	if got := fileMessages(t, path); len(got) != 0 {
		t.Fatalf("delivered mail still on disk: %v", got)
	}
	if clk.Pending() != 0 || o.Waiting("build") != 0 {
		t.Fatalf("after delivery: %d timers, %d waiting", clk.Pending(), o.Waiting("build"))
	}
}

func TestOutboxRetriesAfterOneSecondDoublingToThirty(t *testing.T) {
	t.Parallel()
	o, far, clk, _ := newTestOutbox(t)
	far.setStatus("up")
	far.setAnswer(func(map[string]any) *proto.Error {
		return proto.Errorf(proto.CodeTimeout, "the far side did not answer in 10 s")
	})
	res := mustQueue(t, o, msgTo("build", "slow"))
	if res["why"] != "no_answer" {
		t.Fatalf("a try that timed out: %v", res)
	}
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30}
	for i, d := range want {
		due, ok := o.Armed("build")
		if !ok || due.Sub(clk.Now()) != d*time.Second {
			t.Fatalf("retry %d: armed %v for %v from now, want %v", i, ok, due.Sub(clk.Now()), d*time.Second)
		}
		if clk.Pending() != 1 {
			t.Fatalf("retry %d: %d timers, want one", i, clk.Pending())
		}
		clk.Advance(d*time.Second - time.Millisecond)
		if _, tries := far.got(); tries != i+1 {
			t.Fatalf("retry %d tried early: %d tries", i, tries)
		}
		clk.Advance(time.Millisecond)
		waitFor(t, "the retry and its next timer", func() bool {
			_, tries := far.got()
			_, armed := o.Armed("build")
			return tries == i+2 && armed
		})
	}
	// The far side answers again: delivered, no timer left.
	far.setAnswer(nil)
	clk.Advance(30 * time.Second)
	waitFor(t, "the delivery", func() bool { got, _ := far.got(); return len(got) == 1 })
	waitFor(t, "no timer, and the pump done", func() bool {
		_, armed := o.Armed("build")
		o.mu.Lock()
		_, held := o.hosts["build"] // notify lets go of an empty host once the pump is done
		o.mu.Unlock()
		return !armed && clk.Pending() == 0 && !held
	})
	// The backoff starts again at 1 s after a success.
	far.setAnswer(func(map[string]any) *proto.Error { return proto.Errorf(CodeHostUnreachable, "the link dropped") })
	mustQueue(t, o, msgTo("build", "again"))
	if due, ok := o.Armed("build"); !ok || due.Sub(clk.Now()) != time.Second {
		t.Fatalf("after a success the backoff did not restart at 1 s: %v %v", ok, due.Sub(clk.Now()))
	}
	// The link coming back up tries at once, whatever the timer says.
	far.setStatus("reconnecting")
	o.LinkChanged()
	far.setAnswer(nil)
	far.setStatus("up")
	o.LinkChanged()
	waitFor(t, "the retry at once", func() bool { got, _ := far.got(); return len(got) == 2 })
	waitFor(t, "the file written", func() bool { return o.Waiting("build") == 0 })
}

func TestOutboxCapsAre64PerHostAnd256InAll(t *testing.T) {
	t.Parallel()
	o, _, _, _ := newTestOutbox(t)
	for i := range OutboxPerHost {
		mustQueue(t, o, msgTo("build", fmt.Sprint("m", i)))
	}
	_, err := o.Send(context.Background(), msgTo("build", "the 65th"), true)
	if err == nil || err.Code != proto.CodeRateLimited || !strings.Contains(err.Message, "64") {
		t.Fatalf("65th message for build: %v", err)
	}
	for _, host := range []string{"gpu", "web", "db"} {
		for i := range OutboxPerHost {
			mustQueue(t, o, msgTo(host, fmt.Sprint("m", i)))
		}
	}
	_, err = o.Send(context.Background(), msgTo("fifth", "one too many"), true)
	if err == nil || err.Code != proto.CodeRateLimited || !strings.Contains(err.Message, "256") {
		t.Fatalf("257th message: %v", err)
	}
	if o.Waiting("build") != 64 || o.Waiting("fifth") != 0 {
		t.Fatalf("a refused message was kept: build %d, fifth %d", o.Waiting("build"), o.Waiting("fifth"))
	}
}

func TestOutboxSurvivesARestartFromDisk(t *testing.T) {
	t.Parallel()
	o, far, clk, path := newTestOutbox(t)
	mustQueue(t, o, msgTo("build", "first"))
	mustQueue(t, o, OutboxMsg{Host: "build", Session: "api", From: "human", Subject: "s", Text: "second", ReplyTo: 7, Attachments: []string{"/stash/x.png"}})
	// A new daemon on the same state dir.
	o2 := NewOutbox(far.options(clk, path, t))
	if hosts := o2.Load(); len(hosts) != 1 || hosts[0] != "build" {
		t.Fatalf("loaded hosts: %v", hosts)
	}
	list := o2.List("")
	if len(list) != 1 || list[0].Waiting != 2 || list[0].Messages[0].Text != "first" || list[0].Messages[1].ReplyTo != 7 ||
		list[0].Messages[1].From != "human" || list[0].Messages[1].Attachments[0] != "/stash/x.png" {
		t.Fatalf("after the restart: %+v", list)
	}
	res := mustQueue(t, o2, msgTo("build", "third"))
	if res["queue_id"] != uint64(3) {
		t.Fatalf("queue ids restarted: %v", res)
	}
	far.setStatus("up")
	o2.LinkChanged()
	waitFor(t, "delivery after the restart", func() bool { got, _ := far.got(); return len(got) == 3 })
	got, _ := far.got()
	if strings.Join(got, ",") != "first,second,third" {
		t.Fatalf("order after a restart: %v", got)
	}
	waitFor(t, "the file written", func() bool { return o2.Waiting("build") == 0 })
}

func TestOutboxSetsACorruptFileAsideAndNeverOverwritesIt(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		body string
		mode os.FileMode
	}{
		"garbage":      {"{not json", 0o600},
		"not private":  {`{"version":1,"next_id":1,"messages":[]}`, 0o644},
		"over the cap": {`{"version":1,"next_id":2,"messages":[{"queue_id":1,"host":"build","session":"a","text":"x","queued_at":1},{"queue_id":1,"host":"build","session":"a","text":"y","queued_at":1}]}`, 0o600},
		"bad host":     {`{"version":1,"next_id":2,"messages":[{"queue_id":1,"host":"-oProxyCommand=x","session":"a","text":"x","queued_at":1}]}`, 0o600},
	} {
		t.Run(name, func(t *testing.T) {
			o, _, _, path := newTestOutbox(t)
			os.MkdirAll(filepath.Dir(path), 0o700)
			if err := os.WriteFile(path, []byte(tc.body), tc.mode); err != nil {
				t.Fatal(err)
			}
			os.Chmod(path, tc.mode)
			if hosts := o.Load(); len(hosts) != 0 {
				t.Fatalf("loaded from a refused file: %v", hosts)
			}
			aside, _ := filepath.Glob(path + ".corrupt-*")
			if len(aside) != 1 {
				t.Fatalf("not set aside: %v", aside)
			}
			mustQueue(t, o, msgTo("build", "new"))
			if b, _ := os.ReadFile(aside[0]); string(b) != tc.body {
				t.Fatalf("the set-aside file changed: %q", b)
			}
			if got := fileMessages(t, path); len(got) != 1 || got[0] != "new" {
				t.Fatalf("the new file: %v", got)
			}
		})
	}
}

func TestOutboxRefusalIsDroppedShownAndDismissDiscardsTheRest(t *testing.T) {
	t.Parallel()
	o, far, _, path := newTestOutbox(t)
	mustQueue(t, o, OutboxMsg{Host: "build", Session: "gone", Text: "to a closed session"})
	mustQueue(t, o, msgTo("build", "second"))
	mustQueue(t, o, msgTo("build", "third"))
	far.setAnswer(func(p map[string]any) *proto.Error {
		switch {
		case p["session"] == "gone":
			return proto.Errorf(proto.CodeSessionNotFound, "no session \x1b[31mgone\x1b[0m")
		case p["text"] == "second":
			// The far session's link caps are full: not now, not refused.
			return proto.Errorf(proto.CodeRateLimited, "this session holds 32 unread messages from other machines")
		}
		return nil
	})
	far.setStatus("up")
	o.LinkChanged()
	waitFor(t, "the refusal on the row", func() bool {
		return strings.HasPrefix(far.lastRow(), `build waiting=2 refused="session_not_found (to gone): no session`)
	})
	waitFor(t, "the rate-limited one scheduled again", func() bool { _, armed := o.Armed("build"); return armed })
	if got, _ := far.got(); len(got) != 0 {
		t.Fatalf("delivered past a rate_limited message: %v", got)
	}
	if got := fileMessages(t, path); strings.Join(got, ",") != "second,third" {
		t.Fatalf("on disk after the refusal: %v", got)
	}
	if l := o.List("build"); len(l) != 1 || !strings.Contains(l[0].Refused, "session_not_found") || l[0].NextRetry == 0 {
		t.Fatalf("list: %+v", l)
	}
	// Dismissing the row discards what still waits, and the refusal.
	if n := o.Discard("build"); n != 2 {
		t.Fatalf("discarded %d, want 2", n)
	}
	if row := far.lastRow(); row != `build waiting=0 refused=""` {
		t.Fatalf("row after the dismiss: %s", row)
	}
	if _, armed := o.Armed("build"); armed || len(o.List("")) != 0 || len(fileMessages(t, path)) != 0 {
		t.Fatalf("something outlived the discard: armed=%v list=%v", armed, o.List(""))
	}
}

func TestOutboxFirstTryFailingGoesAheadOfLaterMail(t *testing.T) {
	t.Parallel()
	o, far, _, _ := newTestOutbox(t)
	far.setStatus("up")
	release := make(chan struct{})
	inTry := make(chan struct{})
	o.opt.Deliver = func(ctx context.Context, host string, params map[string]any) (map[string]any, *proto.Error) {
		if params["text"] == "first" {
			close(inTry)
			<-release
			return nil, proto.Errorf(CodeHostUnreachable, "the link dropped")
		}
		far.mu.Lock()
		far.delivered = append(far.delivered, fmt.Sprint(params["text"]))
		far.mu.Unlock()
		return map[string]any{"type": "agent_message_sent"}, nil
	}
	done := make(chan map[string]any)
	go func() { res, _ := o.Send(context.Background(), msgTo("build", "first"), true); done <- res }()
	<-inTry
	res := mustQueue(t, o, msgTo("build", "second")) // sent while the first try is out
	if res["why"] != "earlier_mail_waits" {
		t.Fatalf("second: %v", res)
	}
	close(release)
	if res := <-done; res["type"] != "agent_message_queued" || res["waiting"] != 2 {
		t.Fatalf("first after its failed try: %v", res)
	}
	l := o.List("build")
	if len(l) != 1 || l[0].Messages[0].Text != "first" || l[0].Messages[1].Text != "second" {
		t.Fatalf("order after a failed first try: %+v", l)
	}
}

// FuzzOutboxDecode: the outbox file is read at start and may be anything;
// what decodes is within the caps and encodes back to the same state.
func FuzzOutboxDecode(f *testing.F) {
	f.Add([]byte(`{"version":1,"next_id":3,"messages":[{"queue_id":1,"host":"build","session":"api","to":"w","text":"hi","queued_at":5},{"queue_id":2,"host":"gpu","session":"","text":"x","reply_to":3,"attachments":["/a"],"queued_at":6}],"refused":{"build":"session_not_found"}}`))
	f.Add([]byte(`{"version":1,"next_id":1,"messages":[]}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decodeOutbox(b)
		if err != nil {
			return
		}
		if len(st.Messages) > OutboxTotal {
			t.Fatalf("%d messages decoded", len(st.Messages))
		}
		enc := encodeState(t, st)
		st2, err := decodeOutbox(enc)
		if err != nil {
			t.Fatalf("re-encoded state does not decode: %v\n%s", err, enc)
		}
		if enc2 := encodeState(t, st2); string(enc) != string(enc2) {
			t.Fatalf("not stable:\n%s\n%s", enc, enc2)
		}
	})
}

// encodeState is what an outbox holding st writes.
func encodeState(t *testing.T, st outboxState) []byte {
	o := NewOutbox(OutboxOptions{})
	o.fillLocked(st)
	b, err := o.encodeLocked()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A host whose row still shows a refusal (so its record stays) goes down
// and comes back: the mail queued meanwhile goes at once.
func TestOutboxLinkBackAfterARefusalStillDelivers(t *testing.T) {
	t.Parallel()
	o, far, _, _ := newTestOutbox(t)
	far.setAnswer(func(p map[string]any) *proto.Error {
		if p["session"] == "gone" {
			return proto.Errorf(proto.CodeSessionNotFound, "no session named gone")
		}
		return nil
	})
	mustQueue(t, o, OutboxMsg{Host: "build", Session: "gone", Text: "refused later"})
	far.setStatus("up")
	o.LinkChanged()
	waitFor(t, "the refusal", func() bool { return strings.Contains(far.lastRow(), "session_not_found") })
	far.setStatus("reconnecting")
	o.LinkChanged()
	mustQueue(t, o, msgTo("build", "while down"))
	far.setStatus("up")
	o.LinkChanged()
	waitFor(t, "delivered when back", func() bool { got, _ := far.got(); return len(got) == 1 && got[0] == "while down" })
	waitFor(t, "the file written", func() bool { return o.Waiting("build") == 0 })
}

// Without queue (what a sender gets unless it asks for the outbox) a host
// that is not answering is host_unreachable and nothing is kept; the far
// side's rate_limited comes back at once, as that machine's word, queue
// or not.
func TestOutboxKeepsNothingUnlessAskedAndRateLimitedIsNeverKept(t *testing.T) {
	t.Parallel()
	o, far, clk, path := newTestOutbox(t)
	_, err := o.Send(context.Background(), msgTo("build", "while down"), false)
	if err == nil || err.Code != CodeHostUnreachable || !strings.Contains(err.Message, "connection refused") || err.Hint.Command != "tuios hosts" {
		t.Fatalf("down, no queue: %v", err)
	}
	if o.Waiting("build") != 0 || len(o.List("")) != 0 || clk.Pending() != 0 || far.lastRow() != "" {
		t.Fatalf("kept without queue: waiting %d, list %v, timers %d, row %q", o.Waiting("build"), o.List(""), clk.Pending(), far.lastRow())
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatalf("the outbox file was written for a send without queue")
	}
	far.setStatus("up")
	if res, err := o.Send(context.Background(), msgTo("build", "up now"), false); err != nil || res["type"] != "agent_message_sent" {
		t.Fatalf("up, no queue: %v %v", res, err)
	}
	full := proto.Errorf(proto.CodeRateLimited, "this session holds 32 unread messages from other machines").
		WithHint(proto.Hint{Detail: "wait until someone here reads"})
	far.setAnswer(func(map[string]any) *proto.Error { return full })
	for _, keep := range []bool{false, true} {
		_, err := o.Send(context.Background(), msgTo("build", "the 33rd"), keep)
		if err == nil || err.Code != proto.CodeRateLimited || err.Message != "host build: this session holds 32 unread messages from other machines" ||
			err.Hint.Detail != "host build says: wait until someone here reads" {
			t.Fatalf("rate_limited there (queue %v): %+v", keep, err)
		}
		if o.Waiting("build") != 0 || clk.Pending() != 0 {
			t.Fatalf("a rate_limited send was kept (queue %v): waiting %d, timers %d", keep, o.Waiting("build"), clk.Pending())
		}
	}
	if full.Message != "this session holds 32 unread messages from other machines" {
		t.Fatalf("the far error was changed in place: %q", full.Message)
	}
}

// Queued counts the mail waiting per host: a host with only a refusal
// left has nothing queued.
func TestOutboxQueuedCountsWaitingMailOnly(t *testing.T) {
	t.Parallel()
	o := NewOutbox(OutboxOptions{})
	o.hostLocked("build").msgs = make([]OutboxMsg, 2)
	o.hostLocked("gpu").msgs = make([]OutboxMsg, 1)
	o.hostLocked("idle").refused = "window_not_found"
	if got, want := o.Queued(), map[string]int{"build": 2, "gpu": 1}; !maps.Equal(got, want) {
		t.Fatalf("Queued() = %v, want %v", got, want)
	}
}
