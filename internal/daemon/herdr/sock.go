package herdr

// The socket: agents that report to herdr (Crush, Kiro CLI and
// others) find it through HERDR_SOCKET_PATH and speak herdr's wire to it,
// so they need no install step. It is the daemon socket plus ".herdr", in
// the same private directory; herdr's own socket is never touched.
//
// Wire (herdr's): one request per connection, one JSON line each way, then
// close; events.subscribe alone keeps streaming. Errors are herdr's shape,
// {"id","error":{"code","message"}}, never tuios's hint-carrying one.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/sock"
)

// herdr's wire limits.
const (
	herdrVersion  = "0.9.3+tuios"
	herdrProtocol = 22
	// herdrMaxLine caps one request line (1 MiB).
	herdrMaxLine = 1 << 20
	// herdrDeadline bounds reading the request and writing the answer;
	// waits run as long as their own timeout.
	herdrDeadline = 2 * time.Second
	// herdrSeqTable bounds the seq high-water table; past it the table is
	// cleared (an old reporter's next report is then accepted once more).
	herdrSeqTable = 4096
	// herdrMaxWait caps a wait's timeout_ms (24 h).
	herdrMaxWait = 24 * time.Hour
)

// Err is an error in herdr's shape: a stable code and a message.
type Err struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func errorf(code, msg string) *Err { return &Err{Code: code, Message: msg} }

// herdrRequest is one request line as herdr's schema has it.
type herdrRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// Sock serves the herdr socket for one daemon.
type Sock struct {
	core core.Host
	path string
	// bin is the herdr link panes get as HERDR_BIN_PATH ("" when it could
	// not be made: the tuios binary is named instead).
	bin string

	// deadline bounds reading a request and writing an answer:
	// herdrDeadline, longer only in tests that hold idle connections on
	// a loaded machine (nanoseconds, read per connection).
	deadline atomic.Int64

	// limits are the socket's caps (limits.go); admitting holds a
	// slot for each accepted connection not yet placed and counted.
	limits    Limits
	admitting chan struct{}

	mu      sync.Mutex
	ln      net.Listener
	conns   map[string]int // open connections per pane (connKey)
	streams map[string]int // open event streams per pane (connKey)
	open    map[net.Conn]struct{}
	// seq is the high-water table: the last seq taken per pane and
	// source (state and release share one mark, metadata has its own).
	seq map[herdrSeqKey]uint64
	// rate is each pane's metadata/notification bucket.
	rate map[string]*herdrBucket
	// watch is each reporting pane's crash watch (report.go).
	watch map[string]*herdrWatch
	wg    sync.WaitGroup
}

type herdrSeqKey struct {
	pane, source string
	meta         bool
}

// New makes the herdr socket feature; Init adds it to a daemon, beside
// whose control socket it listens once the daemon holds that one.
func New() *Sock {
	return &Sock{
		limits: DefaultLimits(),
		conns:  map[string]int{}, streams: map[string]int{}, open: map[net.Conn]struct{}{},
		seq: map[herdrSeqKey]uint64{}, rate: map[string]*herdrBucket{}, watch: map[string]*herdrWatch{},
	}
}

var _ core.Feature = (*Sock)(nil)

// Name is "herdr".
func (h *Sock) Name() string { return "herdr" }

// Init adds the socket to the daemon c: panes started while it is served
// get herdr's variables, a caller's herdr variables may place it, and
// the socket is served once the daemon holds its own (before the first
// pane starts, so a restored pane gets the variables too).
func (h *Sock) Init(c core.Host) error {
	h.core, h.path = c, c.Options().Socket+".herdr"
	c.OnPaneStart(h.paneVars)              // env.go
	c.OnPaneEnviron("HERDR_", h.namesPane) // env.go
	c.OnListen(func() {
		// A daemon without it still serves everything else.
		if err := h.Listen(); err != nil {
			c.Log().Warnf("herdr socket %s: %v (agents that report to herdr are not heard)", h.path, err)
		}
	})
	return nil
}

// Shutdown is Close.
func (h *Sock) Shutdown(context.Context) error {
	h.Close()
	return nil
}

// mode is [agents] herdr_protocol; off whatever it says when [agents]
// enabled = false, which keeps only the multiplexer: no herdr socket, and
// no pane gets herdr's variables.
func (h *Sock) mode() string {
	o := h.core.Options()
	if o.AgentsOff {
		return "off"
	}
	return o.Config.HerdrMode()
}

// Listen takes the herdr socket beside the daemon's own (whose directory
// the daemon already checked) and makes the herdr link; the daemon holds
// the main socket, so a file left at this path is a dead daemon's.
func (h *Sock) Listen() error {
	if h.mode() == "off" {
		return nil
	}
	os.Remove(h.path)
	ln, err := net.Listen("unix", h.path)
	if err != nil {
		return err
	}
	os.Chmod(h.path, 0o600)
	h.bin = h.makeLink()
	h.mu.Lock()
	h.admitting = make(chan struct{}, max(1, h.limits.MaxAdmitting))
	h.ln = ln
	h.mu.Unlock()
	h.wg.Add(1)
	go h.serve(ln)
	return nil
}

// makeLink makes <runtime dir>/herdr/bin/herdr, a link to the tuios
// binary: invoked by that name tuios speaks herdr's CLI (cli.HerdrMain).
// It is in a directory of its own, never on PATH.
func (h *Sock) makeLink() string {
	o := h.core.Options()
	exe := o.Executable
	if exe == "" {
		return ""
	}
	dir := filepath.Join(filepath.Dir(o.Socket), "herdr", "bin")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return exe
	}
	link := filepath.Join(dir, "herdr")
	if cur, err := os.Readlink(link); err == nil && cur == exe {
		return link
	}
	os.Remove(link)
	if err := os.Symlink(exe, link); err != nil {
		return exe
	}
	return link
}

// Path is the herdr socket's path.
func (h *Sock) Path() string { return h.path }

// Live says whether the herdr socket is served.
func (h *Sock) Live() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ln != nil
}

// Close stops accepting, ends every connection and removes the socket.
func (h *Sock) Close() {
	h.mu.Lock()
	ln := h.ln
	h.ln = nil
	for c := range h.open {
		c.Close()
	}
	for _, w := range h.watch {
		w.stop()
	}
	h.mu.Unlock()
	if ln != nil {
		ln.Close() // unlinks h.path: never remove it by name, it may be the next daemon's by now
	}
	h.wg.Wait()
}

func (h *Sock) serve(ln net.Listener) {
	defer h.wg.Done()
	var delay time.Duration
	for {
		select {
		case h.admitting <- struct{}{}: // given back once placed (serveConn)
		case <-h.core.Done():
			return
		}
		c, err := ln.Accept()
		if err != nil {
			<-h.admitting
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of descriptors or an aborted handshake: back off, as the
			// main socket does, rather than stop answering reporters.
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			select {
			case <-time.After(delay):
			case <-h.core.Done():
				return
			}
			continue
		}
		delay = 0
		h.mu.Lock()
		if h.ln == nil {
			h.mu.Unlock()
			<-h.admitting
			c.Close()
			return
		}
		if len(h.open) >= h.limits.MaxConns {
			h.mu.Unlock()
			<-h.admitting
			herdrRefuse(c, nil, errorf(proto.CodeRateLimited, "the herdr socket holds "+strconv.Itoa(h.limits.MaxConns)+" connections, its cap"))
			continue
		}
		h.open[c] = struct{}{}
		h.wg.Add(1)
		h.mu.Unlock()
		go h.serveConn(c)
	}
}

// admitConn checks the caller's uid, places it and counts it against its
// pane (connKey); it says why a connection is refused.
func (h *Sock) admitConn(c net.Conn) (key string, pid int, pl core.Placement, herr *Err) {
	defer func() { <-h.admitting }()
	cred, err := sock.Peer(c)
	if err != nil || cred.UID != h.core.Options().UID {
		return "", 0, pl, errorf("forbidden", "this daemon serves only the user that runs it")
	}
	pl = h.core.Locate(cred.PID)
	key = connKey(pl, cred.PID)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.conns[key] >= h.limits.PerKey {
		who := "this process holds"
		if strings.HasPrefix(key, "pane:") {
			who = "this pane's processes hold"
		}
		return "", 0, pl, errorf(proto.CodeRateLimited, who+" "+strconv.Itoa(h.limits.PerKey)+" open connections to the herdr socket, the cap")
	}
	h.conns[key]++
	return key, cred.PID, pl, nil
}

// herdrRefuse answers a connection that will not be served and closes it.
func herdrRefuse(c net.Conn, id json.RawMessage, e *Err) {
	c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	writeHerdr(c, id, nil, e)
	c.Close()
}

// writeHerdr writes one answer line: result or error, never both (an
// error wins), with the id echoed when the request had a string id.
func writeHerdr(c net.Conn, id json.RawMessage, res any, e *Err) error {
	if e != nil {
		res = nil
	}
	out := struct {
		ID     json.RawMessage `json:"id,omitempty"`
		Result any             `json:"result,omitempty"`
		Error  *Err            `json:"error,omitempty"`
	}{ID: id, Result: res, Error: e}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = c.Write(append(b, '\n'))
	return err
}

// herdrCall is one request being answered.
type herdrCall struct {
	h    *Sock
	c    net.Conn
	peer int
	key  string // what its connection counts against (connKey)
	// ctx ends when the client hangs up (watched only while a wait or a
	// stream runs) or the daemon stops.
	ctx context.Context
	// placed/pane: the window the caller runs in, found once, from the
	// kernel's word on its pid.
	placed bool
	pane   string
	// gc is the call the method was admitted as (gate.go): the target
	// check reads its caller.
	gc     core.Call
	inside bool // on the daemon's side (the core's placement), pane known or not
	// r is the reader the request came from: a wait watches it for the
	// client's hang-up (gone ends then; goneOnce starts that watch).
	r        *bufio.Reader
	goneOnce sync.Once
	gone     context.Context
}

func (h *Sock) serveConn(c net.Conn) {
	defer h.wg.Done()
	key, peer, pl, refused := h.admitConn(c)
	defer func() {
		c.Close()
		h.mu.Lock()
		delete(h.open, c)
		if refused == nil {
			if h.conns[key]--; h.conns[key] <= 0 {
				delete(h.conns, key)
			}
		}
		h.mu.Unlock()
	}()
	if refused != nil {
		c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		writeHerdr(c, nil, nil, refused)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // the daemon stopping ends a wait at once
		select {
		case <-h.core.Done():
			cancel()
		case <-ctx.Done():
		}
	}()
	c.SetDeadline(time.Now().Add(h.ioDeadline()))
	r := bufio.NewReaderSize(c, 8<<10)
	line, err := proto.ReadLineWithin(r, herdrMaxLine, h.core.Budget())
	switch {
	case errors.Is(err, proto.ErrLineTooLong):
		writeHerdr(c, nil, nil, errorf(proto.CodeInvalidRequest, "the request line is over the 1 MiB cap"))
		return
	case errors.Is(err, proto.ErrBudget):
		writeHerdr(c, nil, nil, errorf(proto.CodeRateLimited, "the daemon holds too much unfinished input; send the request again in a moment"))
		return
	case err != nil:
		return
	}
	defer h.core.Budget().Release(len(line))
	if len(strings.TrimSpace(string(line))) == 0 {
		return // an empty line closes silently, as herdr does
	}
	call := &herdrCall{h: h, c: c, peer: peer, key: key, ctx: ctx, r: r,
		placed: true, pane: pl.Pane, inside: pl.Inside}
	id, res, herr := call.handle(line)
	if st, ok := res.(*herdrStream); ok {
		call.stream(id, st)
		return
	}
	c.SetWriteDeadline(time.Now().Add(h.ioDeadline()))
	writeHerdr(c, id, res, herr)
}

// parseHerdrRequest reads one request line. On failure it still returns
// the id when a string id could be read, so the error can echo it.
func parseHerdrRequest(line []byte) (herdrRequest, *Err) {
	var req herdrRequest
	if err := json.Unmarshal(line, &req); err != nil {
		var idOnly struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(line, &idOnly) == nil && isJSONString(idOnly.ID) {
			req.ID = idOnly.ID
		} else {
			req.ID = nil
		}
		return req, errorf(proto.CodeInvalidRequest, "invalid request: "+core.Clip(err.Error(), 200))
	}
	if !isJSONString(req.ID) {
		req.ID = nil // herdr's ids are strings; anything else is not echoed
	}
	if req.Method == "" {
		return req, errorf(proto.CodeInvalidRequest, "missing field `method`")
	}
	if len(req.Params) > 0 && !isJSONObject(req.Params) && string(req.Params) != "null" {
		return req, errorf(proto.CodeInvalidRequest, "invalid type: params must be an object")
	}
	return req, nil
}

func isJSONString(b json.RawMessage) bool { return len(b) >= 2 && b[0] == '"' }

func isJSONObject(b json.RawMessage) bool {
	t := strings.TrimSpace(string(b))
	return strings.HasPrefix(t, "{")
}

// handle parses and runs one request. A method that panics is a bug: the
// caller gets internal and the daemon goes on.
func (call *herdrCall) handle(line []byte) (id json.RawMessage, res any, herr *Err) {
	req, herr := parseHerdrRequest(line)
	if herr != nil {
		return req.ID, nil, herr
	}
	defer func() {
		if r := recover(); r != nil {
			call.h.core.Log().Errorf("panic in herdr %s: %v", core.Clip(req.Method, 64), r)
			res, herr = nil, errorf(proto.CodeInternal, "the daemon failed on "+core.Clip(req.Method, 64)+" (a bug; it goes on running)")
		}
	}()
	p, herr := parseHerdrParams(req.Params)
	if herr != nil {
		return req.ID, nil, herr
	}
	res, herr = call.h.method(call, req.Method, p)
	return req.ID, res, herr
}

// place finds the caller's window once, from its pid as the kernel gives
// it, never from anything the caller says.
func (call *herdrCall) place() string {
	if !call.placed {
		call.placed = true
		pl := call.h.core.Locate(call.peer)
		call.pane, call.inside = pl.Pane, pl.Inside
	}
	return call.pane
}

// hangup returns a context that ends when the client closes its end: a
// wait whose client is gone ends at once. One watcher reads the
// connection per request, however many verbs the method runs (two
// readers of one bufio.Reader would race); it ends when the connection
// closes.
func (call *herdrCall) hangup() (context.Context, context.CancelFunc) {
	call.goneOnce.Do(func() {
		ctx, cancel := context.WithCancel(call.ctx)
		call.gone = ctx
		call.c.SetReadDeadline(time.Time{})
		go func() {
			var b [1]byte
			for {
				if _, err := call.r.Read(b[:]); err != nil {
					cancel()
					return
				}
			}
		}()
	})
	return context.WithCancel(call.gone)
}

func (h *Sock) ioDeadline() time.Duration {
	if d := time.Duration(h.deadline.Load()); d > 0 {
		return d
	}
	return herdrDeadline
}
