package links

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/proto"
)

// A host-qualified CLI call (tuios get-agent-state -w build:api) is one
// client connection handed to the host by open-host-connection. Opening
// a channel for it starts a far stdio-proxy through sshd, which costs
// far more than the call itself; so a channel whose user left it clean
// goes back to a small per-host pool, and the next open-host-connection
// takes it.
//
// Why a clean channel can be shared: the far daemon's state for the
// connection is what link-peer set when the channel was opened (the
// link's one peer name, never placed in a pane: the same for every
// channel of the link) and what Options.Poolable refuses (a
// subscription, an attach stream, a nested host connection, a
// restriction, a second link-peer). hello and the rest keep nothing per
// connection. The far stdio-proxy is a byte relay holding nothing.
const (
	// OpenTimeout bounds opening a channel for open-host-connection: a
	// link that is up but wedged answers host_unreachable, not never.
	OpenTimeout = 15 * time.Second
	// poolMax bounds the idle channels kept per host for
	// open-host-connection (each is a far sshd session: MaxSessions).
	poolMax = 2
	// PoolIdle is how long a channel past the first one idles before it
	// is closed; the first one stays, warm, while the link is up.
	PoolIdle = time.Minute
)

// farChan is one channel to a host's daemon used by open-host-connection,
// with the goroutine that reads it (pump). While a client uses it, user
// is that client's Conn; while pooled, user is nil and any line the
// far side sends closes it (nothing was asked).
type farChan struct {
	h    *hostLink
	link *hosts.Link
	rw   io.ReadWriteCloser
	cr   countReader

	mu   sync.Mutex // held while a line is handed to the user
	user *Conn
	dead bool
	// seen is cr's count at the last line boundary; tail is what the
	// reader held then. Bytes past seen, or a tail, are a line under way.
	seen, tail int64

	done  chan struct{}    // closed when the pump ends (the channel is gone)
	timer agentstate.Timer // the idle timeout while pooled; guarded by Links.mu
}

// countReader counts the bytes read from the channel.
type countReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// newFarChan wraps a channel; its pump is not started (go fc.pump()).
func newFarChan(h *hostLink, link *hosts.Link, rw io.ReadWriteCloser) *farChan {
	fc := &farChan{h: h, link: link, rw: rw, done: make(chan struct{})}
	fc.cr.r = rw
	return fc
}

// startFarChan is a channel with its pump running.
func startFarChan(h *hostLink, link *hosts.Link, rw io.ReadWriteCloser) *farChan {
	fc := newFarChan(h, link, rw)
	go fc.pump()
	return fc
}

// pump reads the far daemon's lines for as long as the channel lives and
// hands each to the channel's user.
func (fc *farChan) pump() {
	defer close(fc.done)
	r := bufio.NewReaderSize(&fc.cr, 64<<10)
	why := ""
	for {
		line, err := proto.ReadLine(r, proto.MaxLine)
		if errors.Is(err, proto.ErrLineTooLong) {
			why = "a line from the far daemon is over the 16 MB cap"
			break
		}
		if err != nil {
			break
		}
		fc.mu.Lock()
		fc.seen, fc.tail = fc.cr.n.Load(), int64(r.Buffered())
		u := fc.user
		if u == nil {
			fc.mu.Unlock()
			if len(line) == 0 {
				continue
			}
			why = "the far daemon wrote on an idle channel"
			break
		}
		if len(line) == 0 {
			fc.mu.Unlock()
			continue
		}
		ok := u.deliver(line, !lineBuffered(r))
		fc.mu.Unlock()
		if !ok {
			why = "the far side sent a line that is not the protocol"
			break
		}
	}
	fc.mu.Lock()
	fc.dead = true
	u := fc.user
	fc.user = nil
	fc.mu.Unlock()
	fc.rw.Close()
	fc.h.unpool(fc)
	if u != nil {
		u.farEnded(why)
	}
}

// lineBuffered reports whether r already holds a whole line: the client
// is flushed once after it instead of twice. A part of a line is not
// worth waiting for.
func lineBuffered(r *bufio.Reader) bool {
	b, _ := r.Peek(r.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// detach ends u's use of the channel; true when the channel is clean:
// it is alive and no byte came after the last line handed on. The
// caller has stopped writing to it. Waits for a line being handed to u.
func (fc *farChan) detach(u *Conn) bool {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if fc.user == u {
		fc.user = nil
	}
	return !fc.dead && fc.tail == 0 && fc.cr.n.Load() == fc.seen
}

// attach makes u the channel's user; false when it died meanwhile.
func (fc *farChan) attach(u *Conn) bool {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if fc.dead || fc.user != nil {
		return false
	}
	fc.user = u
	return true
}

// takeChan is a channel to host's daemon for open-host-connection: an
// idle pooled one, else one Call keeps, else a new one. A pooled
// one taken starts the warming of the next.
func (ls *Links) takeChan(ctx context.Context, host string) (*farChan, *proto.Error) {
	h, link, perr := ls.upLink(host)
	if perr != nil {
		return nil, perr
	}
	for {
		if fc := h.takePooled(link); fc != nil {
			h.warm()
			return fc, nil
		}
		if fs := h.takeIdle(link); fs != nil && ls.pooling() {
			if fs.r.Buffered() == 0 { // Call read exactly its answers
				return startFarChan(h, link, fs.rw), nil
			}
			fs.rw.Close()
		} else if fs != nil {
			h.putIdle(fs)
		}
		// A channel being warmed is sooner than a new one, and a new one
		// might find no room (MaxSessions) because of it.
		wait := h.warmWait()
		if wait == nil {
			break
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, proto.Errorf(CodeHostUnreachable, "host %s: opening a channel took too long", host).
				WithHint(proto.Hint{Command: "tuios hosts", Detail: "the link may be wedged; tuios hosts says its state"})
		}
	}
	rw, err := h.open(ctx, link)
	if err != nil {
		return nil, linkError(host, err)
	}
	fc := startFarChan(h, link, rw)
	h.warm()
	return fc, nil
}

// open opens a new channel on link, counted.
func (h *hostLink) open(ctx context.Context, link *hosts.Link) (io.ReadWriteCloser, error) {
	h.ls.opens.Add(1)
	return link.Open(ctx)
}

// openRoom opens a channel for Call or a stream (Open); when the
// far sshd has no room for it (MaxSessions), a channel idling in the
// pool is closed to make some and the open tried once more.
func (h *hostLink) openRoom(ctx context.Context, link *hosts.Link) (io.ReadWriteCloser, error) {
	rw, err := h.open(ctx, link)
	var he *hosts.Error
	if err == nil || !errors.As(err, &he) || he.Reason != hosts.ReasonNoRoom {
		return rw, err
	}
	fc := h.takePooled(link)
	if fc == nil {
		return nil, err
	}
	fc.rw.Close()
	select {
	case <-fc.done: // the far side saw the channel close: its session is free
	case <-ctx.Done():
		return nil, err
	}
	return h.open(ctx, link)
}

// takePooled takes an idle pooled channel of link, if any; dead and
// stale ones met on the way are closed.
func (h *hostLink) takePooled(link *hosts.Link) *farChan {
	var stale []*farChan
	defer func() {
		for _, fc := range stale { // outside the lock: closing writes to the link
			fc.rw.Close()
		}
	}()
	ls := h.ls
	for {
		ls.mu.Lock()
		n := len(h.pool)
		if n == 0 {
			ls.mu.Unlock()
			return nil
		}
		fc := h.pool[n-1]
		h.pool = h.pool[:n-1]
		t := fc.timer
		fc.timer = nil
		ls.mu.Unlock()
		if t != nil {
			t.Stop()
		}
		if fc.link != link {
			stale = append(stale, fc)
			continue
		}
		return fc
	}
}

// putPool keeps fc for the next open-host-connection when there is room
// and its link is still the host's; else closes it. A channel past the
// first idles at most PoolIdle.
func (h *hostLink) putPool(fc *farChan) {
	ls := h.ls
	ls.mu.Lock()
	keep := !ls.poolOff && !ls.closed && ls.hosts[h.name] == h && h.link == fc.link && len(h.pool) < poolMax
	if keep {
		h.pool = append(h.pool, fc)
	}
	surplus := keep && len(h.pool) > 1
	ls.mu.Unlock()
	if !keep {
		fc.rw.Close()
		return
	}
	select {
	case <-fc.done: // it died meanwhile: the pump's unpool may have run first
		h.unpool(fc)
		return
	default:
	}
	if surplus {
		// Armed outside Links.mu: a fake clock may call back at once.
		t := ls.core.Clock().AfterFunc(PoolIdle, func() { h.expire(fc) })
		ls.mu.Lock()
		if i := h.pooledAt(fc); i >= 0 && fc.timer == nil {
			fc.timer, t = t, nil
		}
		ls.mu.Unlock()
		if t != nil {
			t.Stop()
		}
	}
}

// expire closes fc when it is still pooled and not the last one kept.
func (h *hostLink) expire(fc *farChan) {
	ls := h.ls
	ls.mu.Lock()
	i := h.pooledAt(fc)
	if i < 0 || len(h.pool) <= 1 {
		if i >= 0 {
			fc.timer = nil
		}
		ls.mu.Unlock()
		return
	}
	h.pool = append(h.pool[:i], h.pool[i+1:]...)
	fc.timer = nil
	ls.mu.Unlock()
	fc.rw.Close()
}

// unpool drops fc from the pool (it died).
func (h *hostLink) unpool(fc *farChan) {
	ls := h.ls
	ls.mu.Lock()
	var t agentstate.Timer
	if i := h.pooledAt(fc); i >= 0 {
		h.pool = append(h.pool[:i], h.pool[i+1:]...)
		t, fc.timer = fc.timer, nil
	}
	ls.mu.Unlock()
	if t != nil {
		t.Stop()
	}
}

func (h *hostLink) pooledAt(fc *farChan) int {
	for i, x := range h.pool {
		if x == fc {
			return i
		}
	}
	return -1
}

// warm opens one channel in the background for the next
// open-host-connection when the pool is empty, the link is up and no
// warming is under way. A failure (no_room: the far sshd's MaxSessions)
// is left as it is; the next use tries again, nothing retries on a timer.
func (h *hostLink) warm() {
	ls := h.ls
	ls.mu.Lock()
	link := h.link
	if ls.poolOff || ls.closed || h.warming != nil || len(h.pool) > 0 || link == nil || ls.hosts[h.name] != h || h.status != StatusUp {
		ls.mu.Unlock()
		return
	}
	warmed := make(chan struct{})
	h.warming = warmed
	ls.mu.Unlock()
	go func() {
		defer func() {
			ls.mu.Lock()
			h.warming = nil
			ls.mu.Unlock()
			close(warmed)
		}()
		ctx, cancel := context.WithTimeout(h.ctx, OpenTimeout)
		rw, err := h.open(ctx, link)
		cancel()
		if err != nil {
			ls.core.Log().Warnf("host %s: no channel warmed: %v", h.name, err)
			return
		}
		h.putPool(startFarChan(h, link, rw))
	}()
}

// warmWait is closed when the warming under way ends; nil when none is.
func (h *hostLink) warmWait() <-chan struct{} {
	h.ls.mu.Lock()
	defer h.ls.mu.Unlock()
	if h.warming == nil {
		return nil
	}
	return h.warming
}

// dropPool empties h's pool (the link dropped, or the host was removed)
// and stops its timers; called under Links.mu, the caller closes what it
// returns after (closeChans).
func (h *hostLink) dropPool() []*farChan {
	out := h.pool
	h.pool = nil
	for _, fc := range out {
		if fc.timer != nil {
			fc.timer.Stop()
			fc.timer = nil
		}
	}
	return out
}

// closeChans closes channels dropped from a pool.
func closeChans(fcs []*farChan) {
	for _, fc := range fcs {
		fc.rw.Close()
	}
}

// pooling reports whether the pool is on.
func (ls *Links) pooling() bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return !ls.poolOff
}

// SetPooling turns the pool on or off; off closes what it holds.
func (ls *Links) SetPooling(on bool) {
	var drop []*farChan
	ls.mu.Lock()
	ls.poolOff = !on
	if !on {
		for _, h := range ls.hosts {
			drop = append(drop, h.dropPool()...)
		}
	}
	ls.mu.Unlock()
	closeChans(drop)
}

// poolOffEnv turns the pool off (TUIOS_HOST_POOL=off): every
// open-host-connection opens a channel of its own, as before the pool.
func poolOffEnv(getenv func(string) string) bool {
	v := getenv("TUIOS_HOST_POOL")
	return v == "off" || v == "0" || v == "false"
}

// farLine is what the pump reads of a far line: an answer has result or
// error (the keys exactly, as a client reads them); an event line has
// neither.
type farLine struct {
	answer bool
	id     json.RawMessage
	code   string // the error's code
}

// readFarLine reads a far line; false for one that is not a JSON object.
func readFarLine(line []byte) (farLine, bool) {
	var m map[string]json.RawMessage
	if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &m) != nil {
		return farLine{}, false
	}
	_, isRes := m["result"]
	errv, isErr := m["error"]
	out := farLine{id: m["id"], answer: isRes || isErr}
	if isErr {
		var e struct {
			Code string `json:"code"`
		}
		json.Unmarshal(errv, &e)
		out.code = e.Code
	}
	return out, true
}
