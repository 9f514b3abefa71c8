package links

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/proto"
)

// The outbox (docs/agents.md, Agent mail): mail for a session on another
// machine that could not go at once, kept only for a sender that asks for
// it (queue, the CLI's --queue). By default a send to another machine is
// one try and nothing is kept: a host that is not answering is
// host_unreachable, so a script that checks the exit code is never told
// "sent" for mail that has not arrived. With queue, send-agent-message
// tries the far daemon first (outboxAnswerWait at most); the message is
// kept here, on disk, when the link is down, the far side did not answer in
// time, or earlier mail to the same host still waits (a host's mail leaves
// in the order it was sent). It leaves when the link comes back
// (host-changed to up: at once), and while the link is up a failed try is
// retried after 1 s, doubling to 30 s. One one-shot timer per host, on the
// daemon's clock, and none while nothing waits or the link is down.
//
// Decisions the docs leave open, written down here:
//
//   - What counts as "refused on arrival": any error the far daemon
//     answered except the ones that say "not now": host_unreachable,
//     unknown_host (a host removed from the table may come back), timeout,
//     rate_limited (the far session's 32 + 32 link caps are full until
//     someone there reads: mail already kept waits, it is not refused),
//     internal, protocol_mismatch and incompatible. A first try answered
//     rate_limited is not kept, queue or not: the link is up and the sender
//     hears the far side's count at once (docs/agents.md: "past that a send
//     answers rate_limited ... until someone there reads"). A refused
//     message is dropped and the host's Inbox row says why until it is
//     dismissed; the messages behind it are still delivered (each is its
//     own message; the row keeps the latest refusal). Dismissing the row
//     discards whatever still waits. A first try refused that way (the link
//     was up) is not kept at all: the sender hears the far daemon's error
//     at once.
//   - Delivery is at least once: a far daemon that stored a message but
//     answered after the 10 s wait gets it again on the retry.
//   - A message that failed its first try is queued ahead of the mail
//     sent to that host while the try was in flight (it was sent first).
//   - A host removed from the table keeps its waiting mail (status ""):
//     nothing is tried until it is configured again; dismissing its row
//     discards the mail.
//   - The file keeps each waiting message and each host's refusal, so the
//     "Waiting to send" row comes back after a restart. A file that is
//     corrupt, not the daemon user's or not 0600 is set aside (never
//     overwritten) and the daemon starts with an empty outbox.
//   - The caps count a message whose first try is in flight, so it always
//     has a place to go back to.
//   - A send without queue does not wait behind mail kept for the same
//     host: it is its own try, and its answer says whether it arrived.

const (
	// OutboxFile is the outbox under the state dir.
	OutboxFile = "outbox/outbox.json"
	// OutboxPerHost and OutboxTotal cap what waits: past them a send is
	// rate_limited.
	OutboxPerHost = 64
	OutboxTotal   = 256
	// outboxAnswerWait bounds one try: a far side that has not answered
	// by then keeps the message in the outbox.
	outboxAnswerWait = 10 * time.Second
	// outboxFirstRetry doubles up to outboxMaxRetry while the link is up
	// and tries fail.
	outboxFirstRetry = time.Second
	outboxMaxRetry   = 30 * time.Second
)

// OutboxDelivery runs send-agent-message on host's daemon with params and
// returns what it answered. An error the far daemon answered keeps its
// code; a link failure is host_unreachable or timeout.
type OutboxDelivery func(ctx context.Context, host string, params map[string]any) (map[string]any, *proto.Error)

// OutboxOptions wire an outbox to its daemon (or to a test).
type OutboxOptions struct {
	Clock agentstate.Clock
	// Path is the outbox file; "" keeps nothing on disk.
	Path string
	// UID owns the file: one owned by anyone else is set aside.
	UID     int
	Deliver OutboxDelivery
	// Status is a host's link state (Links.Status): only "up" is tried.
	Status func(host string) string
	// Changed is told what waits for host and the latest refusal after
	// every change (the Inbox's "Waiting to send" row). Calls are
	// serialised and the last one says the latest state.
	Changed func(host string, waiting int, refused string)
	// SetAside moves a refused file out of the way.
	SetAside func(path, why string)
	Logf     func(format string, args ...any)
	// Done stops tries once closed (the daemon stopping).
	Done <-chan struct{}
}

// outboxHost is what waits for one host.
type outboxHost struct {
	msgs    []OutboxMsg // in delivery order
	refused string      // the latest refusal, shown until dismissed
	busy    bool        // a try is in flight (the pump's or a send's)
	first   int         // sends whose first try is in flight (not in msgs)
	retry   time.Duration
	timer   agentstate.Timer
	due     time.Time // when timer fires
	status  string    // the link state last seen
}

type Outbox struct {
	opt OutboxOptions

	nmu sync.Mutex // serialises Changed calls (taken before mu)
	mu  sync.Mutex
	// next is the next queue id; kept on disk so ids are not reused.
	next  uint64
	hosts map[string]*outboxHost
}

func NewOutbox(opt OutboxOptions) *Outbox {
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	if opt.Changed == nil {
		opt.Changed = func(string, int, string) {}
	}
	if opt.SetAside == nil {
		opt.SetAside = func(string, string) {}
	}
	return &Outbox{opt: opt, next: 1, hosts: map[string]*outboxHost{}}
}

// hostLocked is host's record, made on first use. Called with mu held.
func (o *Outbox) hostLocked(host string) *outboxHost {
	h := o.hosts[host]
	if h == nil {
		h = &outboxHost{}
		o.hosts[host] = h
	}
	return h
}

// countsLocked are the messages held for host and in all, a first try in
// flight included. Called with mu held.
func (o *Outbox) countsLocked(host string) (forHost, total int) {
	for name, h := range o.hosts {
		n := len(h.msgs) + h.first
		total += n
		if name == host {
			forHost = n
		}
	}
	return forHost, total
}

// roomLocked refuses a message past the caps. Called with mu held.
func (o *Outbox) roomLocked(host string) *proto.Error {
	forHost, total := o.countsLocked(host)
	switch {
	case forHost >= OutboxPerHost:
		return proto.Errorf(proto.CodeRateLimited, "%d messages already wait for %s, the cap", forHost, host).
			WithHint(proto.Hint{Command: "tuios hosts", Detail: "wait until the link to " + host + " is back and the mail has gone"})
	case total >= OutboxTotal:
		return proto.Errorf(proto.CodeRateLimited, "%d messages already wait for other machines, the cap", total).
			WithHint(proto.Hint{Command: "tuios outbox", Detail: "wait until the links are back and the mail has gone"})
	}
	return nil
}

// queued is send-agent-message's answer for a message kept here.
func queued(m OutboxMsg, waiting int, status, why string) map[string]any {
	return map[string]any{"type": "agent_message_queued", "queued": true, "queue_id": m.ID, "waiting": waiting,
		"host": m.Host, "session": m.Session, "to": m.To, "from": m.From, "subject": m.Subject, "queued_at": m.QueuedAt,
		"status": status, "why": why}
}

// send delivers m to its host. Without keep (what a sender gets unless it
// asks for the outbox with --queue) it is one try and nothing is kept: the
// far daemon's answer, or the error that says why not (host_unreachable
// with the link's reason when it is not up). With keep it delivers at once
// when nothing waits for that host and the link is up, else keeps it; the
// answer is then the far daemon's or agent_message_queued. Either way a
// far session whose link caps are full answers rate_limited at once: the
// link is up, so waiting here would only hide that nobody there reads.
func (o *Outbox) Send(ctx context.Context, m OutboxMsg, keep bool) (map[string]any, *proto.Error) {
	if !keep {
		tctx, cancel := context.WithTimeout(ctx, outboxAnswerWait)
		res, err := o.opt.Deliver(tctx, m.Host, farParams(m))
		cancel()
		return res, farWord(m.Host, err)
	}
	status := o.opt.Status(m.Host)
	o.mu.Lock()
	h := o.hostLocked(m.Host)
	why := ""
	switch {
	case status != "up":
		why = "link_down"
	case h.busy || len(h.msgs) > 0:
		why = "earlier_mail_waits"
	}
	if why != "" {
		if status != "up" { // seen down: the next up is a change that tries at once
			h.status = status
		}
		res, err := o.keepLocked(h, m, false, status, why)
		// Up, nothing in flight, no retry armed: the host-changed event
		// may not have been seen yet, so the mail goes now.
		kick := err == nil && status == "up" && !h.busy && h.timer == nil
		o.mu.Unlock()
		if err == nil {
			o.Notify(m.Host)
		}
		if kick {
			go o.pump(m.Host)
		}
		return res, err
	}
	if err := o.roomLocked(m.Host); err != nil {
		o.mu.Unlock()
		return nil, err
	}
	h.busy = true
	h.first++
	o.mu.Unlock()

	tctx, cancel := context.WithTimeout(ctx, outboxAnswerWait)
	res, err := o.opt.Deliver(tctx, m.Host, farParams(m))
	cancel()

	o.mu.Lock()
	h.busy = false
	h.first--
	if err != nil && retryLater(err) && err.Code != proto.CodeRateLimited {
		// Ahead of what was sent meanwhile: this one was sent first.
		out, kerr := o.keepLocked(h, m, true, status, "no_answer")
		if kerr == nil {
			o.armLocked(m.Host, h, o.backoffLocked(h))
		}
		o.mu.Unlock()
		if kerr == nil {
			o.Notify(m.Host)
		}
		return out, kerr
	}
	more := len(h.msgs) > 0
	o.mu.Unlock()
	if more { // mail queued behind this try goes now
		go o.pump(m.Host)
	}
	return res, farWord(m.Host, err)
}

// farWord marks an error the far daemon answered as that machine's word
// (its message starts "host NAME: ", which the CLI reads as untrusted):
// rate_limited with the far session's count, window_not_found there. The
// link's own refusals (host_unreachable, unknown_host, incompatible) are
// this machine's and stay as they are.
func farWord(host string, err *proto.Error) *proto.Error {
	if err == nil {
		return nil
	}
	switch err.Code {
	case CodeHostUnreachable, CodeUnknownHost, CodeIncompatible, "":
		return err
	}
	out := *err
	if !strings.HasPrefix(out.Message, "host "+host+": ") {
		out.Message = "host " + host + ": " + out.Message
	}
	if out.Hint != nil && out.Hint.Detail != "" {
		h := *out.Hint
		h.Detail = "host " + host + " says: " + h.Detail
		out.Hint = &h
	}
	return &out
}

// keepLocked stores m (at the head when front) and writes the file; a
// message the disk would not take is not kept. Called with mu held.
func (o *Outbox) keepLocked(h *outboxHost, m OutboxMsg, front bool, status, why string) (map[string]any, *proto.Error) {
	if !front { // a first try that failed had its place reserved
		if err := o.roomLocked(m.Host); err != nil {
			return nil, err
		}
	}
	m.ID = o.next
	o.next++
	if front {
		h.msgs = slices.Insert(h.msgs, 0, m)
	} else {
		h.msgs = append(h.msgs, m)
	}
	if err := o.saveLocked(); err != nil {
		h.msgs = slices.DeleteFunc(h.msgs, func(x OutboxMsg) bool { return x.ID == m.ID })
		return nil, proto.Errorf(proto.CodeInternal, "the message could not be kept on disk: %v; it was not sent", err).
			WithHint(proto.Hint{Detail: "free space under the state dir, then send again"})
	}
	return queued(m, len(h.msgs), status, why), nil
}

// backoffLocked is the next wait after a failed try: 1 s, doubling, at
// most 30 s. Called with mu held.
func (o *Outbox) backoffLocked(h *outboxHost) time.Duration {
	if h.retry == 0 {
		h.retry = outboxFirstRetry
	} else {
		h.retry = min(2*h.retry, outboxMaxRetry)
	}
	return h.retry
}

// armLocked sets host's one retry timer to fire after d. Called with mu
// held.
func (o *Outbox) armLocked(host string, h *outboxHost, d time.Duration) {
	o.stopLocked(h)
	h.due = o.opt.Clock.Now().Add(d)
	var t agentstate.Timer
	// The clock may call f on this goroutine (a fake one does): f only
	// starts one.
	t = o.opt.Clock.AfterFunc(d, func() {
		o.mu.Lock()
		if h.timer == t {
			h.timer, h.due = nil, time.Time{}
		}
		o.mu.Unlock()
		go o.pump(host)
	})
	h.timer = t
}

func (o *Outbox) stopLocked(h *outboxHost) {
	if h.timer != nil {
		h.timer.Stop()
		h.timer, h.due = nil, time.Time{}
	}
}

// pump delivers host's mail in order while the link is up, one try at a
// time; a try that fails arms the retry timer and ends the pump.
func (o *Outbox) pump(host string) {
	for {
		select {
		case <-o.opt.Done:
			return
		default:
		}
		status := o.opt.Status(host)
		o.mu.Lock()
		h := o.hosts[host]
		if h == nil {
			o.mu.Unlock()
			return
		}
		h.status = status
		if h.busy || len(h.msgs) == 0 || status != "up" {
			if len(h.msgs) == 0 {
				o.stopLocked(h)
			}
			o.mu.Unlock()
			return
		}
		h.busy = true
		m := h.msgs[0]
		o.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), outboxAnswerWait)
		_, err := o.opt.Deliver(ctx, host, farParams(m))
		cancel()

		o.mu.Lock()
		h.busy = false
		if err != nil && retryLater(err) {
			if len(h.msgs) > 0 { // else discarded meanwhile: no timer for nothing
				o.armLocked(host, h, o.backoffLocked(h))
			}
			o.mu.Unlock()
			return
		}
		h.retry = 0
		if len(h.msgs) > 0 && h.msgs[0].ID == m.ID { // else discarded meanwhile
			h.msgs = h.msgs[1:]
		}
		if err != nil {
			h.refused = refusal(m, err)
			o.opt.Logf("outbox: %s refused message %d: %s", host, m.ID, h.refused)
		}
		if serr := o.saveLocked(); serr != nil {
			o.opt.Logf("outbox: saving %s: %v", o.opt.Path, serr)
		}
		o.mu.Unlock()
		o.Notify(host)
	}
}

// retryLater reports whether a try's error means "not now" rather than a
// refusal of the message (see the decisions above).
func retryLater(err *proto.Error) bool {
	switch err.Code {
	case CodeHostUnreachable, CodeUnknownHost, proto.CodeTimeout, proto.CodeRateLimited, proto.CodeInternal, proto.CodeProtocolMismatch, CodeIncompatible, "":
		return true
	}
	return false
}

// refusal is the line the Inbox row shows for a refused message: the far
// daemon's code and message (data from another machine: the Inbox cleans
// it) and where the message was going.
func refusal(m OutboxMsg, err *proto.Error) string {
	to := m.Session
	if m.To != "" {
		to += ":" + m.To
	}
	msg := err.Message
	if len(msg) > 120 {
		msg = msg[:120]
	}
	return fmt.Sprintf("%s (to %s): %s", err.Code, to, strings.ToValidUTF8(msg, ""))
}

// notify tells Changed what waits for host now.
func (o *Outbox) Notify(host string) {
	o.nmu.Lock()
	defer o.nmu.Unlock()
	o.mu.Lock()
	waiting, refused := 0, ""
	if h := o.hosts[host]; h != nil {
		waiting, refused = len(h.msgs), h.refused
		if waiting == 0 && refused == "" && !h.busy && h.first == 0 {
			delete(o.hosts, host)
		}
	}
	o.mu.Unlock()
	o.opt.Changed(host, waiting, refused)
}

// linkChanged runs on every host-changed event (and a gap, when some may
// have been lost): a host whose link came up is tried at once, its
// backoff back to 1 s.
func (o *Outbox) LinkChanged() {
	o.mu.Lock()
	names := make([]string, 0, len(o.hosts))
	for name := range o.hosts {
		names = append(names, name)
	}
	o.mu.Unlock()
	for _, name := range names {
		status := o.opt.Status(name)
		o.mu.Lock()
		h := o.hosts[name]
		kick := false
		if h != nil {
			kick = status == "up" && h.status != "up" && len(h.msgs) > 0
			h.status = status
			if kick {
				h.retry = 0
				o.stopLocked(h)
			}
		}
		o.mu.Unlock()
		if kick {
			go o.pump(name)
		}
	}
}

// discard drops everything that waits for host and its refusal (the
// person dismissed its Inbox row). A try in flight still ends as it ends.
func (o *Outbox) Discard(host string) int {
	o.mu.Lock()
	h := o.hosts[host]
	if h == nil {
		o.mu.Unlock()
		return 0
	}
	n := len(h.msgs)
	h.msgs, h.refused, h.retry = nil, "", 0
	o.stopLocked(h)
	if err := o.saveLocked(); err != nil {
		o.opt.Logf("outbox: saving %s: %v", o.opt.Path, err)
	}
	o.mu.Unlock()
	o.Notify(host)
	return n
}

// waiting is how many messages wait for host (list-hosts' queued).
func (o *Outbox) Waiting(host string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	if h := o.hosts[host]; h != nil {
		return len(h.msgs)
	}
	return 0
}

// OutboxHost is one host of list-outbox.
type OutboxHost = proto.OutboxHost

// list is what waits, host by host (sorted), oldest first within each.
func (o *Outbox) List(only string) []OutboxHost {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := []OutboxHost{}
	for name, h := range o.hosts {
		if only != "" && name != only || len(h.msgs) == 0 && h.refused == "" {
			continue
		}
		v := OutboxHost{Host: name, Status: h.status, Waiting: len(h.msgs), Refused: h.refused, Messages: slices.Clone(h.msgs)}
		if !h.due.IsZero() {
			v.NextRetry = h.due.UnixMilli()
		}
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Host < out[j].Host })
	return out
}

// armed is when host's retry timer fires, and whether one is set (tests).
func (o *Outbox) Armed(host string) (time.Time, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if h := o.hosts[host]; h != nil && h.timer != nil {
		return h.due, true
	}
	return time.Time{}, false
}

// Queued is how many messages wait for each host that has any: the
// rail's "2 queued" beside a host's header.
func (o *Outbox) Queued() map[string]int {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make(map[string]int, len(o.hosts))
	for name, h := range o.hosts {
		if len(h.msgs) > 0 {
			out[name] = len(h.msgs)
		}
	}
	return out
}

// Reroute replaces how a host's state is read and its mail delivered
// (a test's far machine stands in for the link). Only before the daemon
// serves: nothing guards the options after.
func (o *Outbox) Reroute(status func(host string) string, deliver OutboxDelivery) {
	o.opt.Status, o.opt.Deliver = status, deliver
}

// LinkStatus is host's link state as the outbox reads it ("" for a host
// that is not configured).
func (o *Outbox) LinkStatus(host string) string { return o.opt.Status(host) }
