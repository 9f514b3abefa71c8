package pty

import (
	"context"
	"io"
	"sync"
	"time"
)

// DefaultInputMax is the queue size of an Input when InputOptions.Max is 0.
const DefaultInputMax = 1 << 20

// writeChunk is the most one write to the terminal carries, so that the
// queue's room grows while a slow reader drains it.
const writeChunk = 32 << 10

// InputOptions configures NewInput.
type InputOptions struct {
	// Max is the most bytes the queue holds; 0 means DefaultInputMax.
	Max int
}

// Input queues what is typed into a terminal and writes it from its own
// goroutine, so that no caller ever blocks on a program that does not read
// its input. When nothing is queued and the writer has a TryWrite (a
// Process on Linux), what the terminal takes at once is written by the
// caller without waiting, and only the rest is queued. A PTY's input buffer holds a few kilobytes; past that a plain
// Write blocks until the program reads, and whoever wrote (a screen
// answering a terminal query, a server holding a lock) blocks with it.
//
// Bytes go out in the order they were queued. The writer goroutine runs
// only while the queue is not empty. All methods are safe for concurrent
// use.
type Input struct {
	w   io.Writer
	max int

	mu      sync.Mutex
	buf     []byte
	running bool
	closed  bool
	err     error         // the first write error; every later call fails with it
	room    chan struct{} // closed (and replaced) whenever bytes leave the queue
}

// NewInput returns an Input writing to w (usually a *Process).
func NewInput(w io.Writer, opt InputOptions) *Input {
	if opt.Max <= 0 {
		opt.Max = DefaultInputMax
	}
	return &Input{w: w, max: opt.Max, room: make(chan struct{})}
}

// Write queues all of b or none of it, without blocking. When the queue has
// no room for b it fails with CodeInputFull and queues nothing, so a reply
// to a terminal query is never cut in half.
func (in *Input) Write(b []byte) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if err := in.failed("write"); err != nil {
		return 0, err
	}
	if len(in.buf)+len(b) > in.max {
		return 0, &Error{code: CodeInputFull, Op: "write"}
	}
	in.queue(b)
	return len(b), nil
}

// Send queues b, waiting for room as the program reads, until all of b is
// queued or ctx ends. It returns how many bytes were queued; those go out
// even when Send fails.
func (in *Input) Send(ctx context.Context, b []byte) (int, error) {
	queued := 0
	for {
		in.mu.Lock()
		if err := in.failed("send"); err != nil {
			in.mu.Unlock()
			return queued, err
		}
		n := min(in.max-len(in.buf), len(b)-queued)
		if n > 0 {
			in.queue(b[queued : queued+n])
			queued += n
		}
		room, full := in.room, len(in.buf) >= in.max
		in.mu.Unlock()
		if queued == len(b) {
			return queued, nil
		}
		if !full {
			continue // the terminal took some at once: there is room again
		}
		select {
		case <-room:
		case <-ctx.Done():
			return queued, ctx.Err()
		}
	}
}

// Queued returns the number of bytes waiting to be written.
func (in *Input) Queued() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.buf)
}

// Close drops what is still queued and makes later calls fail with
// CodeClosed. When the writer implements SetWriteDeadline (a *Process
// does), a write blocked on a program that never reads is released.
func (in *Input) Close() error {
	in.mu.Lock()
	if in.closed {
		in.mu.Unlock()
		return nil
	}
	in.closed = true
	in.buf = nil
	in.wake()
	in.mu.Unlock()
	if d, ok := in.w.(interface{ SetWriteDeadline(time.Time) error }); ok {
		_ = d.SetWriteDeadline(time.Unix(1, 0))
	}
	return nil
}

// failed returns the error every call gets once the Input is closed or a
// write failed. mu is held.
func (in *Input) failed(op string) error {
	if in.closed {
		return &Error{code: CodeClosed, Op: op}
	}
	if in.err != nil {
		return &Error{code: CodeWriteFailed, Op: op, Err: in.err}
	}
	return nil
}

// queue appends b and starts the writer if it is not running. mu is held.
func (in *Input) queue(b []byte) {
	if len(b) == 0 {
		return
	}
	if tw, ok := in.w.(interface{ TryWrite([]byte) (int, error) }); ok && !in.running && len(in.buf) == 0 {
		// Nothing waits before b: what the terminal takes at once goes
		// now, from the caller, and only the rest to the goroutine.
		n, err := tw.TryWrite(b)
		if err != nil {
			in.err = err
			return
		}
		b = b[n:]
		if len(b) == 0 {
			return
		}
	}
	in.buf = append(in.buf, b...)
	if !in.running {
		in.running = true
		go in.drain()
	}
}

// wake tells every Send waiting for room to look again. mu is held.
func (in *Input) wake() {
	close(in.room)
	in.room = make(chan struct{})
}

// drain writes the queue out and exits when it is empty.
func (in *Input) drain() {
	chunk := make([]byte, 0, min(writeChunk, in.max))
	for {
		in.mu.Lock()
		if len(in.buf) == 0 || in.closed {
			in.running = false
			in.mu.Unlock()
			return
		}
		chunk = append(chunk[:0], in.buf[:min(len(in.buf), writeChunk)]...)
		in.mu.Unlock()

		n, err := in.w.Write(chunk)

		in.mu.Lock()
		if !in.closed {
			in.buf = in.buf[min(n, len(in.buf)):]
			if len(in.buf) == 0 {
				in.buf = nil // give the memory back between bursts
			}
		}
		if err != nil && in.err == nil && !in.closed {
			in.err = err
			in.buf = nil
		}
		in.wake()
		if err != nil {
			in.running = false
			in.mu.Unlock()
			return
		}
		in.mu.Unlock()
	}
}
