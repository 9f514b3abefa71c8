package mail

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock { return &fakeClock{t: time.Unix(1_800_000_000, 0)} }

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fakeFS answers Stat from a set of paths.
type fakeFS struct {
	mu    sync.Mutex
	files map[string]int64
	dirs  map[string]bool
}

type fakeInfo struct {
	name string
	size int64
	dir  bool
}

func (f fakeInfo) Name() string       { return f.name }
func (f fakeInfo) Size() int64        { return f.size }
func (f fakeInfo) Mode() fs.FileMode  { return 0o644 }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return f.dir }
func (f fakeInfo) Sys() any           { return nil }

func (f *fakeFS) Stat(p string) (fs.FileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dirs[p] {
		return fakeInfo{name: p, dir: true}, nil
	}
	if n, ok := f.files[p]; ok {
		return fakeInfo{name: p, size: n}, nil
	}
	return nil, os.ErrNotExist
}

func (f *fakeFS) rm(p string) { f.mu.Lock(); delete(f.files, p); f.mu.Unlock() }

func newTestRing(t *testing.T) (*Ring, *fakeClock, *fakeFS) {
	t.Helper()
	c := newClock()
	f := &fakeFS{files: map[string]int64{"/tmp/flame.png": 1234, "/tmp/log.txt": 10}, dirs: map[string]bool{"/tmp": true}}
	return NewRing(RingOptions{Session: "api", Clock: c, Stat: f.Stat, RateBurst: -1}), c, f
}

func code(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code()
	}
	return ""
}

func mustSend(t *testing.T, r *Ring, req SendRequest) Message {
	t.Helper()
	m, err := r.Send(req)
	if err != nil {
		t.Fatalf("send %+v: %v", req, err)
	}
	return m
}

const lead, worker = "11111111-aaaa", "22222222-bbbb"

func TestSendReadMarksNeverConsumes(t *testing.T) { // M1
	r, c, _ := newTestRing(t)
	m := mustSend(t, r, SendRequest{From: lead, FromLabel: "lead", To: worker, ToLabel: "worker", Text: "build done"})
	if m.Kind != KindMessage || m.ThreadID != m.ID || m.ReplyTo != 0 || m.ReadAt != 0 || m.Session != "api" {
		t.Fatalf("sent: %+v", m)
	}
	if r.Unread(worker) != 1 {
		t.Fatal("unread count")
	}
	c.Advance(time.Second)
	res := r.Read(ReadOptions{Inbox: worker, Unread: true})
	if len(res.Messages) != 1 || !res.Messages[0].WasUnread || res.Messages[0].ReadAt != c.Now().UnixNano() || res.Unread != 1 {
		t.Fatalf("first read: %+v", res)
	}
	if res := r.Read(ReadOptions{Inbox: worker, Unread: true}); len(res.Messages) != 0 {
		t.Fatalf("second read: %+v", res)
	}
	if res := r.Read(ReadOptions{}); len(res.Messages) != 1 || res.Messages[0].WasUnread {
		t.Fatalf("whole-session read: %+v", res)
	}
	if r.Unread(worker) != 0 {
		t.Fatal("still unread")
	}
}

func TestPeekAndSessionReadsMarkNothing(t *testing.T) {
	r, _, _ := newTestRing(t)
	mustSend(t, r, SendRequest{From: lead, To: worker, Text: "a"})
	for _, o := range []ReadOptions{{Inbox: worker, Peek: true}, {}, {Unread: true}} {
		res := r.Read(o)
		if len(res.Messages) != 1 || res.Messages[0].WasUnread || res.Messages[0].ReadAt != 0 || res.Unread != 1 {
			t.Fatalf("%+v: %+v", o, res)
		}
	}
	if r.Unread(worker) != 1 {
		t.Fatal("a peek marked")
	}
	// Reading another inbox marks nothing of worker's.
	r.Read(ReadOptions{Inbox: lead})
	if r.Unread(worker) != 1 {
		t.Fatal("another inbox's read marked")
	}
}

func TestThreads(t *testing.T) { // M2
	r, _, _ := newTestRing(t)
	a := mustSend(t, r, SendRequest{From: lead, To: worker, Text: "first"})
	b := mustSend(t, r, SendRequest{From: worker, To: lead, Text: "reply", ReplyTo: a.ID})
	mustSend(t, r, SendRequest{From: lead, To: worker, Text: "unrelated"})
	c := mustSend(t, r, SendRequest{From: lead, To: worker, Text: "reply to reply", ReplyTo: b.ID})
	if b.ThreadID != a.ID || c.ThreadID != a.ID || c.ReplyTo != b.ID || c.ReplyToMissing {
		t.Fatalf("threads: %+v %+v", b, c)
	}
	res := r.Read(ReadOptions{Thread: b.ID})
	if res.Thread != a.ID || len(res.Messages) != 3 || res.Messages[0].ID != a.ID || res.Messages[2].ID != c.ID {
		t.Fatalf("thread read: %+v", res)
	}
	if r.ResolveThread(9999) != 9999 {
		t.Fatal("an unknown id resolves to itself")
	}
}

func TestReplyToForgottenAndNeverIssued(t *testing.T) { // M3, M4, M8
	r, _, _ := newTestRing(t)
	first := mustSend(t, r, SendRequest{From: lead, To: worker, Text: "root"})
	for i := 0; i < MaxMessages; i++ {
		mustSend(t, r, SendRequest{From: lead, To: worker, Text: "filler"})
	}
	st := r.Stats()
	if st.Messages != MaxMessages || st.Evicted != 1 {
		t.Fatalf("stats: %+v", st)
	}
	if got := r.Read(ReadOptions{Limit: -1}); got.Evicted != 1 || got.Messages[0].ID != first.ID+1 {
		t.Fatalf("oldest not evicted: %+v", got.Messages[0])
	}
	x := mustSend(t, r, SendRequest{From: worker, To: lead, Text: "late", ReplyTo: first.ID})
	y := mustSend(t, r, SendRequest{From: "33333333", To: lead, Text: "late too", ReplyTo: first.ID})
	z := mustSend(t, r, SendRequest{From: lead, To: worker, Text: "on the reply", ReplyTo: x.ID})
	for _, m := range []Message{x, y} {
		if m.ThreadID != first.ID || !m.ReplyToMissing {
			t.Fatalf("missing reply: %+v", m)
		}
	}
	if z.ThreadID != first.ID || z.ReplyToMissing {
		t.Fatalf("reply to the late reply: %+v", z)
	}
	if res := r.Read(ReadOptions{Thread: first.ID}); len(res.Messages) != 3 {
		t.Fatalf("thread of a forgotten root: %d", len(res.Messages))
	}
	before := r.Stats()
	_, err := r.Send(SendRequest{From: lead, To: worker, Text: "typo", ReplyTo: z.ID + 1})
	if code(err) != CodeInvalidParams || r.Stats() != before {
		t.Fatalf("never issued: %v", err)
	}
}

func TestReplyToAnotherSessionsMessageIsRefused(t *testing.T) {
	ids := &Counter{}
	a := NewRing(RingOptions{Session: "a", IDs: ids, RateBurst: -1})
	b := NewRing(RingOptions{Session: "b", IDs: ids, RateBurst: -1})
	m := mustSend(t, a, SendRequest{To: worker, Text: "in a"})
	n := mustSend(t, b, SendRequest{To: worker, Text: "in b"})
	if n.ID != m.ID+1 {
		t.Fatal("ids come from one counter")
	}
	if _, err := b.Send(SendRequest{To: worker, Text: "x", ReplyTo: m.ID}); code(err) != CodeInvalidParams {
		t.Fatalf("cross-session reply: %v", err)
	}
}

func TestValidation(t *testing.T) { // M7
	r, _, _ := newTestRing(t)
	nine := make([]string, 9)
	for i := range nine {
		nine[i] = "/tmp/log.txt"
	}
	for name, req := range map[string]SendRequest{
		"8193 bytes":  {To: worker, Text: strings.Repeat("a", MaxBodyBytes+1)},
		"121 chars":   {To: worker, Text: "x", Subject: strings.Repeat("é", MaxSubjectChars+1)},
		"9 attached":  {To: worker, Text: "x", Attachments: nine},
		"relative":    {To: worker, Text: "x", Attachments: []string{"log.txt"}},
		"missing":     {To: worker, Text: "x", Attachments: []string{"/tmp/nope.png"}},
		"a directory": {To: worker, Text: "x", Attachments: []string{"/tmp"}},
		"blank":       {To: worker, Text: " \n\t"},
	} {
		if _, err := r.Send(req); code(err) != CodeInvalidParams {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := r.Send(SendRequest{To: worker, Text: strings.Repeat("a", MaxBodyBytes), Subject: strings.Repeat("é", MaxSubjectChars)}); err != nil {
		t.Errorf("at the caps: %v", err)
	}
	if r.Stats().Messages != 1 {
		t.Fatal("a refused send stored something")
	}
	if _, err := r.Send(SendRequest{From: lead, To: lead, Text: "me"}); code(err) != CodeLoopRefused {
		t.Fatalf("self-send: %v", err)
	}
}

func TestByteCapEvicts(t *testing.T) {
	r, _, _ := newTestRing(t)
	body := strings.Repeat("b", MaxBodyBytes)
	for i := 0; i < 100; i++ {
		mustSend(t, r, SendRequest{To: worker, Text: body})
	}
	st := r.Stats()
	if st.Bytes > MaxRingBytes || st.Messages != MaxRingBytes/MaxBodyBytes || st.Evicted != uint64(100-st.Messages) {
		t.Fatalf("stats: %+v", st)
	}
}

func TestNotices(t *testing.T) { // M9
	r, _, _ := newTestRing(t)
	n := mustSend(t, r, SendRequest{From: lead, Text: "deploying in five minutes"})
	if n.Kind != KindNotice || n.To != "" {
		t.Fatalf("notice: %+v", n)
	}
	if res := r.Read(ReadOptions{Inbox: worker, Unread: true}); len(res.Messages) != 0 {
		t.Fatal("unread read included a notice")
	}
	if res := r.Read(ReadOptions{Inbox: worker}); len(res.Messages) != 0 {
		t.Fatal("inbox read without notices included one")
	}
	res := r.Read(ReadOptions{Inbox: worker, Notices: true})
	if len(res.Messages) != 1 || res.Messages[0].WasUnread || res.Unread != 0 {
		t.Fatalf("notices read: %+v", res)
	}
	if res := r.Read(ReadOptions{Inbox: lead, Notices: true}); len(res.Messages) != 1 {
		t.Fatal("a notice is readable by all")
	}
	if r.Unread(worker)+r.Unread("") != 0 {
		t.Fatal("a notice counted as unread")
	}
}

func TestHumanInbox(t *testing.T) {
	r, _, _ := newTestRing(t)
	mustSend(t, r, SendRequest{From: lead, To: Human, Text: "exponential or fixed?"})
	mustSend(t, r, SendRequest{From: lead, To: Human, Text: "and the timeout?"})
	if r.Unread(Human) != 2 {
		t.Fatal("human_unread")
	}
	res := r.Read(ReadOptions{Inbox: Human, Peek: true}) // a pane's read of human is forced to a peek
	if len(res.Messages) != 2 || r.Unread(Human) != 2 {
		t.Fatal("peek of human marked")
	}
	r.Read(ReadOptions{Inbox: Human})
	if r.Unread(Human) != 0 {
		t.Fatal("the person's read did not mark")
	}
	r.CloseInbox(Human) // never closes
	if res := r.Read(ReadOptions{Inbox: Human}); res.Messages[0].Undeliverable {
		t.Fatal("human became undeliverable")
	}
}

func TestUndeliverableNeverRehomed(t *testing.T) { // M10
	r, _, _ := newTestRing(t)
	mustSend(t, r, SendRequest{From: lead, To: worker, ToLabel: "worker", Text: "for the old worker"})
	r.CloseInbox(worker)
	res := r.Read(ReadOptions{})
	if !res.Messages[0].Undeliverable || res.Unread != 0 || r.Unread(worker) != 0 {
		t.Fatalf("undeliverable: %+v", res.Messages[0])
	}
	const newWorker = "44444444-cccc" // same name, new id
	if res := r.Read(ReadOptions{Inbox: newWorker}); len(res.Messages) != 0 {
		t.Fatal("re-homed")
	}
}

func TestAttachmentsAreReferences(t *testing.T) {
	r, _, f := newTestRing(t)
	m := mustSend(t, r, SendRequest{To: worker, Text: "see", Attachments: []string{"/tmp/flame.png", "/tmp/log.txt"}})
	a := m.Attachments
	if a[0].Kind != "image" || a[0].MediaType != "image/png" || a[0].Bytes != 1234 || a[1].Kind != "file" || a[1].MediaType != "text/plain" {
		t.Fatalf("attachments: %+v", a)
	}
	f.rm("/tmp/flame.png")
	got := r.Read(ReadOptions{}).Messages[0].Attachments
	if !got[0].Missing || got[1].Missing {
		t.Fatalf("missing: %+v", got)
	}
}

func TestClassify(t *testing.T) {
	for p, want := range map[string]string{
		"/a.PNG": "image image/png", "/a.jpg": "image image/jpeg", "/a.jpeg": "image image/jpeg", "/a.gif": "image image/gif",
		"/a.webp": "image image/webp", "/a.bmp": "image image/bmp", "/a.svg": "image image/svg+xml", "/a.md": "file text/plain",
		"/a.log": "file text/plain", "/a.json": "file application/json", "/a.tar.gz": "file application/octet-stream", "/a": "file application/octet-stream",
	} {
		k, mt := classify(p)
		if k+" "+mt != want {
			t.Errorf("%s: %s %s", p, k, mt)
		}
	}
}

func TestLinkCaps(t *testing.T) { // M18
	r, _, _ := newTestRing(t)
	for i := 0; i < MaxLinkUnread; i++ {
		mustSend(t, r, SendRequest{FromLabel: "ci", To: worker, Text: "x", Origin: OriginLink, OriginHost: "build"})
	}
	if _, err := r.Send(SendRequest{FromLabel: "ci", To: worker, Text: "x", Origin: OriginLink, OriginHost: "build"}); code(err) != CodeRateLimited {
		t.Fatalf("33rd link message: %v", err)
	}
	mustSend(t, r, SendRequest{From: lead, To: worker, Text: "local senders are unaffected"})
	r.Read(ReadOptions{Inbox: worker})
	m := mustSend(t, r, SendRequest{FromLabel: "ci", To: worker, Text: "x", Origin: OriginLink, OriginHost: strings.Repeat("h", 100)})
	if m.Origin != OriginLink || len(m.OriginHost) != MaxOriginHost {
		t.Fatalf("origin: %+v", m)
	}
	for i := 0; i < MaxLinkNotices; i++ {
		mustSend(t, r, SendRequest{FromLabel: "ci", Text: "n", Origin: OriginLink, OriginHost: "build"})
	}
	if _, err := r.Send(SendRequest{FromLabel: "ci", Text: "n", Origin: OriginLink, OriginHost: "build"}); code(err) != CodeRateLimited {
		t.Fatalf("33rd link notice: %v", err)
	}
}

func TestRateLimit(t *testing.T) { // M6
	c := newClock()
	r := NewRing(RingOptions{Clock: c})
	for i := 0; i < RateBurst; i++ {
		mustSend(t, r, SendRequest{From: lead, To: worker, Text: "x"})
	}
	_, err := r.Send(SendRequest{From: lead, To: worker, Text: "x"})
	if code(err) != CodeRateLimited {
		t.Fatalf("11th: %v", err)
	}
	// The hint says when to retry and what the limit is.
	if e := err.(*Error); e.Hint() != "retry in 2 s: a sender may send 10 messages at once and 30 a minute, one more every 2 s" {
		t.Fatalf("11th's hint: %q", e.Hint())
	}
	mustSend(t, r, SendRequest{From: worker, To: lead, Text: "another sender has its own bucket"})
	// A refused send for bad input charges nothing.
	if _, err := r.Send(SendRequest{From: worker, To: lead, Text: "x", ReplyTo: 999}); code(err) != CodeInvalidParams {
		t.Fatal(err)
	}
	c.Advance(1100 * time.Millisecond)
	if _, err := r.Send(SendRequest{From: lead, To: worker, Text: "x"}); code(err) != CodeRateLimited || !strings.HasPrefix(err.(*Error).Hint(), "retry in 1 s:") {
		t.Fatalf("1.1 s later: %v", err)
	}
	c.Advance(800 * time.Millisecond)
	if _, err := r.Send(SendRequest{From: lead, To: worker, Text: "x"}); code(err) != CodeRateLimited {
		t.Fatalf("before the refill: %v", err)
	}
	c.Advance(200 * time.Millisecond)
	mustSend(t, r, SendRequest{From: lead, To: worker, Text: "2 s later"})
}

func TestAskRecords(t *testing.T) {
	r, _, _ := newTestRing(t)
	q := strings.Repeat("q", 200)
	m := r.RecordAsk(AskRecord{From: lead, To: worker, ToLabel: "worker", Question: q, Reply: strings.Repeat("r", 9000) + "END", SettledBy: "idle"})
	if m.Kind != KindAsk || len(m.Subject) != MaxSubjectChars || len(m.Text) != MaxBodyBytes || !strings.HasSuffix(m.Text, "END") || m.Unread() {
		t.Fatalf("ask: %+v", m)
	}
	if res := r.Read(ReadOptions{Inbox: worker}); len(res.Messages) != 1 || res.Messages[0].Kind != KindAsk {
		t.Fatal("the asked pane's inbox read sees the record")
	}
	if res := r.Read(ReadOptions{Inbox: worker, Unread: true}); len(res.Messages) != 0 {
		t.Fatal("an ask record is never unread")
	}
}

func TestAskCycles(t *testing.T) { // A5
	r, _, _ := newTestRing(t)
	done, err := r.OpenAsk(lead, worker)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.OpenAsk(worker, lead)
	var e *Error
	if !errors.As(err, &e) || e.Code() != CodeLoopRefused || !strings.Contains(e.Hint(), "11111111 -> 22222222") {
		t.Fatalf("cycle: %v", err)
	}
	if _, err := r.OpenAsk(lead, lead); code(err) != CodeLoopRefused {
		t.Fatal("self ask")
	}
	done()
	done()
	d2, err := r.OpenAsk(worker, lead)
	if err != nil {
		t.Fatalf("after the first ended: %v", err)
	}
	d2()
}

func TestWaitMatchesMailAlreadyThere(t *testing.T) { // M11
	r, _, _ := newTestRing(t)
	m := mustSend(t, r, SendRequest{From: lead, To: worker, Subject: "s", Text: "before the wait"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	got, err := r.Wait(ctx, WaitOptions{Inbox: worker})
	if err != nil || got.ID != m.ID {
		t.Fatalf("wait: %+v %v", got, err)
	}
}

func TestWaitWakesOnSendAndOnThread(t *testing.T) {
	r, _, _ := newTestRing(t)
	root := mustSend(t, r, SendRequest{From: lead, To: worker, Text: "q"})
	r.Read(ReadOptions{Inbox: worker})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	type out struct {
		m   Message
		err error
	}
	thread, any := make(chan out, 1), make(chan out, 1)
	go func() { m, err := r.Wait(ctx, WaitOptions{Inbox: lead, Thread: root.ID}); thread <- out{m, err} }()
	go func() { m, err := r.Wait(ctx, WaitOptions{}); any <- out{m, err} }()
	waitWaiters(r, 2)
	other := mustSend(t, r, SendRequest{From: worker, To: lead, Text: "not the answer"})
	if o := <-any; o.err != nil || o.m.ID != other.ID {
		t.Fatalf("session wait: %+v", o)
	}
	select {
	case o := <-thread:
		t.Fatalf("thread wait woke on another thread: %+v", o)
	default:
	}
	ans := mustSend(t, r, SendRequest{From: worker, To: lead, Text: "the answer", ReplyTo: root.ID})
	if o := <-thread; o.err != nil || o.m.ID != ans.ID || o.m.Text != "the answer" {
		t.Fatalf("thread wait: %+v", o)
	}
}

// A finished ask leaves a record nobody waits on (seed 002): a wait on
// the whole session, or on the record's own thread, passes over it and
// wakes on the next message said.
func TestWaitSkipsAskRecords(t *testing.T) {
	r, _, _ := newTestRing(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got := make(chan Message, 1)
	go func() { m, _ := r.Wait(ctx, WaitOptions{}); got <- m }()
	waitWaiters(r, 1)
	rec := r.RecordAsk(AskRecord{From: lead, To: worker, ToLabel: "worker", Question: "q?", Reply: "a", SettledBy: "idle"})
	said := mustSend(t, r, SendRequest{From: worker, Text: "a notice after the ask"})
	if m := <-got; m.ID != said.ID {
		t.Fatalf("the session wait woke on %+v, want #%d (the ask record was #%d)", m, said.ID, rec.ID)
	}
	short, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	if m, err := r.Wait(short, WaitOptions{Inbox: worker, Thread: rec.ID}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a wait on the ask's own thread matched %+v %v", m, err)
	}
}

func TestWaitEnds(t *testing.T) {
	r, _, _ := newTestRing(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := r.Wait(ctx, WaitOptions{Inbox: worker}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("timeout: %v", err)
	}
	r.mu.Lock()
	if len(r.waiters) != 0 {
		t.Fatal("a timed-out waiter stayed registered")
	}
	r.mu.Unlock()
	errc := make(chan error, 1)
	go func() { _, err := r.Wait(context.Background(), WaitOptions{Inbox: worker}); errc <- err }()
	waitWaiters(r, 1)
	r.CloseInbox(worker)
	if err := <-errc; code(err) != CodeWindowNotFound {
		t.Fatalf("closed inbox: %v", err)
	}
	go func() { _, err := r.Wait(context.Background(), WaitOptions{}); errc <- err }()
	waitWaiters(r, 1)
	r.Close()
	if err := <-errc; code(err) != CodeSessionNotFound {
		t.Fatalf("closed ring: %v", err)
	}
	if _, err := r.Send(SendRequest{To: worker, Text: "x"}); code(err) != CodeSessionNotFound {
		t.Fatalf("send after close: %v", err)
	}
}

// No lost wake-ups: many senders and waiters racing.
func TestWaitLosesNothing(t *testing.T) {
	r, _, _ := newTestRing(t)
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		inbox := string(rune('a'+i%26)) + strings.Repeat("x", i)
		wg.Add(2)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if _, err := r.Wait(ctx, WaitOptions{Inbox: inbox}); err != nil {
				errs <- err
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := r.Send(SendRequest{To: inbox, Text: "x"}); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestLimitNewestLast(t *testing.T) {
	r, _, _ := newTestRing(t)
	for i := 0; i < 30; i++ {
		mustSend(t, r, SendRequest{To: worker, Text: "x"})
	}
	res := r.Read(ReadOptions{Inbox: worker})
	if len(res.Messages) != DefaultLimit || res.Total != 30 || res.Messages[DefaultLimit-1].ID != 30 || res.Messages[0].ID != 11 {
		t.Fatalf("limit: %d total %d", len(res.Messages), res.Total)
	}
	if r.Unread(worker) != 10 {
		t.Fatal("only what a read returns is marked")
	}
}

// waitWaiters returns once n waits are registered on r (the goroutines
// that call Wait have reached it).
func waitWaiters(r *Ring, n int) {
	for {
		r.mu.Lock()
		k := len(r.waiters)
		r.mu.Unlock()
		if k == n {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
