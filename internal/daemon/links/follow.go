package links

import (
	"bufio"
	"context"
	"io"
	"sync"
	"time"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/alarm"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// Following linked hosts (docs/inbox.md, The Inbox): per configured host,
// while its link is up, the links list the host's own Inbox
// (list-attention with host "local" there, so what that host mirrors is
// never mirrored onward), then subscribe to its attention, agent-state,
// agent-message, session-* and window-created/closed events from the
// listing's seq, and keeps the items in an inbox.Mirror beside the local
// queue: id "HOST:ID", host set, at most 256 per host. When the link drops
// the host's items turn stale (seen_at: the last line heard), stay listed,
// muted, and are not counted; the next listing after the link is back makes
// them fresh. A host whose daemon cannot subscribe from a seq (an older
// build) is listed again every followPoll instead.
//
// Mirrored changes are published as attention events stamped with the
// local queue's seq, under the attention lock, exactly as local ones are:
// a client that lists and then subscribes with after_seq misses neither.

const (
	// followPoll is how often a host too old to subscribe is listed;
	// followPollRail while a client is attached, whose rail shows it.
	followPoll     = 30 * time.Second
	followPollRail = 5 * time.Second
	// followRetry is the pause before following again after the stream
	// broke while the link stayed up (a resync, a garbage line).
	followRetry = time.Second
	// followQueue is the far subscriber's queue: a burst there past it
	// is a gap, and a gap here is a new listing.
	followQueue = 1024
	// followCallWait is how long a far daemon has to answer one call of
	// the follow; past it the stream is closed (the link may be up with
	// a daemon that hangs) and followed again after followRetry.
	followCallWait = 10 * time.Second
)

// followTypes are the far events followed.
var followTypes = []string{"attention", "agent-state", "agent-message", "session-created", "session-closed", "window-created", "window-closed"}

// Follow follows every linked host's Inbox into this machine's: the
// links make it in New when they are given the Inbox (Options.Inbox) and
// start it once the daemon's sessions came back.
type Follow struct {
	ls    *Links
	core  core.Host
	inbox Inbox
	m     *inbox.Mirror

	mu    sync.Mutex
	hosts map[string]*followed
	// open is the links' Open: a new stream to a host's daemon (tests put an
	// older daemon's refusals in front of the real one); pollEvery is
	// followPoll and pollRail followPollRail (tests change them). Read
	// with opener.
	open      func(ctx context.Context, host string) (io.ReadWriteCloser, *proto.Error)
	pollEvery time.Duration
	pollRail  time.Duration
	// sessionsEvery is followSessionsBackstop (tests shorten it); under mu.
	sessionsEvery time.Duration

	alarm alarm.Alarm // the earliest timed snooze of a mirrored item
}

// followed is one host being followed. Fields below mu are guarded by
// Follow.mu.
type followed struct {
	name   string
	ctx    context.Context
	cancel context.CancelFunc
	kick   chan struct{} // a host-changed event: look at the link again; capacity 1
	done   chan struct{} // closed when run returns

	mode     string // "live" (subscribed), "polling", "" (not following)
	note     string // why polling, or why the last attempt failed
	sessions map[string]struct{}
	agents   map[string]farAgent // by the far window id
	stream   io.Closer           // the live stream, closed to end it
}

// farAgent is one cached agent row of a host.
type farAgent struct {
	Session string
	Name    string
	State   string
}

func newFollow(ls *Links, in Inbox) *Follow {
	return &Follow{ls: ls, core: ls.core, inbox: in, m: in.NewMirror(), open: ls.Open, pollEvery: followPoll, pollRail: followPollRail, sessionsEvery: followSessionsBackstop, hosts: map[string]*followed{}}
}

// start follows every configured host and then every host-changed event,
// until the hub closes (the daemon stops).
func (f *Follow) start() {
	sub := f.core.Subscribe(core.Filter{Types: map[string]bool{"host-changed": true, "gap": true}}, 64)
	for _, name := range f.ls.Names() {
		f.ensure(name)
	}
	go func() {
		for ev := range sub.C() {
			switch {
			case ev.Type == "gap":
				for _, name := range f.ls.Names() {
					f.ensure(name)
				}
			case ev.Status == StatusRemoved || f.ls.Status(ev.Host) == "":
				f.remove(ev.Host)
			default:
				f.ensure(ev.Host)
			}
		}
		f.stopAll()
	}()
}

// ensure starts following host if it is not followed yet, and tells a
// follower that the link changed.
func (f *Follow) ensure(host string) {
	if host == "" {
		return
	}
	f.mu.Lock()
	h := f.hosts[host]
	if h == nil {
		ctx, cancel := context.WithCancel(context.Background())
		h = &followed{name: host, ctx: ctx, cancel: cancel, kick: make(chan struct{}, 1), done: make(chan struct{}),
			sessions: map[string]struct{}{}, agents: map[string]farAgent{}}
		f.hosts[host] = h
		go f.run(h)
	}
	f.mu.Unlock()
	select {
	case h.kick <- struct{}{}:
	default:
	}
	if f.ls.Status(host) != StatusUp {
		f.endStream(h) // the link is gone: do not wait for the read to fail
	}
}

// remove stops following host and closes its items (host_removed).
func (f *Follow) remove(host string) {
	f.mu.Lock()
	h := f.hosts[host]
	delete(f.hosts, host)
	f.mu.Unlock()
	if h != nil {
		h.cancel()
		f.endStream(h)
		// Its follower must be gone before the items close, or a last
		// Down of it would bring the host back as a stale ghost. Every
		// wait of run ends with the context (a call's read with the
		// stream closed under it).
		<-h.done
	}
	f.do(func() []inbox.Event { return f.m.Remove(host) })
	f.layoutChanged()
}

func (f *Follow) stopAll() {
	f.mu.Lock()
	hs := f.hosts
	f.hosts = map[string]*followed{}
	f.mu.Unlock()
	for _, h := range hs {
		h.cancel()
		f.endStream(h)
	}
}

func (f *Follow) endStream(h *followed) {
	f.mu.Lock()
	c := h.stream
	h.stream = nil
	f.mu.Unlock()
	if c != nil {
		c.Close()
	}
}

// opener is how streams are opened and how often a host is polled:
// every, and rail while a client is attached.
func (f *Follow) opener() (open func(context.Context, string) (io.ReadWriteCloser, *proto.Error), every, rail time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.open, f.pollEvery, f.pollRail
}

func (f *Follow) setMode(h *followed, mode, note string) {
	f.mu.Lock()
	h.mode, h.note = mode, note
	f.mu.Unlock()
}

// run is one host's follower: while the link is up it follows; when it
// is not, the host's items are stale and it waits for a host-changed.
func (f *Follow) run(h *followed) {
	defer close(h.done)
	for {
		if h.ctx.Err() != nil {
			return
		}
		select {
		case <-f.core.Done():
			return
		default:
		}
		if f.ls.Status(h.name) == StatusUp {
			poll := f.follow(h)
			if h.ctx.Err() != nil {
				return
			}
			if poll {
				f.poll(h)
				continue
			}
			f.down(h)
			// A stream that broke with the link still up (a resync, a
			// garbage line) is followed again after a pause; a link
			// that dropped waits for its host-changed.
			if f.ls.Status(h.name) == StatusUp && !f.pause(h, followRetry) {
				return
			}
			continue
		}
		f.down(h)
		select {
		case <-h.kick:
		case <-h.ctx.Done():
			return
		case <-f.core.Done():
			return
		}
	}
}

// pause waits d (on the daemon's clock), or until the follower ends.
func (f *Follow) pause(h *followed, d time.Duration) bool {
	fire := make(chan struct{})
	t := f.core.Clock().AfterFunc(d, func() { close(fire) })
	defer t.Stop()
	select {
	case <-fire:
		return true
	case <-h.ctx.Done():
		return false
	case <-f.core.Done():
		return false
	}
}

// down marks the host's items stale.
func (f *Follow) down(h *followed) {
	f.mu.Lock()
	h.mode = "" // the note stays: why the last attempt failed
	f.mu.Unlock()
	f.do(func() []inbox.Event { return f.m.Down(h.name) })
	f.layoutChanged()
}

// layoutChanged redraws the attached clients' rails: a host's header
// changes (stale, fresh) even when it has no items to publish.
func (f *Follow) layoutChanged() { f.core.RailChanged() }

// follow lists the host's Inbox and agents, subscribes from the
// listing's seq and applies the events until the stream ends. It reports
// true when the host cannot subscribe from a seq and must be polled.
func (f *Follow) follow(h *followed) (poll bool) {
	open, every, rail := f.opener()
	rw, perr := open(h.ctx, h.name)
	if perr != nil {
		f.setMode(h, "", perr.Message)
		return false
	}
	f.mu.Lock()
	if h.ctx.Err() != nil {
		f.mu.Unlock()
		rw.Close()
		return false
	}
	h.stream = rw
	f.mu.Unlock()
	defer f.endStream(h)
	st := &followStream{w: rw, r: bufio.NewReaderSize(rw, 64<<10)}

	var l farListing
	if err := st.call("list-attention", map[string]any{"host": "local"}, &l); err != nil {
		f.setMode(h, "", err.Message)
		return false
	}
	var agents farAgents
	if err := st.call("list-agents", map[string]any{}, &agents); err == nil {
		f.seedCache(h, agents.Agents)
	}
	f.seedSessions(h, st) // follow_sessions.go: for the rail
	f.do(func() []inbox.Event { return f.m.Sync(h.name, l.BootID, l.Items) })
	f.layoutChanged()

	var sub struct {
		Resync bool `json:"resync"`
	}
	err := st.call("subscribe", map[string]any{"types": followTypes, "after_seq": l.Seq, "boot_id": l.BootID, "queue": followQueue}, &sub)
	switch {
	case err != nil && (err.Code == proto.CodeUnknownVerb || err.Code == proto.CodeInvalidParams):
		f.setMode(h, "polling", "the host's tuios cannot subscribe from a seq: listed every "+rail.String()+" while a client is attached, "+every.String()+" otherwise")
		return true
	case err != nil:
		f.setMode(h, "", err.Message)
		return false
	case sub.Resync:
		return false // it changed between the two calls: list again
	}
	f.setMode(h, "live", "")
	backstop, stop := context.WithCancel(h.ctx)
	defer stop()
	go f.sessionsBackstop(backstop, h) // follow_sessions.go
	for {
		line, rerr := proto.ReadLine(st.r, inbox.MaxHostLine)
		if rerr != nil {
			// A line over the cap was skipped: an event may be lost,
			// so list again; anything else ends the stream.
			return false
		}
		f.m.Heard(h.name)
		if !f.apply(h, line) {
			return false
		}
	}
}

// apply takes one event line of a host; false ends the stream (a gap or
// a line that is not an event: list again).
func (f *Follow) apply(h *followed, line []byte) bool {
	ev, ok := parseFarEvent(line)
	if !ok {
		return false
	}
	switch ev.Type {
	case "gap":
		return false
	case "attention":
		if ev.Item != nil {
			it := *ev.Item
			f.do(func() []inbox.Event { return f.m.Apply(h.name, inbox.Op(ev.Op), it) })
		}
	case "agent-state":
		f.cacheAgent(h, ev.Window, farAgent{Session: ev.Session, State: ev.State})
	case "window-created":
		f.cacheAgent(h, ev.Window, farAgent{Session: ev.Session})
	case "window-closed":
		f.mu.Lock()
		delete(h.agents, ev.Window)
		f.mu.Unlock()
	case "session-created":
		f.mu.Lock()
		if len(h.sessions) < inbox.MaxHostSessions && ev.Session != "" {
			h.sessions[ev.Session] = struct{}{}
		}
		f.mu.Unlock()
		f.layoutChanged() // the rail lists the host's sessions
	case "session-closed":
		f.mu.Lock()
		delete(h.sessions, ev.Session)
		for id, a := range h.agents {
			if a.Session == ev.Session {
				delete(h.agents, id)
			}
		}
		f.mu.Unlock()
		f.layoutChanged()
	}
	return true
}

func (f *Follow) cacheAgent(h *followed, window string, a farAgent) {
	if window == "" || len(window) > 256 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	old, had := h.agents[window]
	if !had && len(h.agents) >= inbox.MaxHostAgents {
		return
	}
	if a.State == "" {
		a.State = old.State
	}
	if a.Name == "" {
		a.Name = old.Name
	}
	h.agents[window] = a
	if a.Session != "" && len(h.sessions) < inbox.MaxHostSessions {
		h.sessions[a.Session] = struct{}{}
	}
}

// seedCache replaces a host's cached agents with a fresh list-agents.
func (f *Follow) seedCache(h *followed, rows []farAgentRow) {
	f.mu.Lock()
	h.agents = map[string]farAgent{}
	h.sessions = map[string]struct{}{}
	f.mu.Unlock()
	for _, r := range rows {
		f.cacheAgent(h, r.WindowID, farAgent{Session: r.Session, Name: r.Name, State: r.State})
	}
}

// poll lists a host too old to subscribe while its link is up, each
// time on a stream of its own: every pollRail while a client is attached
// (its rail shows the host), else every pollEvery. It wakes each
// pollRail to look, so a client that attaches is served within one.
func (f *Follow) poll(h *followed) {
	var listed time.Time
	for f.ls.Status(h.name) == StatusUp {
		_, every, rail := f.opener()
		if f.core.Attached() > 0 || listed.IsZero() || f.core.Clock().Now().Sub(listed) >= every {
			listed = f.core.Clock().Now()
			var l farListing
			if err := f.listFar(h, &l); err == nil {
				f.m.Heard(h.name)
				f.do(func() []inbox.Event { return f.m.Sync(h.name, l.BootID, l.Items) })
				f.layoutChanged()
			}
		}
		if !f.pause(h, min(every, rail)) {
			return
		}
	}
}

// listFar reads the host's own Inbox on a new stream: list-attention with
// host local, or without it for a daemon older still.
func (f *Follow) listFar(h *followed, l *farListing) *proto.Error {
	open, _, _ := f.opener()
	rw, err := open(h.ctx, h.name)
	if err != nil {
		return err
	}
	defer rw.Close()
	st := &followStream{w: rw, r: bufio.NewReaderSize(rw, 64<<10)}
	err = st.call("list-attention", map[string]any{"host": "local"}, l)
	if err != nil && err.Code == proto.CodeInvalidParams {
		err = st.call("list-attention", map[string]any{}, l)
	}
	return err
}

// ---- publishing, and the snooze timer of mirrored items ----

// do runs a mirror call and publishes its events as attention events,
// under the attention lock so they take their place in seq order, then
// re-arms the snooze timer.
func (f *Follow) do(fn func() []inbox.Event) {
	if evs := f.inbox.DoMirrored(fn); len(evs) > 0 {
		f.rearm()
	}
}

// doErr is do for a call that can be refused.
func (f *Follow) doErr(fn func() ([]inbox.Event, error)) error {
	var err error
	f.do(func() []inbox.Event {
		var evs []inbox.Event
		evs, err = fn()
		return evs
	})
	return err
}

// rearm keeps one timer for the earliest timed snooze of a mirrored item.
func (f *Follow) rearm() {
	f.alarm.Rearm(f.core.Clock(), f.m.NextWake, func() {
		f.do(func() []inbox.Event { return f.m.Tick(f.core.Clock().Now()) })
		f.rearm()
	})
}
