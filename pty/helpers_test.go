package pty

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// collector reads a Process's output in a goroutine until EOF or Close.
type collector struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	done chan struct{}
	err  error
}

func collect(p *Process) *collector {
	c := &collector{done: make(chan struct{})}
	go func() {
		defer close(c.done)
		b := make([]byte, 4096)
		for {
			n, err := p.Read(b)
			c.mu.Lock()
			c.buf.Write(b[:n])
			if err != nil {
				c.err = err
			}
			c.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return c
}

func (c *collector) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// waitFor waits until the output contains s (after offset from).
func (c *collector) waitFor(t *testing.T, s string, from int) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		out := c.String()
		if from <= len(out) {
			if i := strings.Index(out[from:], s); i >= 0 {
				return from + i + len(s)
			}
		}
		select {
		case <-c.done:
			out = c.String()
			if i := strings.Index(out[min(from, len(out)):], s); i >= 0 {
				return from + i + len(s)
			}
			t.Fatalf("output ended (%v) without %q; got %q", c.err, s, out)
		case <-time.After(5 * time.Millisecond):
		}
	}
	t.Fatalf("timed out waiting for %q; got %q", s, c.String())
	return 0
}

func mustStart(t testing.TB, opts Options) *Process {
	t.Helper()
	p, err := Start(opts)
	if err != nil {
		t.Fatalf("Start(%q): %v", opts.Argv, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// shEnv is a small deterministic environment for sh.
func shEnv() []string {
	return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "TERM=dumb", "PS1=$ ", "HOME=/tmp", "ENV="}
}
