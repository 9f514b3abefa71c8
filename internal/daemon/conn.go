package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tuios/tuios/internal/daemon/links"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/rawio"
	"github.com/tuios/tuios/internal/sock"
)

// conn is one client connection. Its own goroutine reads request lines and
// a worker answers them in order, so the connection is read while a
// request runs: a client that hangs up ends what it was waiting for at
// once (ctx), instead of holding a descriptor and goroutines until its
// timeout.
type conn struct {
	s *Server
	c net.Conn

	// peer is the caller's pid from the kernel (0 when unknown); placedID
	// is the window the caller runs in ("" for none), found once.
	peer     int
	placed   bool
	placedID string
	placedBy string // how placedID was found: ancestry, session or token
	// inside: the caller is on the daemon's side (in a pane, from one, or
	// started by the daemon), whether or not its pane is known; it is
	// never the person (boundary.go).
	inside bool
	// where is whether the caller is outside every pane or inside one
	// (placedOutside, placedInside; 0 until placed, caller.go).
	where int8
	// own marks a connection the daemon makes for itself (the queue's
	// typist): it acts on the daemon's own behalf.
	own bool
	// restrict narrows what this connection may do (restrict-connection).
	restrict *mux.Restriction
	// The call running now, as admit left it (gate.go): who made it
	// (when known), what the verb declares, and its name.
	call      mux.Caller
	callKnown bool
	acc       access
	verbName  string

	// inflight counts the requests handed to the worker and not yet
	// done; quick is set while the reading goroutine runs a request
	// itself (conn_quick.go).
	inflight atomic.Int32
	quick    bool

	ctx    context.Context
	cancel context.CancelFunc
	// closed is ctx.Done(): the client hung up or the daemon is stopping.
	closed <-chan struct{}

	// cmu guards c against stop while streamSocket replaces it; c is
	// replaced only before the worker has a request in hand.
	cmu sync.Mutex
	// moved: c is a rawio.Conn (conn_stream.go).
	moved     bool
	wmu       sync.Mutex
	w         *bufio.Writer
	sub       *subscriber
	streaming bool
	// streamDone is closed when the stream of sub has written its last
	// event: unsubscribe answers after it (verbs_session_meta.go).
	streamDone chan struct{}
	// attaching is the attach stream to start once the attached reply is
	// sent; attached is that stream once started (attach_stream.go).
	attaching *attachStream
	attached  *attachStream

	// link is set when the connection is another machine's link (a
	// stdio-proxy that said link-peer): every verb then passes the link
	// policy first (link_policy.go). nil for local callers.
	link *linkPeer
	// passFDs are the descriptors attach-input passes with its answer,
	// for the grant passed (attach_input.go).
	passFDs []int
	passed  *inputGrant
	// host is set once open-host-connection succeeded: every later
	// request line goes to that host's daemon and its answers come back
	// as they are (links/conn.go).
	host *links.Conn
}

// request is one line read, or why it was refused before parsing.
type request struct {
	line []byte
	err  *proto.Error
}

func newConn(s *Server, c net.Conn) *conn {
	ctx, cancel := context.WithCancel(context.Background())
	// Raw calls (internal/rawio): an attached client's key and its echo
	// are a read and a write here, and the ordinary calls wake the
	// runtime's monitor thread for each.
	return &conn{s: s, c: c, ctx: ctx, cancel: cancel, closed: ctx.Done(), w: bufio.NewWriterSize(rawio.NewWriter(c), 8<<10)}
}

// stop ends the connection: its requests' waits end and its socket closes.
func (cn *conn) stop() {
	cn.cancel()
	cn.cmu.Lock()
	c := cn.c
	cn.cmu.Unlock()
	c.Close()
}

// dropConn stops counting cn against the overall cap. A refused
// connection is dropped before its refusal is written, so a client that
// read one finds the slot free at once.
func (s *Server) dropConn(cn *conn) {
	s.connMu.Lock()
	delete(s.conns, cn)
	s.connMu.Unlock()
}

func (s *Server) serveConn(cn *conn) {
	defer s.wg.Done()
	defer func() {
		cn.stop()
		if cn.sub != nil {
			s.hub.Remove(cn.sub)
		}
		s.dropConn(cn)
	}()
	// The socket is private to this user; the kernel's word on the peer
	// is checked anyway, before anything is read.
	cred, err := sock.Peer(cn.c)
	if err != nil || cred.UID != s.uid {
		<-s.admitting
		s.dropConn(cn)
		refuse(cn.c, proto.Errorf(proto.CodeForbidden, "this daemon serves only the user that runs it"))
		return
	}
	cn.peer = cred.PID
	// Placed now, once, and counted against its pane (conn_caps.go).
	s.place(cn)
	release, perr := s.admitConn(cn) // conn_caps.go
	<-s.admitting
	if perr != nil {
		s.dropConn(cn)
		refuse(cn.c, perr)
		return
	}
	defer release()

	reqs := make(chan request, maxPipeline)
	done := make(chan struct{})
	go func() {
		defer close(done)
		cn.work(reqs)
	}()
	cn.read(reqs, done)
	close(reqs)
	if cn.ctx.Err() == nil {
		// Half-closed: the client may still read its answers, or may be
		// gone without the kernel saying so yet; look now and then
		// while a request still runs.
		t := time.NewTicker(hangupProbe)
	probe:
		for {
			select {
			case <-done:
				break probe
			case <-t.C:
				if sock.HungUp(cn.c) {
					cn.stop()
				}
			}
		}
		t.Stop()
	}
	<-done
	for rq := range reqs { // left unanswered by a worker that stopped early
		s.budget.Release(len(rq.line))
	}
}

// read reads request lines until the client stops writing or hangs up.
func (cn *conn) read(reqs chan<- request, done <-chan struct{}) {
	src := &connSource{r: rawio.NewReader(cn.c)}
	r := bufio.NewReaderSize(src, 8<<10)
	for {
		line, err := proto.ReadLineWithin(r, proto.MaxLine, cn.s.budget)
		var rq request
		switch {
		case err == nil:
			if len(line) == 0 {
				continue
			}
			rq.line = line
		case errors.Is(err, proto.ErrLineTooLong):
			rq.err = proto.Errorf(proto.CodeInvalidRequest, "the request line is over the 16 MB cap")
		case errors.Is(err, proto.ErrBudget):
			rq.err = proto.Errorf(proto.CodeRateLimited, "the daemon holds too much unfinished input from its clients; the request was dropped").
				WithHint(proto.Hint{Detail: "send it again in a moment"})
		default:
			// EOF or an error: a client that closed only its writing half
			// still reads its answers; one that is gone entirely ends
			// what it waits for.
			if sock.HungUp(cn.c) {
				cn.stop()
			}
			return
		}
		if rq.err == nil && cn.quickType(rq) { // conn_quick.go
			continue
		}
		if rq.err == nil {
			cn.streamSocket(rq.line, src) // conn_stream.go
		}
		cn.inflight.Add(1)
		select {
		case reqs <- rq:
		case <-done:
			cn.s.budget.Release(len(rq.line))
			return
		}
	}
}

// work answers requests in order.
func (cn *conn) work(reqs <-chan request) {
	defer cn.endAttach()
	defer cn.drainHost() // host_links.go: far answers still owed are delivered first
	for rq := range reqs {
		stop := cn.serve(rq)
		cn.inflight.Add(-1)
		if stop {
			return
		}
	}
}

// serve answers one request on the worker; stop after kill-server.
func (cn *conn) serve(rq request) (stop bool) {
	if cn.attached != nil {
		cn.refuseOnStream(rq)
		return false
	}
	if cn.host != nil {
		cn.host.Forward(rq.line, rq.err)
		cn.s.budget.Release(len(rq.line))
		return false
	}
	resp, kill, quiet := cn.handle(rq)
	cn.s.budget.Release(len(rq.line))
	if kill {
		// The answer means every pane's processes are gone, so a
		// script that goes on after kill-server finds nothing left;
		// the socket is closed first, so what it calls next starts the
		// next daemon instead of reaching this one on its way out; and
		// the escapees are written down before, so that next daemon
		// keeps them inside.
		cn.s.stopAccepting()
		cn.s.freezeState()
		cn.s.closeAllWindows()
		cn.s.escaped.save(cn.s)
	}
	if cn.passFDs != nil {
		cn.passInputFDs(resp, quiet) // attach_input.go
	} else if !quiet || resp.Error != nil {
		cn.send(resp)
	}
	if cn.sub != nil && !cn.streaming {
		cn.streaming = true
		cn.streamDone = make(chan struct{})
		go func(sub *subscriber, done chan struct{}) {
			defer close(done)
			cn.stream(sub)
		}(cn.sub, cn.streamDone)
	}
	if cn.attaching != nil {
		cn.attached, cn.attaching = cn.attaching, nil
		go cn.attached.run()
	}
	if kill {
		go cn.s.Close()
		return true
	}
	return false
}

// handle runs one request line. quiet: the request asked for no answer
// unless it fails (proto.Request.Quiet).
func (cn *conn) handle(rq request) (resp proto.Response, kill, quiet bool) {
	if rq.err != nil {
		return proto.Response{Error: rq.err}, false, false
	}
	req, perr := proto.ParseRequest(rq.line)
	if perr != nil {
		return proto.Response{ID: req.ID, Error: perr}, false, false
	}
	return cn.handleRequest(req)
}

// handleRequest runs one parsed request.
func (cn *conn) handleRequest(req proto.Request) (resp proto.Response, kill, quiet bool) {
	if req.Quiet {
		if v := cn.s.verbs.Lookup(req.Verb); v != nil && v.Access&holdsConn != 0 {
			return proto.Response{ID: req.ID, Error: proto.Errorf(proto.CodeInvalidRequest, "%s cannot be quiet: it streams, waits or changes its connection, and its answer says how", req.Verb).
				WithHint(proto.Hint{Detail: "send it without quiet"})}, false, false
		}
	}
	if req.PaneToken != "" {
		cn.s.showToken(cn, req.PaneToken) // boundary.go
	}
	res, herr := cn.s.dispatch(cn, req)
	if herr != nil {
		return proto.Response{ID: req.ID, Error: herr}, false, req.Quiet
	}
	k, ok := res.(proto.ServerKilled)
	return proto.Response{ID: req.ID, Result: res}, ok && k.Type == "server_killed", req.Quiet
}

// dispatch runs one verb. A handler that panics is a bug: the caller gets
// internal, the log gets the stack, and the daemon and its panes live on.
func (s *Server) dispatch(cn *conn, req proto.Request) (res any, perr *proto.Error) {
	v := s.verbs.Lookup(req.Verb)
	if v == nil {
		return nil, proto.Errorf(proto.CodeUnknownVerb, "unknown verb %q", clipText(req.Verb, 64)).
			WithHint(proto.Hint{DidYouMean: s.verbs.Nearest(req.Verb), Command: `{"verb":"list-verbs"}`})
	}
	defer s.debugVerb(req.Verb, s.clock.Now(), &perr) // log.go: --log-level debug
	defer func() {
		if r := recover(); r != nil {
			s.errorf("panic in %s: %v\n%s", req.Verb, r, debug.Stack())
			res, perr = nil, proto.Errorf(proto.CodeInternal, "the daemon failed on %s (a bug; it goes on running)", req.Verb)
		}
	}()
	cn.verbName = req.Verb
	if err := s.admit(cn, req.Verb, v.Access); err != nil { // gate.go
		return nil, err
	}
	return v.Run(cn, req.Params)
}

func (cn *conn) send(resp proto.Response) error {
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	if err := proto.Encode(cn.w, resp); err != nil {
		return err
	}
	return cn.w.Flush()
}

// sendRaw writes one event line.
func (cn *conn) sendRaw(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	cn.w.Write(append(b, '\n'))
	return cn.w.Flush()
}

// clipText keeps text a caller sent short in an error message.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
