package tui

import (
	"encoding/json"
	"errors"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/proto"
)

// request is one queued call.
type request struct {
	verb   string
	params map[string]any
	tag    string
}

// conns are the client's two connections to the daemon: the stream,
// which only reads frames, and the call connection, where requests are
// written in order by one goroutine and their answers read by another,
// so typing is pipelined and the UI never waits on the socket.
type conns struct {
	opt  Options
	send func(tea.Msg)

	calls   *client.Client
	mu      sync.Mutex
	queue   []request
	wake    chan struct{}
	pending chan request
	done    chan struct{}
	once    sync.Once

	smu    sync.Mutex
	stream *client.Client
	gen    int
}

func dial(opt Options) (*client.Client, error) {
	return client.Dial(client.Options{Socket: opt.Socket, Autostart: true})
}

// attachStream dials a stream connection and attaches it to session.
func attachStream(opt Options, session string, cols, rows int) (*client.Client, string, string, error) {
	c, err := dial(opt)
	if err != nil {
		return nil, "", "", err
	}
	var res struct {
		Nonce   string `json:"human_nonce"`
		Session string `json:"session"`
	}
	err = c.Call("attach", map[string]any{"client": "tuios-client", "session": session, "stream": true, "cols": cols, "rows": rows}, &res)
	if err != nil {
		c.Close()
		return nil, "", "", err
	}
	if res.Session == "" {
		res.Session = session
	}
	return c, res.Nonce, res.Session, nil
}

// start runs the goroutines; send delivers messages to the program.
func (c *conns) start(send func(tea.Msg)) {
	c.send = send
	c.wake = make(chan struct{}, 1)
	c.pending = make(chan request, 1024)
	c.done = make(chan struct{})
	go c.writer()
	go c.reader()
	c.smu.Lock()
	st, gen := c.stream, c.gen
	c.smu.Unlock()
	go c.readStream(st, gen)
}

// close hangs up both connections.
func (c *conns) close() {
	c.once.Do(func() {
		close(c.done)
		c.calls.Close()
		c.smu.Lock()
		c.gen++
		if c.stream != nil {
			c.stream.Close()
		}
		c.smu.Unlock()
	})
}

// Call queues a request; it never blocks.
func (c *conns) Call(verb string, params map[string]any, tag string) {
	c.mu.Lock()
	c.queue = append(c.queue, request{verb, params, tag})
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Switch re-attaches the stream to another session, off the UI
// goroutine.
func (c *conns) Switch(session string, cols, rows int) {
	go func() {
		st, nonce, name, err := attachStream(c.opt, session, cols, rows)
		if err != nil {
			c.send(replyMsg{verb: "attach", err: err})
			return
		}
		c.smu.Lock()
		old := c.stream
		c.gen++
		gen := c.gen
		c.stream = st
		c.smu.Unlock()
		old.Close()
		c.send(attachedMsg{nonce: nonce, session: name})
		c.readStream(st, gen)
	}()
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
		c.mu.Unlock()
		for _, r := range coalesce(batch) {
			select {
			case c.pending <- r:
			case <-c.done:
				return
			}
			if err := c.calls.Send(r.verb, r.params); err != nil {
				c.gone(err)
				return
			}
		}
	}
}

// coalesce joins runs of untagged send-text to the same window into one
// call: a burst of keys costs one round trip.
func coalesce(batch []request) []request {
	out := batch[:0:0]
	for _, r := range batch {
		if n := len(out); n > 0 && r.verb == "send-text" && r.tag == "" && out[n-1].verb == "send-text" && out[n-1].tag == "" &&
			out[n-1].params["window"] == r.params["window"] && out[n-1].params["session"] == r.params["session"] {
			prev := out[n-1]
			p := map[string]any{}
			for k, v := range prev.params {
				p[k] = v
			}
			p["text"] = prev.params["text"].(string) + r.params["text"].(string)
			out[n-1] = request{verb: prev.verb, params: p}
			continue
		}
		out = append(out, r)
	}
	return out
}

func (c *conns) reader() {
	for {
		var r request
		select {
		case <-c.done:
			return
		case r = <-c.pending:
		}
		var raw json.RawMessage
		err := c.calls.Receive(&raw)
		var pe *proto.Error
		if err != nil && !errors.As(err, &pe) {
			c.gone(err)
			return
		}
		if r.tag != "" || err != nil {
			c.send(replyMsg{tag: r.tag, verb: r.verb, raw: raw, err: err})
		}
	}
}

// gone reports a broken connection, unless we hung up ourselves.
func (c *conns) gone(err error) {
	select {
	case <-c.done:
	default:
		c.send(streamGoneMsg{err: err})
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
		var raw json.RawMessage
		if err := st.Next(&raw); err != nil {
			if current() {
				c.gone(err)
			}
			return
		}
		var head struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(raw, &head) != nil {
			continue
		}
		var msg tea.Msg
		switch head.Type {
		case "layout":
			var l proto.AttachLayout
			if json.Unmarshal(raw, &l) == nil {
				msg = l
			}
		case "screen":
			var s proto.AttachScreen
			if json.Unmarshal(raw, &s) == nil {
				msg = s
			}
		case "bell":
			var b proto.AttachBell
			if json.Unmarshal(raw, &b) == nil {
				msg = b
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
