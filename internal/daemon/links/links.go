package links

import (
	"context"
	"errors"
	"os"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/safetext"
	"github.com/tuios/tuios/internal/version"
)

// The link states, as list-hosts, tuios hosts and host-changed events name
// them (docs/hosts.md): scripts match these words, so a rename breaks them.
const (
	StatusUp           = "up"           // the far daemon answers
	StatusConnecting   = "connecting"   // the first attempt is under way
	StatusReconnecting = "reconnecting" // it dropped; the first redial is under way
	StatusNoDaemon     = "no_daemon"    // the machine answers, no daemon there
	StatusNoTuios      = "no_tuios"     // no tuios where the link looked
	StatusUnreachable  = "unreachable"  // the last attempt failed (reason says why)
	StatusIncompatible = "incompatible" // another control protocol
	// StatusRemoved is only ever in a host-changed event: the host left
	// the config file and its link is closed.
	StatusRemoved = "removed"
)

// The redial schedule: a link that drops is redialled at once; each
// failed attempt then waits twice as long as the one before, from
// redialFirst up to redialMax, until one succeeds.
const (
	redialFirst = time.Second
	redialMax   = 30 * time.Second
	// idleStreams is how many channels a host keeps open between
	// Call calls, so a call does not start a far process each time.
	idleStreams = 4
)

// Links holds one ssh link per configured host, which every call to that
// host goes over. Each host has a goroutine that dials, waits for the link
// to end and redials; the state it records is what list-hosts shows.
// Nothing here takes a lock of the core, and no ssh I/O happens under
// Links.mu.
type Links struct {
	core core.Host
	opt  Options
	// outbox keeps mail for a host whose link is down (outbox.go).
	outbox *Outbox
	// rows are each host's Inbox row (inbox_rows.go); follow mirrors
	// the hosts' Inboxes (follow.go; nil without Options.Inbox).
	rows   inboxRows
	follow *Follow

	mu      sync.Mutex
	hosts   map[string]*hostLink
	refused map[string]refusedHost // rows never dialled, and why
	started bool
	closed  bool
	wg      sync.WaitGroup
	// conns are the open host connections (open-host-connection), by host.
	conns map[*Conn]string
	// poolOff: open-host-connection opens a channel of its own every
	// time (TUIOS_HOST_POOL=off; pool.go).
	poolOff bool
	// opens counts the channels opened on every link (the cost the pool
	// saves: one far stdio-proxy each).
	opens atomic.Int64
}

// Options are what the links need of the daemon beyond core.Host: hooks
// into what stays in the core.
type Options struct {
	// Getenv reads the daemon's environment (HOME and SSH_AUTH_SOCK for
	// the dial, TUIOS_HOST_POOL); nil is os.Getenv.
	Getenv func(string) string
	// Poolable says whether a channel that carried verb (and got its
	// answer) may serve another client: the verb table's declaration
	// says the verb answers once and keeps nothing on the connection.
	Poolable func(verb string) bool
	// Inbox is this machine's Inbox: each host's "Waiting to send" row
	// goes there after every change of the outbox or of the host's
	// problem (inbox_rows.go), and the follow of the hosts' own Inboxes
	// mirrors their items beside the local ones (follow.go). nil: no
	// rows and no follow.
	Inbox Inbox
}

// refusedHost is a [hosts.NAME] table dropped for a setting a link will
// not use (an option that runs a command, an addr starting with '-').
type refusedHost struct {
	addr   string
	reason string
	code   string
	hint   string
	since  time.Time
}

// hostLink is one host's link and its state. Fields below mu are guarded
// by Links.mu.
type hostLink struct {
	ls     *Links
	name   string
	cfg    hosts.Host
	ctx    context.Context // ends the host's goroutine and its dial
	cancel context.CancelFunc
	wake   chan struct{} // the backoff timer's signal; capacity 1

	status, reason, code, hint string
	since                      time.Time
	attempts                   int       // failed attempts since the link was last up
	retryAt                    time.Time // when the next attempt starts (zero: none waits)
	link                       *hosts.Link
	idle                       []*farStream
	// pool is the idle channels kept for open-host-connection, and
	// warming is set while one is opened ahead of use (pool.go).
	pool    []*farChan
	warming chan struct{} // closed when the warming ends
}

// New makes the links to the hosts of the daemon's config file (none is
// dialled before Start; as a feature, Init adds the links' verbs and
// starts them once the daemon's sessions are back).
func New(h core.Host, opt Options) *Links {
	if opt.Getenv == nil {
		opt.Getenv = os.Getenv
	}
	if opt.Poolable == nil {
		opt.Poolable = func(string) bool { return false }
	}
	ls := &Links{core: h, opt: opt, hosts: map[string]*hostLink{}, refused: map[string]refusedHost{}, conns: map[*Conn]string{}, poolOff: poolOffEnv(opt.Getenv)}
	ls.rows.in = opt.Inbox
	ls.outbox = newLinksOutbox(ls)
	if opt.Inbox != nil {
		ls.follow = newFollow(ls, opt.Inbox)
	}
	ls.Apply(h.Options().Config)
	return ls
}

// HostOf is a config table as the hosts package reads it.
func HostOf(name string, h config.Host) hosts.Host {
	return hosts.Host{Name: name, Addr: h.Addr, Command: h.Command, SSHOptions: h.SSHOptions,
		ConnectTimeout: time.Duration(h.ConnectTimeout) * time.Second}
}

// Changes is what Apply changed: apply-config's result, by host name.
type Changes struct {
	Added   []string  `json:"added"`
	Changed []string  `json:"changed"`
	Removed []string  `json:"removed"`
	Refused []Refusal `json:"refused"`
}

// Refusal is a host table Apply will not dial, and why.
type Refusal struct {
	Host   string `json:"host"`
	Reason string `json:"reason"`
	Hint   string `json:"hint,omitempty"`
}

// Apply makes the links match f's [hosts.NAME] tables: a new host is
// dialled, a changed one redialled, a removed one closed at once. An
// unchanged host keeps its link.
func (ls *Links) Apply(f *config.File) Changes {
	out := Changes{Added: []string{}, Changed: []string{}, Removed: []string{}, Refused: []Refusal{}}
	want := map[string]hosts.Host{}
	refused := map[string]refusedHost{}
	now := ls.core.Clock().Now()
	if f != nil {
		for _, n := range f.HostNames() {
			h := HostOf(n, f.Hosts[n])
			if err := h.Check(); err != nil {
				r := refusedHost{addr: h.Addr, reason: err.Error(), code: "refused", since: now}
				var he *hosts.Error
				if errors.As(err, &he) {
					r.hint, r.code = he.Hint(), string(he.Reason)
				}
				refused[n] = r
				out.Refused = append(out.Refused, Refusal{Host: n, Reason: r.reason, Hint: r.hint})
				ls.core.Log().Infof("host %s is not dialled: %s", n, r.reason)
				continue
			}
			want[n] = h
		}
	}
	var gone []*hostLink
	var born []*hostLink
	ls.mu.Lock()
	if ls.closed {
		ls.mu.Unlock()
		return out
	}
	for n, h := range ls.hosts {
		if w, ok := want[n]; ok && sameHost(w, h.cfg) {
			continue
		}
		delete(ls.hosts, n)
		gone = append(gone, h)
		if _, ok := want[n]; !ok {
			out.Removed = append(out.Removed, n)
		}
	}
	for n, w := range want {
		if _, ok := ls.hosts[n]; ok {
			continue
		}
		if slices.ContainsFunc(gone, func(h *hostLink) bool { return h.name == n }) {
			out.Changed = append(out.Changed, n)
		} else {
			out.Added = append(out.Added, n)
		}
		h := &hostLink{ls: ls, name: n, cfg: w, status: StatusConnecting, since: now, wake: make(chan struct{}, 1)}
		h.ctx, h.cancel = context.WithCancel(context.Background())
		ls.hosts[n] = h
		born = append(born, h)
	}
	ls.refused = refused
	started := ls.started
	if started {
		ls.wg.Add(len(born))
	}
	ls.mu.Unlock()
	for _, h := range gone {
		h.stop()
	}
	for _, n := range out.Removed {
		ls.core.Publish(core.Event{Type: "host-changed", Host: n, Status: StatusRemoved})
	}
	for _, h := range born {
		ls.core.Publish(core.Event{Type: "host-changed", Host: h.name, Status: StatusConnecting})
		if started {
			go h.run()
		}
	}
	sort.Strings(out.Added)
	sort.Strings(out.Changed)
	sort.Strings(out.Removed)
	sort.Slice(out.Refused, func(i, j int) bool { return out.Refused[i].Host < out.Refused[j].Host })
	return out
}

func sameHost(a, b hosts.Host) bool {
	return a.Name == b.Name && a.Addr == b.Addr && a.Command == b.Command && a.ConnectTimeout == b.ConnectTimeout && slices.Equal(a.SSHOptions, b.SSHOptions)
}

// Start dials every host, in the background, and starts the outbox:
// the mail that waited is tried as each link comes up. Once the socket
// is the daemon's.
func (ls *Links) Start() {
	ls.mu.Lock()
	if ls.started || ls.closed {
		ls.mu.Unlock()
		return
	}
	ls.started = true
	hs := make([]*hostLink, 0, len(ls.hosts))
	for _, h := range ls.hosts {
		hs = append(hs, h)
	}
	ls.wg.Add(len(hs))
	ls.mu.Unlock()
	for _, h := range hs {
		go h.run()
	}
	ls.startOutbox()
}

// Close ends every link and waits for the hosts' goroutines.
func (ls *Links) Close() {
	ls.mu.Lock()
	ls.closed = true
	hs := make([]*hostLink, 0, len(ls.hosts))
	for _, h := range ls.hosts {
		hs = append(hs, h)
	}
	ls.hosts = map[string]*hostLink{}
	ls.mu.Unlock()
	for _, h := range hs {
		h.stop()
	}
	ls.wg.Wait()
}

// stop ends h's goroutine, its dial and its link, at once.
func (h *hostLink) stop() {
	h.cancel()
	h.ls.mu.Lock()
	link, idle := h.link, h.idle
	h.link, h.idle = nil, nil
	pooled := h.dropPool()
	h.ls.mu.Unlock()
	closeChans(pooled)
	for _, fs := range idle {
		fs.rw.Close()
	}
	if link != nil {
		link.Close()
	}
}

func (ls *Links) dialer() *hosts.Dialer {
	return &hosts.Dialer{Home: ls.opt.Getenv("HOME"), Getenv: ls.opt.Getenv, Client: "tuios-daemon", Version: version.Get().Module, Protocol: proto.Version}
}

// run dials, holds the link until it ends, and redials, until stopped.
func (h *hostLink) run() {
	defer h.ls.wg.Done()
	for h.ctx.Err() == nil {
		link, err := h.ls.dialer().Dial(h.ctx, h.cfg)
		if h.ctx.Err() != nil {
			if err == nil {
				link.Close()
			}
			return
		}
		if err == nil {
			if !h.up(link) {
				link.Close()
				return
			}
			select {
			case <-link.Done():
				h.dropped(link)
				continue // the first redial goes at once
			case <-h.ctx.Done():
				link.Close()
				return
			}
		}
		t := h.failed(err)
		select {
		case <-h.wake:
		case <-h.ctx.Done():
			t.Stop()
			return
		}
	}
}

// backoff is the wait after the n-th failed attempt in a row (n ≥ 1).
func redialBackoff(n int) time.Duration {
	d := redialFirst
	for i := 1; i < n && d < redialMax; i++ {
		d *= 2
	}
	return min(d, redialMax)
}

// set records a state; a change of status is a host-changed event.
// Called without Links.mu.
func (h *hostLink) set(edit func()) {
	ls := h.ls
	ls.mu.Lock()
	if ls.hosts[h.name] != h { // removed or replaced meanwhile
		ls.mu.Unlock()
		return
	}
	was := h.status
	edit()
	changed := h.status != was
	if changed {
		h.since = ls.core.Clock().Now()
	}
	st, reason := h.status, h.reason
	ls.mu.Unlock()
	if changed {
		ls.core.Log().Infof("host %s: %s %s", h.name, st, reason)
		ls.core.Publish(core.Event{Type: "host-changed", Host: h.name, Status: st})
	}
}

// up installs a link that answered; false if the host was removed
// meanwhile.
func (h *hostLink) up(link *hosts.Link) bool {
	ok := false
	h.set(func() {
		ok = true
		h.link = link
		h.status, h.reason, h.code, h.hint = StatusUp, "", "", ""
		h.attempts, h.retryAt = 0, time.Time{}
	})
	if ok {
		h.warm() // the first host-qualified call is cheap too
	}
	return ok
}

// dropped records a link that ended; its pooled channels go with it.
func (h *hostLink) dropped(link *hosts.Link) {
	why := "the link dropped"
	if err := link.Err(); err != nil {
		why += ": " + err.Error()
	}
	var idle []*farStream
	var pooled []*farChan
	h.set(func() {
		if h.link == link {
			h.link = nil
		}
		idle, h.idle = h.idle, nil
		pooled = h.dropPool()
		h.status, h.reason, h.code, h.hint = StatusReconnecting, why, string(hosts.ReasonDropped), "it is redialled now; tuios hosts test "+h.name+" dials it by hand"
	})
	for _, fs := range idle {
		fs.rw.Close()
	}
	closeChans(pooled)
	link.Close()
}

// failed records a failed attempt and arms the timer of the next: in
// the same step, so whoever sees the attempt counted sees the timer armed.
func (h *hostLink) failed(err error) agentstate.Timer {
	wake := func() {
		select {
		case h.wake <- struct{}{}:
		default:
		}
	}
	var t agentstate.Timer
	h.set(func() {
		h.attempts++
		d := redialBackoff(h.attempts)
		h.retryAt = h.ls.core.Clock().Now().Add(d)
		t = h.ls.core.Clock().AfterFunc(d, wake)
		// The reason may quote what the far side printed: escaped and
		// clipped here, fenced by whoever shows it.
		h.status, h.reason, h.code, h.hint = StatusUnreachable, core.Clip(safetext.Escape(err.Error(), false), 2048), "", ""
		var he *hosts.Error
		if errors.As(err, &he) {
			h.status, h.code, h.hint = he.Reason.Status(), string(he.Reason), he.Hint()
		}
	})
	if t == nil { // removed meanwhile: the goroutine ends on its context
		t = h.ls.core.Clock().AfterFunc(redialMax, wake)
	}
	return t
}

// HostRow is one row of list-hosts.
type HostRow struct {
	Name   string `json:"name"`
	Addr   string `json:"addr"`
	Status string `json:"status"`
	// Reason says why the link is not up (it may quote what the far side
	// said: data, fenced when shown); ReasonCode is the step that failed.
	Reason     string `json:"reason,omitempty"`
	ReasonCode string `json:"reason_code,omitempty"`
	Hint       string `json:"hint,omitempty"`
	Since      string `json:"since"`
	// Attempts is the failed attempts in a row; RetryAt when the next
	// one starts.
	Attempts int    `json:"attempts,omitempty"`
	RetryAt  string `json:"retry_at,omitempty"`
	// Refused: the table is never dialled (Reason says which setting).
	Refused bool `json:"refused,omitempty"`
	// Queued is the host's mail waiting in the outbox (outbox.go); Events
	// and EventsNote say how its Inbox is followed (follow.go).
	Queued     int    `json:"queued"`
	Events     string `json:"events"`
	EventsNote string `json:"events_note,omitempty"`
	// Connections is how many client connections are handed to the
	// host (open-host-connection) right now.
	Connections int `json:"connections"`
	// Far is what the far daemon said in hello, while up.
	Far *hosts.Hello `json:"far,omitempty"`
}

// Rows lists every configured host, sorted by name.
// The outbox's and the follow's parts are asked for after Links.mu is
// let go, so neither lock is ever held while taking the other.
func (ls *Links) Rows() []HostRow {
	out := ls.rowsLocked()
	for i := range out {
		out[i].Queued = ls.outbox.Waiting(out[i].Name)
		if !out[i].Refused {
			out[i].Events, out[i].EventsNote = ls.follow.eventsOf(out[i].Name) // follow.go: live, polling or ""
		}
	}
	return out
}

func (ls *Links) rowsLocked() []HostRow {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	out := make([]HostRow, 0, len(ls.hosts)+len(ls.refused))
	open := map[string]int{}
	for _, host := range ls.conns {
		open[host]++
	}
	for _, h := range ls.hosts {
		r := HostRow{Name: h.name, Addr: h.cfg.Addr, Status: h.status, Reason: h.reason, ReasonCode: h.code, Hint: h.hint,
			Since: h.since.UTC().Format(time.RFC3339Nano), Attempts: h.attempts, Connections: open[h.name]}
		if !h.retryAt.IsZero() {
			r.RetryAt = h.retryAt.UTC().Format(time.RFC3339Nano)
		}
		if h.link != nil {
			hello := h.link.Hello
			r.Far = &hello
		}
		out = append(out, r)
	}
	for n, rf := range ls.refused {
		out = append(out, HostRow{Name: n, Addr: rf.addr, Status: StatusUnreachable, Reason: rf.reason, ReasonCode: rf.code, Hint: rf.hint,
			Since: rf.since.UTC().Format(time.RFC3339Nano), Refused: true})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// track and untrack keep the set of open host connections.
func (ls *Links) track(hc *Conn) {
	ls.mu.Lock()
	ls.conns[hc] = hc.host
	ls.mu.Unlock()
}

func (ls *Links) untrack(hc *Conn) {
	ls.mu.Lock()
	delete(ls.conns, hc)
	ls.mu.Unlock()
}

// Names lists the configured hosts (dialled or refused), sorted.
func (ls *Links) Names() []string {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	out := make([]string, 0, len(ls.hosts)+len(ls.refused))
	for n := range ls.hosts {
		out = append(out, n)
	}
	for n := range ls.refused {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Status is host's link state (up, connecting, reconnecting,
// no_daemon, no_tuios, unreachable, incompatible), "" for a host that is
// not configured. A table refused for its settings is unreachable. Every
// change is also a host-changed event on the hub.
func (ls *Links) Status(host string) string {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if h := ls.hosts[host]; h != nil {
		return h.status
	}
	if _, ok := ls.refused[host]; ok {
		return StatusUnreachable
	}
	return ""
}

// upLink is host's link when it is up, or the error that says why not:
// unknown_host naming the configured hosts (never a guess: reaching the
// wrong machine is worse than none), host_unreachable with the reason, or
// incompatible.
func (ls *Links) upLink(host string) (*hostLink, *hosts.Link, *proto.Error) {
	ls.mu.Lock()
	h := ls.hosts[host]
	rf, refused := ls.refused[host]
	var link *hosts.Link
	var status, reason, hint string
	if h != nil {
		link, status, reason, hint = h.link, h.status, h.reason, h.hint
	}
	ls.mu.Unlock()
	switch {
	case h == nil && refused:
		return nil, nil, proto.Errorf(CodeHostUnreachable, "host %s is never dialled: %s", host, rf.reason).
			WithHint(proto.Hint{Command: "tuios hosts", Detail: rf.hint})
	case h == nil:
		names := ls.Names()
		msg := "no host is configured; add one with tuios hosts add NAME ADDR"
		if len(names) > 0 {
			msg = "the configured hosts are " + linkNames(names)
		}
		return nil, nil, proto.Errorf(CodeUnknownHost, "no host named %q: %s", core.Clip(host, 64), msg).
			WithHint(proto.Hint{Param: "host", Accepted: names, Command: "tuios hosts"})
	case status == StatusIncompatible:
		return nil, nil, proto.Errorf(CodeIncompatible, "host %s speaks another control protocol: %s", host, reason).
			WithHint(proto.Hint{Command: "tuios hosts", Detail: linkFirst(hint, "install the same tuios on both machines")})
	case status != StatusUp || link == nil:
		msg := "host %s is " + status
		if reason != "" {
			msg += ": " + reason
		}
		return nil, nil, proto.Errorf(CodeHostUnreachable, msg, host).
			WithHint(proto.Hint{Command: "tuios hosts", Detail: linkFirst(hint, "tuios hosts says why the link is down")})
	}
	return h, link, nil
}

func linkNames(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

func linkFirst(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
