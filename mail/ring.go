package mail

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// RingOptions configure a Ring.
type RingOptions struct {
	// Session is the session's name, copied into every message.
	Session string
	// IDs is the daemon's id counter; nil gives the ring its own.
	IDs *Counter
	// Clock stamps sent_at and read_at and refills rate buckets; nil is
	// RealClock.
	Clock Clock
	// Stat checks attachment paths; nil is os.Stat.
	Stat func(path string) (fs.FileInfo, error)
	// Stash is the session's stash, if any: a path inside it reads back
	// Stashed, and the ring tells it which files messages still name.
	Stash *Stash
	// RateBurst and RatePerMinute shape each sender's bucket; 0 takes
	// RateBurst and RatePerMinute, a negative RateBurst turns the limit off.
	RateBurst     int
	RatePerMinute int
}

// Ring is one session's mail. It is safe for concurrent use.
type Ring struct {
	opt RingOptions

	mu          sync.Mutex
	msgs        []*Message // oldest first, ids increasing
	bytes       int
	evicted     uint64 // messages evicted, ever
	lastEvicted uint64 // the highest id evicted
	buckets     map[string]*bucket
	waiters     []*waiter
	asks        []AskEdge
	closed      bool
}

type bucket struct {
	tokens float64
	at     time.Time
}

// AskEdge is an ask-agent in flight, from one pane to another.
type AskEdge struct{ From, To string }

// NewRing makes an empty ring.
func NewRing(opt RingOptions) *Ring {
	if opt.IDs == nil {
		opt.IDs = &Counter{}
	}
	if opt.Clock == nil {
		opt.Clock = RealClock{}
	}
	if opt.Stat == nil {
		opt.Stat = os.Stat
	}
	if opt.RateBurst == 0 {
		opt.RateBurst = RateBurst
	}
	if opt.RatePerMinute <= 0 {
		opt.RatePerMinute = RatePerMinute
	}
	r := &Ring{opt: opt, buckets: map[string]*bucket{}}
	if opt.Stash != nil {
		opt.Stash.referenced = r.Referenced
	}
	return r
}

// Stash is the session's stash, nil when the ring has none.
func (r *Ring) Stash() *Stash { return r.opt.Stash }

// SendRequest is one message to store.
type SendRequest struct {
	From      string // the sender: a window id, Human, or "" (anonymous)
	FromLabel string // a printable label for the sender; never resolved
	To        string // a window id, Human, or "" for a notice
	ToLabel   string
	Subject   string
	Text      string
	ReplyTo   uint64
	// Attachments are absolute paths of files that exist now.
	Attachments []string
	// Origin is OriginLink for a message from another machine (set from
	// the connection, never from the request); OriginHost is its claim.
	Origin        string
	OriginHost    string
	VerifiedHuman bool
	ClaimedHuman  bool
	// Held stores the message to Human (To must be Human) for the person
	// to pass on to HeldFor ("" for a notice) with Release.
	Held         bool
	HeldFor      string
	HeldForLabel string
	// RateKey names the sender's rate bucket by what the sender cannot
	// choose (the caller's pane, or "outside" for every caller outside a
	// pane), so rotating a label does not buy a fresh bucket. Empty keys
	// the bucket on From, else on FromLabel.
	RateKey string
}

// Send validates and stores a message and returns it as stored. Checks
// run in this order: text, subject, attachment count, reply_to,
// self-send, attachment paths, the sender's rate bucket, link caps. A
// refused send stores nothing and (before the bucket) charges nothing.
func (r *Ring) Send(req SendRequest) (Message, error) {
	if strings.TrimSpace(req.Text) == "" {
		return Message{}, errorf(CodeInvalidParams, "text", "say something: the text is the message", "the message text is blank")
	}
	if len(req.Text) > MaxBodyBytes {
		return Message{}, errorf(CodeInvalidParams, "text", "put the rest in a file and attach it", "the text is %d bytes, over the %d-byte cap", len(req.Text), MaxBodyBytes)
	}
	if n := utf8.RuneCountInString(req.Subject); n > MaxSubjectChars {
		return Message{}, errorf(CodeInvalidParams, "subject", "shorten the subject; the body carries the detail", "the subject is %d characters, over the %d-character cap", n, MaxSubjectChars)
	}
	if len(req.Attachments) > MaxAttachments {
		return Message{}, errorf(CodeInvalidParams, "attachments", "stash the files and send fewer, or send several messages", "%d attachments, over the cap of %d", len(req.Attachments), MaxAttachments)
	}
	if len(req.OriginHost) > MaxOriginHost {
		req.OriginHost = truncBytes(req.OriginHost, MaxOriginHost)
	}
	if req.From != "" && req.From == req.To {
		return Message{}, errorf(CodeLoopRefused, "to", "send it to another inbox; write a note to yourself elsewhere", "a pane cannot message itself")
	}
	var atts []Attachment
	for _, p := range req.Attachments {
		a, err := r.attachment(p)
		if err != nil {
			return Message{}, err
		}
		atts = append(atts, a)
	}
	now := r.opt.Clock.Now()

	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return Message{}, errClosed()
	}
	thread, missing, err := r.threadFor(req.ReplyTo)
	if err != nil {
		return Message{}, err
	}
	if wait, ok := r.charge(bucketKey(req), now); !ok {
		return Message{}, errorf(CodeRateLimited, "", fmt.Sprintf("retry in %d s: a sender may send %d messages at once and %d a minute, one more every %s",
			wholeSeconds(wait), r.opt.RateBurst, r.opt.RatePerMinute, refillText(r.opt.RatePerMinute)), "this sender is over its rate limit")
	}
	if req.Origin == OriginLink {
		if req.To == "" && r.countLink(false) >= MaxLinkNotices {
			return Message{}, errorf(CodeRateLimited, "", "wait until someone here reads", "this session holds %d notices from other machines", MaxLinkNotices)
		}
		if req.To != "" && r.countLink(true) >= MaxLinkUnread {
			return Message{}, errorf(CodeRateLimited, "", "wait until someone here reads", "this session holds %d unread messages from other machines", MaxLinkUnread)
		}
	}
	m := &Message{
		ID: r.opt.IDs.Next(), Kind: KindMessage, Session: r.opt.Session,
		From: req.From, FromLabel: req.FromLabel, To: req.To, ToLabel: req.ToLabel,
		Subject: req.Subject, Text: req.Text, ReplyTo: req.ReplyTo, ReplyToMissing: missing,
		Attachments: atts, SentAt: now.UnixNano(), Origin: req.Origin, OriginHost: req.OriginHost,
		VerifiedHuman: req.VerifiedHuman, ClaimedHuman: req.ClaimedHuman && !req.VerifiedHuman,
	}
	if req.Held && req.To == Human {
		m.Held, m.HeldFor, m.HeldForLabel = true, req.HeldFor, req.HeldForLabel
	}
	if req.To == "" {
		m.Kind = KindNotice
	}
	m.ThreadID = thread
	if thread == 0 {
		m.ThreadID = m.ID
	}
	r.store(m)
	return r.copyOf(m, false), nil
}

// attachment checks one path at send time.
func (r *Ring) attachment(p string) (Attachment, error) {
	if !filepath.IsAbs(p) {
		return Attachment{}, errorf(CodeInvalidParams, "attachments", "give the absolute path, e.g. $PWD/"+p, "the attachment %q is not an absolute path", p)
	}
	p = filepath.Clean(p)
	fi, err := r.opt.Stat(p)
	if err != nil {
		return Attachment{}, errorf(CodeInvalidParams, "attachments", "attach a file that exists now", "the attachment %q does not exist", p)
	}
	if fi.IsDir() {
		return Attachment{}, errorf(CodeInvalidParams, "attachments", "attach files, not directories", "the attachment %q is a directory", p)
	}
	kind, mt := classify(p)
	return Attachment{Kind: kind, Path: p, MediaType: mt, Bytes: fi.Size(), Stashed: r.opt.Stash.Holds(p)}, nil
}

// threadFor applies the threading rules to a reply_to. Called with r.mu
// held.
func (r *Ring) threadFor(replyTo uint64) (thread uint64, missing bool, err error) {
	if replyTo == 0 {
		return 0, false, nil
	}
	if replyTo > r.opt.IDs.Last() {
		return 0, false, errorf(CodeInvalidParams, "reply_to", "check the id: read-agent-messages lists them", "message %d was never sent (the newest id is %d)", replyTo, r.opt.IDs.Last())
	}
	if p := r.find(replyTo); p != nil {
		return p.ThreadID, false, nil
	}
	if replyTo <= r.lastEvicted {
		return replyTo, true, nil
	}
	return 0, false, errorf(CodeInvalidParams, "reply_to", "thread ids mean something only in their own session", "message %d is not in this session", replyTo)
}

func bucketKey(req SendRequest) string {
	switch {
	case req.RateKey != "":
		return "key:" + req.RateKey
	case req.Origin == OriginLink:
		return "link:" + req.OriginHost + ":" + req.FromLabel
	case req.From != "":
		return "id:" + req.From
	case req.FromLabel != "":
		return "label:" + req.FromLabel
	}
	return ""
}

// charge takes a token from the sender's bucket, or says how long until
// the bucket holds one again. Called with r.mu held.
func (r *Ring) charge(key string, now time.Time) (time.Duration, bool) {
	if r.opt.RateBurst < 0 {
		return 0, true
	}
	burst := float64(r.opt.RateBurst)
	b := r.buckets[key]
	if b == nil {
		if len(r.buckets) >= 256 { // forget senders whose bucket is full again
			for k, x := range r.buckets {
				if x.tokens+now.Sub(x.at).Minutes()*float64(r.opt.RatePerMinute) >= burst {
					delete(r.buckets, k)
				}
			}
		}
		b = &bucket{tokens: burst, at: now}
		r.buckets[key] = b
	}
	if el := now.Sub(b.at); el > 0 {
		b.tokens = min(burst, b.tokens+el.Minutes()*float64(r.opt.RatePerMinute))
		b.at = now
	}
	if b.tokens < 1 {
		return time.Duration((1 - b.tokens) / float64(r.opt.RatePerMinute) * float64(time.Minute)), false
	}
	b.tokens--
	return 0, true
}

// wholeSeconds is d in seconds, rounded up, at least 1.
func wholeSeconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}

// refillText is how often a bucket that refills perMinute times a minute
// gains one message: "2 s".
func refillText(perMinute int) string {
	return strconv.FormatFloat(60/float64(perMinute), 'f', -1, 64) + " s"
}

// countLink counts link mail: unread directed messages, or notices.
func (r *Ring) countLink(directed bool) int {
	n := 0
	for _, m := range r.msgs {
		if m.Origin != OriginLink {
			continue
		}
		if directed && m.Unread() || !directed && m.Kind == KindNotice {
			n++
		}
	}
	return n
}

// store appends m, evicts until both caps hold and wakes waiters. Called
// with r.mu held.
func (r *Ring) store(m *Message) {
	r.msgs = append(r.msgs, m)
	r.bytes += m.size()
	for len(r.msgs) > MaxMessages || r.bytes > MaxRingBytes {
		old := r.msgs[0]
		r.msgs[0] = nil
		r.msgs = r.msgs[1:]
		r.bytes -= old.size()
		r.evicted++
		r.lastEvicted = max(r.lastEvicted, old.ID)
	}
	if cap(r.msgs) > 4*MaxMessages && len(r.msgs) < cap(r.msgs)/4 {
		r.msgs = append(make([]*Message, 0, 2*MaxMessages), r.msgs...)
	}
	keep := r.waiters[:0]
	for _, w := range r.waiters {
		if w.matches(m) {
			w.finish(r.copyOf(m, false), nil)
			continue
		}
		keep = append(keep, w)
	}
	for i := len(keep); i < len(r.waiters); i++ {
		r.waiters[i] = nil
	}
	r.waiters = keep
}

// find is the held message with id, or nil. Called with r.mu held.
func (r *Ring) find(id uint64) *Message {
	i := sort.Search(len(r.msgs), func(i int) bool { return r.msgs[i].ID >= id })
	if i < len(r.msgs) && r.msgs[i].ID == id {
		return r.msgs[i]
	}
	return nil
}

// copyOf is m as a caller sees it; withStat resolves Missing.
func (r *Ring) copyOf(m *Message, withStat bool) Message {
	c := *m
	c.Attachments = make([]Attachment, len(m.Attachments))
	copy(c.Attachments, m.Attachments)
	if withStat {
		for i := range c.Attachments {
			if _, err := r.opt.Stat(c.Attachments[i].Path); err != nil {
				c.Attachments[i].Missing = true
			}
		}
	}
	return c
}

// ResolveThread is the thread an id belongs to: a held message's thread,
// else the id itself.
func (r *Ring) ResolveThread(id uint64) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.resolveThread(id)
}

func (r *Ring) resolveThread(id uint64) uint64 {
	if m := r.find(id); m != nil {
		return m.ThreadID
	}
	return id
}

// ReadOptions select what a read returns.
type ReadOptions struct {
	// Inbox names whose mail to read (a window id or Human). A read that
	// names one marks what it returns as read, unless Peek.
	Inbox   string
	Unread  bool   // only unread directed messages
	Notices bool   // with Inbox: include notices
	Peek    bool   // mark nothing
	Thread  uint64 // any id in the thread; 0 for every thread
	Limit   int    // newest N, oldest first; 0 is DefaultLimit, <0 all
}

// ReadResult is a read's answer.
type ReadResult struct {
	Inbox    string
	Thread   uint64 // the resolved thread, 0 when none was asked for
	Messages []Message
	Unread   int    // returned messages that were unread when the read began
	Total    int    // messages that matched, before Limit
	Evicted  uint64 // messages the ring has evicted, ever
}

// Read returns messages, oldest first (the newest Limit of those that
// match), marking them read as ReadOptions says.
func (r *Ring) Read(opt ReadOptions) ReadResult {
	now := r.opt.Clock.Now()
	r.mu.Lock()
	res := ReadResult{Inbox: opt.Inbox, Evicted: r.evicted}
	if opt.Thread != 0 {
		res.Thread = r.resolveThread(opt.Thread)
	}
	var hits []*Message
	for _, m := range r.msgs {
		if res.Thread != 0 && m.ThreadID != res.Thread {
			continue
		}
		if opt.Unread && !m.Unread() {
			continue
		}
		if opt.Inbox != "" {
			switch m.Kind {
			case KindMessage, KindAsk:
				if m.To != opt.Inbox {
					continue
				}
			case KindNotice:
				if !opt.Notices {
					continue
				}
			}
		}
		hits = append(hits, m)
	}
	res.Total = len(hits)
	limit := opt.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	if limit > 0 && len(hits) > limit {
		hits = hits[len(hits)-limit:]
	}
	res.Messages = make([]Message, 0, len(hits))
	mark := opt.Inbox != "" && !opt.Peek
	for _, m := range hits {
		if m.Unread() {
			res.Unread++
		}
		c := r.copyOf(m, false)
		if mark && m.Kind == KindMessage && m.To == opt.Inbox && m.ReadAt == 0 {
			m.ReadAt = now.UnixNano()
			c.ReadAt, c.WasUnread = m.ReadAt, true
		}
		res.Messages = append(res.Messages, c)
	}
	r.mu.Unlock()
	for i := range res.Messages { // stat outside the lock
		for j := range res.Messages[i].Attachments {
			if _, err := r.opt.Stat(res.Messages[i].Attachments[j].Path); err != nil {
				res.Messages[i].Attachments[j].Missing = true
			}
		}
	}
	return res
}

// Unread counts the unread directed messages in an inbox.
func (r *Ring) Unread(inbox string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, m := range r.msgs {
		if m.To == inbox && m.Unread() {
			n++
		}
	}
	return n
}

// Stats are a ring's counts.
type Stats struct {
	Messages int
	Bytes    int
	Evicted  uint64
}

// Stats reports what the ring holds.
func (r *Ring) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return Stats{Messages: len(r.msgs), Bytes: r.bytes, Evicted: r.evicted}
}

// CloseInbox marks every message addressed to a window that closed as
// undeliverable and ends waits on that inbox.
func (r *Ring) CloseInbox(inbox string) {
	if inbox == "" || inbox == Human {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.msgs {
		if m.To == inbox && m.Kind == KindMessage {
			m.Undeliverable = true
		}
	}
	keep := r.waiters[:0]
	for _, w := range r.waiters {
		if w.inbox == inbox {
			w.finish(Message{}, errorf(CodeWindowNotFound, "window", "", "the window closed while its inbox was waited on"))
			continue
		}
		keep = append(keep, w)
	}
	r.waiters = keep
}

// Referenced reports whether a message in the ring names path as an
// attachment.
func (r *Ring) Referenced(path string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.msgs {
		for _, a := range m.Attachments {
			if a.Path == path {
				return true
			}
		}
	}
	return false
}

// Close ends the ring with its session: waits fail, sends are refused and
// the stash is deleted.
func (r *Ring) Close() error {
	r.mu.Lock()
	r.closed = true
	for _, w := range r.waiters {
		w.finish(Message{}, errClosed())
	}
	r.waiters = nil
	r.mu.Unlock()
	if r.opt.Stash != nil {
		return r.opt.Stash.Remove()
	}
	return nil
}

func errClosed() *Error {
	return errorf(CodeSessionNotFound, "session", "", "the session closed")
}

// AskRecord is a finished ask-agent to keep in the ring.
type AskRecord struct {
	From, FromLabel, To, ToLabel string
	Question, Reply, SettledBy   string
}

// RecordAsk stores a kind "ask" record: the question (cut to
// MaxSubjectChars) as its subject, the reply (cut to MaxBodyBytes, keeping
// the end) as its text. It is never unread and nothing waits on it.
func (r *Ring) RecordAsk(a AskRecord) Message {
	q := a.Question
	if utf8.RuneCountInString(q) > MaxSubjectChars {
		q = string([]rune(q)[:MaxSubjectChars])
	}
	reply := a.Reply
	if len(reply) > MaxBodyBytes {
		reply = reply[len(reply)-MaxBodyBytes:]
		for len(reply) > 0 && !utf8.RuneStart(reply[0]) {
			reply = reply[1:]
		}
	}
	now := r.opt.Clock.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	m := &Message{ID: r.opt.IDs.Next(), Kind: KindAsk, Session: r.opt.Session, From: a.From, FromLabel: a.FromLabel,
		To: a.To, ToLabel: a.ToLabel, Subject: q, Text: reply, SettledBy: a.SettledBy, SentAt: now.UnixNano(), ReadAt: now.UnixNano()}
	m.ThreadID = m.ID
	if !r.closed {
		r.store(m)
	}
	return r.copyOf(m, false)
}

// OpenAsk records an ask in flight from one pane to another and returns
// the function that ends it. An ask that would close a cycle of asks in
// flight is refused with CodeLoopRefused, its hint listing the open edges
// "src -> dst" by 8-character id. An empty from (a caller outside every
// pane) cannot close a cycle and is not recorded.
func (r *Ring) OpenAsk(from, to string) (done func(), err error) {
	if from == "" {
		return func() {}, nil
	}
	if from == to {
		return nil, errorf(CodeLoopRefused, "window", "ask another pane", "a pane cannot ask itself")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	// Is from reachable from to along open edges?
	seen := map[string]bool{to: true}
	queue := []string{to}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range r.asks {
			if e.From == n && !seen[e.To] {
				if e.To == from {
					var edges []string
					for _, x := range r.asks {
						edges = append(edges, short(x.From)+" -> "+short(x.To))
					}
					return nil, errorf(CodeLoopRefused, "window", "open asks: "+strings.Join(edges, ", "),
						"asking %s would close a cycle of asks in flight", short(to))
				}
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	edge := AskEdge{From: from, To: to}
	r.asks = append(r.asks, edge)
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			for i, e := range r.asks {
				if e == edge {
					r.asks = append(r.asks[:i], r.asks[i+1:]...)
					break
				}
			}
		})
	}, nil
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func truncBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// WaitOptions say what a wait matches.
type WaitOptions struct {
	// Inbox: match the first unread directed message to it, mail already
	// there included. Empty: match any message stored after the wait began.
	Inbox string
	// Thread narrows either form to one thread (any id in it).
	Thread uint64
}

type waiter struct {
	inbox  string
	thread uint64
	after  uint64
	done   chan struct{}
	msg    Message
	err    error
}

func (w *waiter) matches(m *Message) bool {
	if m.Kind == KindAsk {
		return false // the record of an ask is for the person to see; nothing waits on it
	}
	if w.thread != 0 && m.ThreadID != w.thread {
		return false
	}
	if w.inbox != "" {
		return m.To == w.inbox && m.Unread()
	}
	return m.ID > w.after
}

func (w *waiter) finish(m Message, err error) {
	w.msg, w.err = m, err
	close(w.done)
}

// Wait blocks until a message matches and returns it. The check of what
// is already held and the registration happen under one lock, so a
// message sent between them cannot be missed. It returns ctx's error when
// ctx ends, an *Error with CodeWindowNotFound when the inbox's window
// closes and one with CodeSessionNotFound when the ring closes.
func (r *Ring) Wait(ctx context.Context, opt WaitOptions) (Message, error) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return Message{}, errClosed()
	}
	w := &waiter{inbox: opt.Inbox, after: r.opt.IDs.Last(), done: make(chan struct{})}
	if opt.Thread != 0 {
		w.thread = r.resolveThread(opt.Thread)
	}
	if w.inbox != "" {
		for _, m := range r.msgs {
			if w.matches(m) {
				c := r.copyOf(m, false)
				r.mu.Unlock()
				return c, nil
			}
		}
	}
	r.waiters = append(r.waiters, w)
	r.mu.Unlock()

	select {
	case <-w.done:
		return w.msg, w.err
	case <-ctx.Done():
		r.mu.Lock()
		defer r.mu.Unlock()
		select {
		case <-w.done: // matched while we took the lock
			return w.msg, w.err
		default:
		}
		for i, x := range r.waiters {
			if x == w {
				r.waiters = append(r.waiters[:i], r.waiters[i+1:]...)
				break
			}
		}
		return Message{}, ctx.Err()
	}
}
