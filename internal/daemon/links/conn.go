package links

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// Conn is a client connection handed to another host's daemon by
// open-host-connection: every later request line goes over a channel of
// the host's link (a pooled one when there is one, pool.go), and
// what the far daemon writes back (answers, and the event lines of
// subscribe, wait and attach) comes back as it is. When the client is
// done the channel goes back to the pool only if it is provably clean.
type Conn struct {
	ls   *Links
	host string
	fc   *farChan
	cl   Client

	mu       sync.Mutex
	pending  []json.RawMessage // ids of the requests sent, in order, not yet answered
	ended    bool              // the channel died; what was pending is answered here
	released bool              // the client is done with the channel
	// dirty says why the channel may not serve another client ("":
	// clean so far): a verb that streams or keeps state, an event line,
	// an answer nobody asked for, a far failure.
	dirty    string
	popped   chan struct{} // a signal per answer, for Drain; capacity 1
	over     chan struct{} // closed once the channel is released or has ended
	overOnce sync.Once
}

// Client is the daemon's connection a Conn answers on.
type Client interface {
	// Context ends when the client hangs up.
	Context() context.Context
	// Send writes one answer line.
	Send(proto.Response)
	// WriteLine writes line, a far daemon's as it is, and a newline,
	// under the connection's write lock; then flushes when flush.
	WriteLine(line []byte, flush bool)
	// Flush writes out what is buffered, under the write lock.
	Flush()
	// Stop closes the connection.
	Stop()
	// Closed is closed once the connection is.
	Closed() <-chan struct{}
}

// OpenConn hands the client c to host's daemon.
func (ls *Links) OpenConn(ctx context.Context, c Client, host string) (*Conn, *proto.Error) {
	for try := 0; ; try++ {
		fc, perr := ls.takeChan(ctx, host)
		if perr != nil {
			return nil, perr
		}
		hc := &Conn{ls: ls, host: host, fc: fc, cl: c, popped: make(chan struct{}, 1), over: make(chan struct{})}
		if !fc.attach(hc) { // a pooled channel that died as it was taken
			fc.rw.Close()
			if try == 0 {
				continue
			}
			return nil, proto.Errorf(CodeHostUnreachable, "host %s: the channel ended as it opened", host).
				WithHint(proto.Hint{Command: "tuios hosts", Detail: "tuios hosts says whether the link is up"})
		}
		ls.track(hc)
		context.AfterFunc(c.Context(), hc.release) // the client left
		return hc, nil
	}
}

// spoil marks the channel unfit for another client; under h.mu.
func (h *Conn) spoil(why string) {
	if h.dirty == "" {
		h.dirty = why
	}
}

// Forward sends one request line to the host's daemon. A line refused
// before parsing (too long, over the budget: refused) is answered here.
func (h *Conn) Forward(line []byte, refused *proto.Error) {
	if refused != nil {
		h.cl.Send(proto.Response{Error: refused})
		return
	}
	var head struct {
		ID    json.RawMessage `json:"id"`
		Verb  string          `json:"verb"`
		Quiet bool            `json:"quiet"`
	}
	json.Unmarshal(line, &head) // a line that is not JSON: the far daemon says so
	if head.Quiet {
		// The far answers are matched to requests in order: a request
		// that may go unanswered would spoil that.
		h.cl.Send(proto.Response{ID: head.ID, Error: proto.Errorf(proto.CodeInvalidRequest, "quiet requests are not forwarded to another host").
			WithHint(proto.Hint{Detail: "send it without quiet: every request to a host gets its answer"})})
		return
	}
	h.mu.Lock()
	if h.ended || h.released {
		h.mu.Unlock()
		h.cl.Send(proto.Response{ID: head.ID, Error: h.droppedError()})
		return
	}
	if !h.ls.opt.Poolable(head.Verb) {
		h.spoil("it carried " + core.Clip(head.Verb, 64))
	}
	h.pending = append(h.pending, head.ID)
	h.mu.Unlock()
	out := make([]byte, 0, len(line)+1)
	out = append(append(out, line...), '\n')
	if _, err := h.fc.rw.Write(out); err != nil {
		// The channel is gone; the pump sees it too and answers what is
		// pending, this request included.
		h.fc.rw.Close()
	}
}

func (h *Conn) droppedError() *proto.Error {
	return proto.Errorf(CodeHostUnreachable, "host %s: the link dropped; a request sent before may or may not have run there", h.host).
		WithHint(proto.Hint{Command: "tuios hosts", Detail: "tuios hosts says whether the link is back; open-host-connection again then"})
}

// deliver copies one far line to the client, under the client's write
// lock; flush when no more is already read. Called by the channel's pump
// under farChan.mu. False for a line that is not the protocol.
func (h *Conn) deliver(line []byte, flush bool) bool {
	m, ok := readFarLine(line)
	if !ok {
		return false
	}
	h.mu.Lock()
	if m.answer {
		if len(h.pending) == 0 {
			h.spoil("an answer nothing asked for")
		} else {
			if !sameID(h.pending[0], m.id) {
				h.spoil("an answer out of order")
			}
			h.pending = h.pending[1:]
		}
		if m.code == proto.CodeInternal {
			h.spoil("the far daemon failed")
		}
		select {
		case h.popped <- struct{}{}:
		default:
		}
	} else {
		h.spoil("an event line: a stream")
	}
	h.mu.Unlock()
	h.cl.WriteLine(line, flush)
	return true
}

// sameID compares two JSON ids as values.
func sameID(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return string(a) == string(b)
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}

// farEnded runs when the channel ends under the client: the requests
// still pending are answered host_unreachable and the client connection
// closes (its stream of far answers cannot go on).
func (h *Conn) farEnded(why string) {
	h.mu.Lock()
	h.ended = true
	pending := h.pending
	h.pending = nil
	released := h.released
	h.mu.Unlock()
	h.finish()
	if released || h.cl.Context().Err() != nil {
		return // the client left first
	}
	h.cl.Flush()
	for _, id := range pending {
		e := h.droppedError()
		if why != "" {
			e.Message = "host " + h.host + ": " + why + "; a request sent before may or may not have run there"
		}
		h.cl.Send(proto.Response{ID: id, Error: e})
	}
	h.ls.core.Log().Warnf("host connection to %s ended (%d request(s) unanswered) %s", h.host, len(pending), why)
	h.cl.Stop()
}

// release ends the client's use of the channel: back to the pool when
// clean (every request answered, nothing streamed or kept, the far side
// never failed, no byte under way), closed otherwise. Runs once the
// client stopped writing (Drain) or left (its context).
func (h *Conn) release() {
	h.mu.Lock()
	if h.released || h.ended {
		h.mu.Unlock()
		return
	}
	h.released = true
	h.mu.Unlock()
	idle := h.fc.detach(h) // waits for a line being handed over
	h.mu.Lock()
	why := h.dirty
	if len(h.pending) > 0 {
		why = "a request was left unanswered"
	}
	h.mu.Unlock()
	if why == "" && !idle {
		why = "bytes were under way"
	}
	h.finish()
	if why != "" {
		h.fc.rw.Close()
		return
	}
	h.fc.h.putPool(h.fc)
}

// finish drops h from the open host connections and wakes Drain.
func (h *Conn) finish() {
	h.overOnce.Do(func() {
		close(h.over)
		h.ls.untrack(h)
	})
}

// Drain runs when the client stops writing: the far answers still owed
// are delivered before the connection ends (a client that writes its
// requests and closes its writing half still reads them).
func (h *Conn) Drain() {
	for {
		h.mu.Lock()
		n := len(h.pending)
		h.mu.Unlock()
		if n == 0 {
			break
		}
		select {
		case <-h.popped:
		case <-h.over:
			return
		case <-h.cl.Closed():
			return
		}
	}
	h.release()
	h.cl.Flush()
}

// Open opens a new stream to host's daemon: a fresh channel on the
// host's one ssh link running the far stdio-proxy, link-peer already said.
// The caller writes request lines and reads answer (and event) lines, and
// closes it when done. Errors: unknown_host, host_unreachable,
// incompatible.
func (ls *Links) Open(ctx context.Context, host string) (io.ReadWriteCloser, *proto.Error) {
	h, link, perr := ls.upLink(host)
	if perr != nil {
		return nil, perr
	}
	rw, err := h.openRoom(ctx, link)
	if err != nil {
		return nil, linkError(host, err)
	}
	return rw, nil
}

// linkError turns a hosts error into the protocol's.
func linkError(host string, err error) *proto.Error {
	e := proto.Errorf(CodeHostUnreachable, "host %s: %v", host, err)
	hint := proto.Hint{Command: "tuios hosts", Detail: "tuios hosts says why the link is down"}
	var he *hosts.Error
	if errors.As(err, &he) {
		e.Message = he.Error()
		if he.Hint() != "" {
			hint.Detail = he.Hint()
		}
		if he.Reason == hosts.ReasonIncompatible {
			e.Code = CodeIncompatible
		}
	}
	return e.WithHint(hint)
}

// farStream is one channel to a host's daemon kept for Call.
type farStream struct {
	link *hosts.Link
	rw   io.ReadWriteCloser
	r    *bufio.Reader
	next int
}

// Call runs one verb on host's daemon over a stream of its own and
// decodes the result into result (nil drops it). It is for verbs that
// answer once (waits included); a stream of events wants Open. An error the far daemon
// answered keeps its code; its text came from another machine and is data.
// The stream is kept for the next call when the answer came whole; ctx
// ending closes it (host_unreachable: no answer in time).
func (ls *Links) Call(ctx context.Context, host, verb string, params, result any) *proto.Error {
	h, link, perr := ls.upLink(host)
	if perr != nil {
		return perr
	}
	late := func() *proto.Error {
		return proto.Errorf(CodeHostUnreachable, "host %s did not answer %s in time", host, core.Clip(verb, 64)).
			WithHint(proto.Hint{Command: "tuios hosts", Detail: "the far daemon may be busy or the link wedged; tuios hosts says its state"})
	}
	fs := h.takeIdle(link)
	if fs == nil {
		rw, err := h.openRoom(ctx, link)
		if err != nil && ctx.Err() != nil {
			return late()
		}
		if err != nil {
			return linkError(host, err)
		}
		fs = &farStream{link: link, rw: rw, r: bufio.NewReaderSize(rw, 64<<10)}
	}
	stop := context.AfterFunc(ctx, func() { fs.rw.Close() })
	raw, perr := fs.call(verb, params)
	if !stop() {
		fs.rw.Close()
		return late()
	}
	if perr != nil && perr.Code == CodeHostUnreachable {
		fs.rw.Close()
		return perr
	}
	if !ls.opt.Poolable(verb) {
		fs.rw.Close() // a stream goes on, or the connection keeps state: not a channel to share
	} else {
		h.putIdle(fs)
	}
	if perr != nil {
		return perr
	}
	if result != nil {
		if err := json.Unmarshal(raw, result); err != nil {
			return proto.Errorf(CodeHostUnreachable, "host %s answered %s with a result that does not decode: %v", host, core.Clip(verb, 64), err)
		}
	}
	return nil
}

// call writes one request and reads lines until its answer (event lines
// of an earlier subscribe are skipped). A failure of the channel itself
// is host_unreachable; an error the far daemon answered is returned as
// it is.
func (fs *farStream) call(verb string, params any) (json.RawMessage, *proto.Error) {
	fs.next++
	id := strconv.Itoa(fs.next)
	b, err := json.Marshal(map[string]any{"id": fs.next, "verb": verb, "params": params})
	if err != nil {
		return nil, proto.Errorf(proto.CodeInvalidParams, "params of %s do not encode: %v", verb, err)
	}
	if _, err := fs.rw.Write(append(b, '\n')); err != nil {
		return nil, proto.Errorf(CodeHostUnreachable, "the link dropped: %v", err).WithHint(proto.Hint{Command: "tuios hosts"})
	}
	for {
		line, err := proto.ReadLine(fs.r, proto.MaxLine)
		if err != nil {
			return nil, proto.Errorf(CodeHostUnreachable, "the link dropped before %s was answered: %v", core.Clip(verb, 64), err).WithHint(proto.Hint{Command: "tuios hosts"})
		}
		var resp struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *proto.Error    `json:"error"`
		}
		if json.Unmarshal(line, &resp) != nil {
			return nil, proto.Errorf(CodeHostUnreachable, "the far side sent a line that is not the protocol").WithHint(proto.Hint{Command: "tuios hosts"})
		}
		if resp.Result == nil && resp.Error == nil {
			continue // an event line
		}
		if string(resp.ID) != id {
			return nil, proto.Errorf(CodeHostUnreachable, "the far side answered request %s, not %s", core.Clip(string(resp.ID), 32), id).WithHint(proto.Hint{Command: "tuios hosts"})
		}
		if resp.Error != nil {
			return nil, resp.Error
		}
		return resp.Result, nil
	}
}

// takeIdle takes a kept stream of link, if any.
func (h *hostLink) takeIdle(link *hosts.Link) *farStream {
	var stale []*farStream
	defer func() {
		for _, fs := range stale { // closed outside the lock: it writes to the link
			fs.rw.Close()
		}
	}()
	h.ls.mu.Lock()
	defer h.ls.mu.Unlock()
	for len(h.idle) > 0 {
		fs := h.idle[len(h.idle)-1]
		h.idle = h.idle[:len(h.idle)-1]
		if fs.link == link {
			return fs
		}
		stale = append(stale, fs)
	}
	return nil
}

// putIdle keeps fs for the next call while its link is the host's and
// there is room; else closes it.
func (h *hostLink) putIdle(fs *farStream) {
	h.ls.mu.Lock()
	if h.link == fs.link && len(h.idle) < idleStreams && h.ls.hosts[h.name] == h {
		h.idle = append(h.idle, fs)
		fs = nil
	}
	h.ls.mu.Unlock()
	if fs != nil {
		fs.rw.Close()
	}
}
