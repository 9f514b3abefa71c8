package jsonrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// DefaultMaxMessage bounds one message when Options.MaxMessage is zero.
const DefaultMaxMessage = 8 << 20

// defaultBacklog bounds the messages waiting to be written.
const defaultBacklog = 4096

// Options configure a Conn. The handlers run on the reading goroutine, in
// the order the messages came; one that blocks holds back every message
// after it (and so, through the pipe, the peer), which is the back
// pressure a flood needs.
type Options struct {
	// MaxMessage bounds one line in bytes (0: DefaultMaxMessage).
	MaxMessage int
	// Backlog bounds the messages queued for writing (0: 4096).
	Backlog int
	// OmitVersion leaves "jsonrpc":"2.0" out of what is sent (Codex's
	// app-server speaks without it).
	OmitVersion bool
	// OnRequest takes a request from the peer; answer it with Reply or
	// ReplyError, now or later. Nil answers every request "method not
	// found".
	OnRequest func(m Message)
	// OnNotify takes a notification from the peer.
	OnNotify func(m Message)
	// OnNoise takes a line that is not a JSON-RPC message (a stray log
	// line, garbage); it is skipped.
	OnNoise func(line []byte, err error)
}

// TooLongError ends a connection whose peer sent a line over the bound.
type TooLongError struct{ Limit int }

func (e *TooLongError) Error() string {
	return fmt.Sprintf("the agent sent a message over %d MiB", e.Limit>>20)
}

// ErrBacklog is returned by a send when the peer has not read the last
// Options.Backlog messages.
var ErrBacklog = errors.New("jsonrpc: the agent is not reading what it is sent")

// ErrClosed is returned by calls on a connection that ended.
var ErrClosed = errors.New("jsonrpc: the connection ended")

// Conn is one connection. Its methods are safe for concurrent use.
type Conn struct {
	opt Options
	r   io.Reader
	w   io.Writer
	out chan []byte

	mu      sync.Mutex
	next    int64
	pending map[string]chan Message
	err     error // why it ended; set once
	done    chan struct{}
}

// New makes a connection over r (what the peer writes) and w (what it
// reads). Nothing is read until Run.
func New(r io.Reader, w io.Writer, opt Options) *Conn {
	if opt.MaxMessage <= 0 {
		opt.MaxMessage = DefaultMaxMessage
	}
	if opt.Backlog <= 0 {
		opt.Backlog = defaultBacklog
	}
	c := &Conn{opt: opt, r: r, w: w, out: make(chan []byte, opt.Backlog),
		pending: map[string]chan Message{}, done: make(chan struct{})}
	go c.writeLoop()
	return c
}

// Done is closed when the connection ended; Err says why.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is why the connection ended (io.EOF when the peer closed its
// output), nil while it runs.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Run reads until the peer's output ends or breaks the framing, and
// returns why (io.EOF for a clean end). Every call still waiting then
// fails with that error.
func (c *Conn) Run() error {
	br := bufio.NewReaderSize(c.r, 64<<10)
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if len(long)+len(chunk) > c.opt.MaxMessage {
				return c.end(&TooLongError{Limit: c.opt.MaxMessage})
			}
			long = append(long, chunk...)
			continue
		}
		line := chunk
		if len(long) > 0 {
			if len(long)+len(chunk) > c.opt.MaxMessage {
				return c.end(&TooLongError{Limit: c.opt.MaxMessage})
			}
			long = append(long, chunk...)
			line = long
		}
		if len(line) > c.opt.MaxMessage {
			return c.end(&TooLongError{Limit: c.opt.MaxMessage})
		}
		if len(line) > 0 {
			c.dispatch(line)
		}
		long = long[:0]
		if cap(long) > 1<<20 {
			long = nil // a big message once does not pin its buffer
		}
		if err != nil {
			return c.end(err)
		}
	}
}

func (c *Conn) dispatch(line []byte) {
	trimmed := trimEOL(line)
	if len(trimmed) == 0 {
		return
	}
	m, err := Decode(trimmed)
	if err != nil {
		if c.opt.OnNoise != nil {
			c.opt.OnNoise(trimmed, err)
		}
		return
	}
	switch m.Kind {
	case KindResponse:
		c.mu.Lock()
		ch := c.pending[idKey(m.ID)]
		delete(c.pending, idKey(m.ID))
		c.mu.Unlock()
		if ch != nil {
			ch <- m
		} else if c.opt.OnNoise != nil {
			c.opt.OnNoise(trimmed, errors.New("an answer to no call"))
		}
	case KindRequest:
		if c.opt.OnRequest != nil {
			// The handler keeps the message: give it its own copies.
			m.ID, m.Params = clone(m.ID), clone(m.Params)
			c.opt.OnRequest(m)
		} else {
			c.ReplyError(m.ID, CodeMethodNotFound, "method not found: "+m.Method)
		}
	case KindNotification:
		if c.opt.OnNotify != nil {
			m.Params = clone(m.Params)
			c.opt.OnNotify(m)
		}
	}
}

func clone(b json.RawMessage) json.RawMessage {
	if b == nil {
		return nil
	}
	return append(json.RawMessage(nil), b...)
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// end records why the connection ended, fails the waiting calls and stops
// the writer.
func (c *Conn) end(err error) error {
	c.mu.Lock()
	if c.err != nil {
		err = c.err
		c.mu.Unlock()
		return err
	}
	c.err = err
	pending := c.pending
	c.pending = map[string]chan Message{}
	close(c.done)
	c.mu.Unlock()
	for _, ch := range pending {
		ch <- Message{Kind: KindResponse, Error: &Error{Code: CodeInternalError, Message: errText(err)}}
	}
	return err
}

func errText(err error) string {
	if errors.Is(err, io.EOF) {
		return "the agent closed its output"
	}
	return err.Error()
}

// Close ends the connection from this side: calls waiting fail with
// ErrClosed. It does not close the peer's pipes.
func (c *Conn) Close() { c.end(ErrClosed) }

func (c *Conn) writeLoop() {
	for {
		select {
		case b := <-c.out:
			if _, err := c.w.Write(b); err != nil {
				c.end(fmt.Errorf("writing to the agent: %w", err))
				return
			}
		case <-c.done:
			return
		}
	}
}

func (c *Conn) send(w wire) error {
	if !c.opt.OmitVersion {
		w.JSONRPC = "2.0"
	}
	b, err := json.Marshal(w)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	select {
	case <-c.done:
		return ErrClosed
	default:
	}
	select {
	case c.out <- b:
		return nil
	default:
		return ErrBacklog
	}
}

// Notify sends a notification.
func (c *Conn) Notify(method string, params any) error {
	p, err := marshalParams(params)
	if err != nil {
		return err
	}
	return c.send(wire{Method: method, Params: p})
}

// Call sends a request and waits for its answer, ctx's end or the
// connection's. An error answer is returned as *Error; result may be nil.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	p, err := marshalParams(params)
	if err != nil {
		return err
	}
	ch := make(chan Message, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return ErrClosed
	}
	c.next++
	id := json.RawMessage(strconv.FormatInt(c.next, 10))
	c.pending[idKey(id)] = ch
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.pending, idKey(id))
		c.mu.Unlock()
	}
	if err := c.send(wire{ID: id, Method: method, Params: p}); err != nil {
		forget()
		return err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return m.Error
		}
		if result != nil && len(m.Result) > 0 {
			if err := json.Unmarshal(m.Result, result); err != nil {
				return fmt.Errorf("the agent's answer to %s: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		forget()
		return ctx.Err()
	}
}

// Reply answers a request the peer sent.
func (c *Conn) Reply(id json.RawMessage, result any) error {
	r, err := json.Marshal(result)
	if err != nil {
		return err
	}
	return c.send(wire{ID: id, Result: r})
}

// ReplyError answers a request the peer sent with an error.
func (c *Conn) ReplyError(id json.RawMessage, code int, message string) error {
	return c.send(wire{ID: id, Error: &Error{Code: code, Message: message}})
}

func marshalParams(params any) (json.RawMessage, error) {
	if params == nil {
		return nil, nil
	}
	if raw, ok := params.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(params)
}
