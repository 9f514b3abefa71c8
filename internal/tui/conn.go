package tui

import (
	"bytes"
	"encoding/json"
	"errors"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/proto"
)

// request is one queued call. rest, when set, is the tail of a call
// already begun on the line (Call's direct write) that must go out
// before anything else.
type request struct {
	verb   string
	params any // a params type of internal/proto; send-text's is proto.SendTextParams
	tag    string
	rest   []byte
}

// conns are the client's two connections to the daemon: the stream,
// which only reads frames, and the call connection, where requests are
// written in order by one goroutine and their answers read by another,
// so typing is pipelined and the UI never waits on the socket. For a
// session on another host both go through this machine's daemon and its
// link (dialTo); a link that drops is redialled (remote_conn.go).
type conns struct {
	opt  Options
	send func(tea.Msg)

	mu    sync.Mutex
	queue []request
	busy  bool // the writer is sending a batch
	// keys: the pane input the daemon passed, for keys straight to the
	// pane (key_direct.go).
	keys keyInput
	wake chan struct{}
	done chan struct{}
	once sync.Once

	smu     sync.Mutex
	stream  *client.Client
	calls   *callLine // nil while a dropped link is redialled
	gen     int
	host    string // the session's host; "" is this machine
	home    string // this machine's session left for the host, to come back to
	session string // the attached session's name (on host)
	cols    int
	rows    int
	// watching: a goroutine lists this machine's sessions for the rail
	// while on a host (remote_local.go).
	watching bool
}

// callLine is one call connection and the requests sent on it that wait
// for their answers, in order. On a line to a daemon that takes quiet
// requests (this machine's, when its attach answer said so), a call whose
// answer nobody reads (no tag) is sent quiet: the daemon answers it only
// if it fails, so a key costs no answer line and no wakeup here.
type callLine struct {
	c       *client.Client
	quiet   bool
	pending chan request
	closed  chan struct{}
	once    sync.Once
}

func newCallLine(c *client.Client, quiet bool) *callLine {
	return &callLine{c: c, quiet: quiet, pending: make(chan request, 1024), closed: make(chan struct{})}
}

// trySend writes r on the line as TrySend does, quiet when it can be; a
// request that waits for its answer is queued for the reader first, and
// sent is false when that queue is full.
func (l *callLine) trySend(r request) (rest []byte, sent bool, err error) {
	if l.quiet && r.tag == "" {
		rest, err = l.c.TrySendQuiet(r.verb, r.params)
		return rest, true, err
	}
	select {
	case l.pending <- r:
	default:
		return nil, false, nil
	}
	rest, err = l.c.TrySend(r.verb, r.params)
	return rest, true, err
}

// end hangs the line up; its reader stops.
func (l *callLine) end() {
	l.once.Do(func() {
		close(l.closed)
		l.c.Close()
	})
}

func dial(opt Options) (*client.Client, error) {
	return client.Dial(client.Options{Socket: opt.Socket, Autostart: !opt.noAutostart, Typing: true, TakesFDs: opt.callLine})
}

// attachStream dials a stream connection (through host's link when host
// is not "") and attaches it to session. quiet: the daemon takes quiet
// requests, and it is this machine's (a host's answers are matched in
// order by the link, which forwards no quiet request).
func attachStream(opt Options, host, session string, cols, rows int) (st *client.Client, nonce, name string, quiet bool, err error) {
	c, err := dialTo(opt, host)
	if err != nil {
		return nil, "", "", false, err
	}
	var res proto.Attached
	if host != "" {
		c.SetDeadline(time.Now().Add(farSetup)) // remote_conn.go
	}
	params := proto.AttachParams{Client: "tuios-client", Session: session, Stream: true, Cols: &cols, Rows: &rows}
	if host == "" {
		// This daemon hands this client the leader chords send-keys gets
		// (leader_keys.go). Not to another host's: a daemon that predates
		// the param would refuse the attach (an empty one is not sent).
		params.Prefix = opt.leader()
	}
	err = c.Call("attach", params, &res)
	if err != nil {
		c.Close()
		return nil, "", "", false, err
	}
	c.SetDeadline(time.Time{})
	if res.Session == "" {
		res.Session = session
	}
	return c, res.HumanNonce, res.Session, res.QuietRequests && host == "", nil
}

// start runs the goroutines; send delivers messages to the program.
func (c *conns) start(send func(tea.Msg)) {
	c.send = send
	c.wake = make(chan struct{}, 1)
	c.done = make(chan struct{})
	go c.writer()
	c.smu.Lock()
	st, gen, line := c.stream, c.gen, c.calls
	c.smu.Unlock()
	go c.reader(line)
	go c.readStream(st, gen)
	if c.host != "" {
		c.watchLocal() // remote_local.go
	}
}

// close hangs up both connections.
func (c *conns) close() {
	c.once.Do(func() {
		c.mu.Lock()
		c.letGo() // key_direct.go
		c.keys.off = true
		if c.keys.timer != nil {
			c.keys.timer.Stop()
		}
		c.mu.Unlock()
		close(c.done)
		c.smu.Lock()
		c.gen++
		if c.calls != nil {
			c.calls.end()
		}
		if c.stream != nil {
			c.stream.Close()
		}
		c.smu.Unlock()
	})
}

// Call queues a request; it never blocks. When nothing waits before it,
// it is written at once from the caller's goroutine, as far as the socket
// takes it without waiting: a typed key then leaves before the frame
// after it is drawn, rather than when the writer next gets a CPU.
//
// A person's key for the pane whose input the client holds is written
// to the pane itself (key_direct.go); one sent over the socket may ask
// for that input, behind it.
func (c *conns) Call(verb string, params any, tag string) {
	r := request{verb: verb, params: params, tag: tag}
	c.mu.Lock()
	if c.writeKey(&r) {
		c.mu.Unlock()
		return
	}
	queued := c.callLocked(r)
	if ask, ok := c.askInput(r); ok {
		queued = c.callLocked(ask) || queued
	}
	c.mu.Unlock()
	if queued {
		c.poke()
	}
}

// callLocked sends r at once when nothing waits before it, else queues
// it: queued says the writer must be poked. Called with c.mu held.
func (c *conns) callLocked(r request) (queued bool) {
	if len(c.queue) == 0 && !c.busy && c.direct(&r) {
		return false
	}
	c.queue = append(c.queue, r)
	return true
}

// poke wakes the writer.
func (c *conns) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Switch re-attaches the stream to another session of the same host,
// off the UI goroutine.
func (c *conns) Switch(session string, cols, rows int) {
	go func() {
		c.smu.Lock()
		host := c.host
		c.smu.Unlock()
		st, nonce, name, _, err := attachStream(c.opt, host, session, cols, rows)
		if err != nil {
			c.send(replyMsg{verb: "attach", err: err})
			return
		}
		c.smu.Lock()
		if c.host != host || c.calls == nil {
			// The link dropped (or the host changed) meanwhile: the
			// redial attaches what it attaches.
			c.smu.Unlock()
			st.Close()
			return
		}
		old := c.stream
		c.gen++
		gen := c.gen
		c.stream, c.session, c.cols, c.rows = st, name, cols, rows
		c.smu.Unlock()
		old.Close()
		c.send(attachedMsg{nonce: nonce, session: name})
		c.readStream(st, gen)
	}()
}

// direct writes r on the call line now, without waiting; false when it
// must be queued instead. A tail the socket did not take goes first in
// the queue. Called with c.mu held and the writer idle.
func (c *conns) direct(r *request) bool {
	c.smu.Lock()
	line := c.calls
	c.smu.Unlock()
	if line == nil || c.send == nil {
		return false
	}
	rest, sent, err := line.trySend(*r)
	if !sent {
		return false
	}
	if err != nil {
		go c.callsGone(line, err)
		return true
	}
	if rest != nil {
		c.queue = append(c.queue, request{rest: rest})
		select {
		case c.wake <- struct{}{}:
		default:
		}
	}
	return true
}

func (c *conns) writer() {
	for {
		select {
		case <-c.done:
			return
		case <-c.wake:
		}
		c.mu.Lock()
		batch := c.queue
		c.queue = nil
		c.busy = true
		c.mu.Unlock()
		c.sendBatch(batch)
		c.mu.Lock()
		c.busy = false
		c.mu.Unlock()
	}
}

// sendBatch writes a batch of queued calls in order.
func (c *conns) sendBatch(batch []request) {
	for _, r := range coalesce(batch) {
		c.smu.Lock()
		line := c.calls
		c.smu.Unlock()
		if r.rest != nil {
			if line != nil {
				if err := line.c.WriteRest(r.rest); err != nil {
					c.callsGone(line, err)
				}
			}
			continue
		}
		if line == nil {
			c.refuse(r)
			continue
		}
		if line.quiet && r.tag == "" {
			if err := line.c.SendQuiet(r.verb, r.params); err != nil {
				c.callsGone(line, err)
			}
			continue
		}
		select {
		case line.pending <- r:
		case <-line.closed:
			c.refuse(r)
			continue
		case <-c.done:
			return
		}
		if err := line.c.Send(r.verb, r.params); err != nil {
			c.callsGone(line, err)
		}
	}
}

// coalesce joins runs of untagged send-text to the same window into one
// call: a burst of keys costs one round trip.
func coalesce(batch []request) []request {
	out := batch[:0:0]
	for _, r := range batch {
		if n := len(out); n > 0 && r.tag == "" && out[n-1].tag == "" && r.rest == nil && out[n-1].rest == nil {
			prev, ok1 := typedText(out[n-1])
			next, ok2 := typedText(r)
			if ok1 && ok2 && prev.Window == next.Window && prev.Session == next.Session {
				prev.Text += next.Text
				out[n-1] = request{verb: "send-text", params: prev}
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

// typedText is r's params when r is a send-text.
func typedText(r request) (proto.SendTextParams, bool) {
	p, ok := r.params.(proto.SendTextParams)
	return p, ok && r.verb == "send-text"
}

// reader reads the answers of one call line, in the order its requests
// were sent, until the line ends (hanging up ends Receive). A quiet
// request's failure answers none of them: it is said on its own.
func (c *conns) reader(line *callLine) {
	for {
		var raw json.RawMessage
		err := line.c.Receive(&raw)
		var qe *client.QuietError
		if errors.As(err, &qe) {
			c.send(replyMsg{verb: qe.Verb, err: qe.Err})
			continue
		}
		var pe *proto.Error
		if err != nil && !errors.As(err, &pe) {
			c.callsGone(line, err)
			return
		}
		var r request
		select {
		case r = <-line.pending:
		default:
			continue // an answer nothing waits for (every request is queued before it is sent)
		}
		if r.tag == inputTag {
			c.inputAnswer(line, r, raw, err) // key_direct.go
			continue
		}
		if r.tag != "" || err != nil {
			c.send(replyMsg{tag: r.tag, verb: r.verb, raw: raw, err: err})
		}
	}
}

// gone reports a broken connection, unless we hung up ourselves. On a
// host, the link is redialled instead (remote_conn.go).
func (c *conns) gone(err error) {
	select {
	case <-c.done:
		return
	default:
	}
	c.smu.Lock()
	remote := c.host != ""
	c.smu.Unlock()
	if remote {
		c.linkDown(err)
		return
	}
	c.send(streamGoneMsg{err: err})
}

// callsGone is gone for a call line, unless it was already replaced.
func (c *conns) callsGone(line *callLine, err error) {
	c.smu.Lock()
	current := c.calls == line
	c.smu.Unlock()
	if current {
		c.gone(err)
	}
}

// readStream turns the stream's lines into messages until it ends. A
// stream replaced by Switch ends quietly.
func (c *conns) readStream(st *client.Client, gen int) {
	current := func() bool {
		c.smu.Lock()
		defer c.smu.Unlock()
		return c.gen == gen
	}
	for {
		raw, err := st.NextLine()
		if err != nil {
			if current() {
				c.gone(err)
			}
			return
		}
		var head struct {
			Type string `json:"type"`
		}
		// The daemon writes the type first: most lines are screens, read
		// once rather than twice, and without reflection when they have
		// the daemon's shape (proto.ParseAttachScreen).
		if bytes.HasPrefix(raw, []byte(`{"type":"screen"`)) {
			head.Type = "screen"
		} else if json.Unmarshal(raw, &head) != nil {
			continue
		}
		var msg tea.Msg
		switch head.Type {
		case "layout":
			var l proto.AttachLayout
			if json.Unmarshal(raw, &l) == nil {
				msg = l
				if current() {
					c.focusSeen(l.Session, l.Focused) // key_direct.go
				}
			}
		case "screen":
			var s proto.AttachScreen
			if proto.ParseAttachScreen(raw, &s) == nil || json.Unmarshal(raw, &s) == nil {
				msg = s
			}
		case "bell":
			var b proto.AttachBell
			if json.Unmarshal(raw, &b) == nil {
				msg = b
			}
		case "keys": // a leader chord from send-keys (leader_keys.go)
			var k proto.AttachKeys
			if json.Unmarshal(raw, &k) == nil {
				msg = k
			}
		case "detached":
			var e proto.AttachEnd
			json.Unmarshal(raw, &e)
			if current() {
				c.send(e)
			}
			return
		}
		if msg != nil && current() {
			c.send(msg)
		}
	}
}
