package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/proto"
)

// hostConn is a client connection handed to another host's daemon by
// open-host-connection: every later request line goes over a channel of
// the host's link, and what the far daemon writes back (answers, and the
// event lines of subscribe, wait and attach) comes back as it is.
type hostConn struct {
	host string
	rw   io.ReadWriteCloser

	mu      sync.Mutex
	pending []json.RawMessage // ids of the requests sent, in order, not yet answered
	ended   bool
	popped  chan struct{} // a signal per answer, for drainHost; capacity 1
	done    chan struct{} // closed once copyBack has ended
}

// forward sends one request line to the host's daemon. A line refused
// before parsing (too long, over the budget) is answered here.
func (h *hostConn) forward(cn *conn, rq request) {
	if rq.err != nil {
		cn.send(proto.Response{Error: rq.err})
		return
	}
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	json.Unmarshal(rq.line, &head) // a line that is not JSON: the far daemon says so
	h.mu.Lock()
	if h.ended {
		h.mu.Unlock()
		cn.send(proto.Response{ID: head.ID, Error: h.droppedError()})
		return
	}
	h.pending = append(h.pending, head.ID)
	h.mu.Unlock()
	line := make([]byte, 0, len(rq.line)+1)
	line = append(append(line, rq.line...), '\n')
	if _, err := h.rw.Write(line); err != nil {
		// The channel is gone; copyBack sees it too and answers what is
		// pending, this request included.
		h.rw.Close()
	}
}

func (h *hostConn) droppedError() *proto.Error {
	return proto.Errorf(codeHostUnreachable, "host %s: the link dropped; a request sent before may or may not have run there", h.host).
		WithHint(proto.Hint{Command: "tuios hosts", Detail: "tuios hosts says whether the link is back; open-host-connection again then"})
}

// copyBack copies the far daemon's lines to the client, under the
// client's write lock, until the channel ends; then it answers the
// requests still pending with host_unreachable and closes the client
// connection (its stream of far answers cannot go on).
func (h *hostConn) copyBack(cn *conn) {
	defer close(h.done)
	cn.s.links.track(h)
	defer cn.s.links.untrack(h)
	r := bufio.NewReaderSize(h.rw, 64<<10)
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
		if len(line) == 0 {
			continue
		}
		// An answer has result or error; an event line has neither.
		var m struct {
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if line[0] != '{' || json.Unmarshal(line, &m) != nil {
			why = "the far side sent a line that is not the protocol"
			break
		}
		if m.Result != nil || m.Error != nil {
			h.mu.Lock()
			if len(h.pending) > 0 {
				h.pending = h.pending[1:]
			}
			h.mu.Unlock()
			select {
			case h.popped <- struct{}{}:
			default:
			}
		}
		cn.wmu.Lock()
		cn.w.Write(line)
		cn.w.WriteByte('\n')
		var werr error
		if r.Buffered() == 0 { // more already here: flush once after it
			werr = cn.w.Flush()
		}
		cn.wmu.Unlock()
		if werr != nil {
			break
		}
	}
	h.mu.Lock()
	h.ended = true
	pending := h.pending
	h.pending = nil
	h.mu.Unlock()
	h.rw.Close()
	if cn.ctx.Err() != nil {
		return // the client left first
	}
	cn.wmu.Lock()
	cn.w.Flush()
	cn.wmu.Unlock()
	for _, id := range pending {
		e := h.droppedError()
		if why != "" {
			e.Message = "host " + h.host + ": " + why + "; a request sent before may or may not have run there"
		}
		cn.send(proto.Response{ID: id, Error: e})
	}
	cn.s.opt.Logf("host connection to %s ended (%d request(s) unanswered) %s", h.host, len(pending), why)
	cn.stop()
}

// drainHost runs when the client stops writing: the far answers still
// owed are delivered before the connection ends (a client that writes
// its requests and closes its writing half still reads them).
func (cn *conn) drainHost() {
	h := cn.host
	if h == nil {
		return
	}
	for {
		h.mu.Lock()
		n := len(h.pending)
		h.mu.Unlock()
		if n == 0 {
			break
		}
		select {
		case <-h.popped:
		case <-h.done:
			return
		case <-cn.closed:
			return
		}
	}
	h.rw.Close()
	<-h.done
}

// openHost opens a new stream to host's daemon: a fresh channel on the
// host's one ssh link running the far stdio-proxy, link-peer already said.
// The caller writes request lines and reads answer (and event) lines, and
// closes it when done. Errors: unknown_host, host_unreachable,
// incompatible.
func (s *Server) openHost(ctx context.Context, host string) (io.ReadWriteCloser, *proto.Error) {
	_, link, perr := s.links.upLink(host)
	if perr != nil {
		return nil, perr
	}
	rw, err := link.Open(ctx)
	if err != nil {
		return nil, linkError(host, err)
	}
	return rw, nil
}

// linkError turns a hosts error into the protocol's.
func linkError(host string, err error) *proto.Error {
	e := proto.Errorf(codeHostUnreachable, "host %s: %v", host, err)
	hint := proto.Hint{Command: "tuios hosts", Detail: "tuios hosts says why the link is down"}
	var he *hosts.Error
	if errors.As(err, &he) {
		e.Message = he.Error()
		if he.Hint() != "" {
			hint.Detail = he.Hint()
		}
		if he.Reason == hosts.ReasonIncompatible {
			e.Code = codeIncompatible
		}
	}
	return e.WithHint(hint)
}

// farStream is one channel to a host's daemon kept for hostCall.
type farStream struct {
	link *hosts.Link
	rw   io.ReadWriteCloser
	r    *bufio.Reader
	next int
}

// hostCall runs one verb on host's daemon over a stream of its own and
// decodes the result into result (nil drops it). It is for verbs that
// answer once (waits included); a stream of events wants openHost. An error the far daemon
// answered keeps its code; its text came from another machine and is data.
// The stream is kept for the next call when the answer came whole; ctx
// ending closes it (host_unreachable: no answer in time).
func (s *Server) hostCall(ctx context.Context, host, verb string, params, result any) *proto.Error {
	h, link, perr := s.links.upLink(host)
	if perr != nil {
		return perr
	}
	late := func() *proto.Error {
		return proto.Errorf(codeHostUnreachable, "host %s did not answer %s in time", host, clipText(verb, 64)).
			WithHint(proto.Hint{Command: "tuios hosts", Detail: "the far daemon may be busy or the link wedged; tuios hosts says its state"})
	}
	fs := h.takeIdle(link)
	if fs == nil {
		rw, err := link.Open(ctx)
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
	if perr != nil && perr.Code == codeHostUnreachable {
		fs.rw.Close()
		return perr
	}
	if verb == "subscribe" || verb == "attach" {
		fs.rw.Close() // its stream goes on: not a channel to share
	} else {
		h.putIdle(fs)
	}
	if perr != nil {
		return perr
	}
	if result != nil {
		if err := json.Unmarshal(raw, result); err != nil {
			return proto.Errorf(codeHostUnreachable, "host %s answered %s with a result that does not decode: %v", host, clipText(verb, 64), err)
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
		return nil, proto.Errorf(codeHostUnreachable, "the link dropped: %v", err).WithHint(proto.Hint{Command: "tuios hosts"})
	}
	for {
		line, err := proto.ReadLine(fs.r, proto.MaxLine)
		if err != nil {
			return nil, proto.Errorf(codeHostUnreachable, "the link dropped before %s was answered: %v", clipText(verb, 64), err).WithHint(proto.Hint{Command: "tuios hosts"})
		}
		var resp struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *proto.Error    `json:"error"`
		}
		if json.Unmarshal(line, &resp) != nil {
			return nil, proto.Errorf(codeHostUnreachable, "the far side sent a line that is not the protocol").WithHint(proto.Hint{Command: "tuios hosts"})
		}
		if resp.Result == nil && resp.Error == nil {
			continue // an event line
		}
		if string(resp.ID) != id {
			return nil, proto.Errorf(codeHostUnreachable, "the far side answered request %s, not %s", clipText(string(resp.ID), 32), id).WithHint(proto.Hint{Command: "tuios hosts"})
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
