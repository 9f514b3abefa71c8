package standin

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// journal records the requests a stand-in answered, in order, and wakes
// whoever waits for one. Its methods are safe for concurrent use.
type journal[T any] struct {
	mu      sync.Mutex
	list    []T
	changed chan struct{} // closed and replaced on every new entry
}

// add appends r, numbered from 1 by number, and wakes the waiters.
func (j *journal[T]) add(r *T, number func(*T, int)) {
	j.mu.Lock()
	number(r, len(j.list)+1)
	j.list = append(j.list, *r)
	if j.changed != nil {
		close(j.changed)
	}
	j.changed = make(chan struct{})
	j.mu.Unlock()
}

func (j *journal[T]) all() []T {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]T(nil), j.list...)
}

// wait returns the first entry (earlier ones included) match accepts,
// waiting for one until ctx ends. A nil match accepts any.
func (j *journal[T]) wait(ctx context.Context, match func(T) bool) (T, error) {
	seen := 0
	for {
		j.mu.Lock()
		for ; seen < len(j.list); seen++ {
			if r := j.list[seen]; match == nil || match(r) {
				j.mu.Unlock()
				return r, nil
			}
		}
		if j.changed == nil {
			j.changed = make(chan struct{})
		}
		ch := j.changed
		j.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			var zero T
			return zero, ctx.Err()
		}
	}
}

// listener is the loopback HTTP server a stand-in answers on.
type listener struct {
	ln  net.Listener
	srv *http.Server
}

// serve listens on addr (default 127.0.0.1 on a free port), which must be
// a loopback address, and serves h until close.
func (l *listener) serve(addr string, h http.Handler) error {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("standin: %s is not a loopback address", host)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	l.ln = ln
	l.srv = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go l.srv.Serve(ln)
	return nil
}

// URL is the base URL to give the agent, without a trailing slash; empty
// for a stand-in that is not listening.
func (l *listener) URL() string {
	if l.ln == nil {
		return ""
	}
	return "http://" + l.ln.Addr().String()
}

// Close stops listening and ends the requests in flight.
func (l *listener) Close() error {
	if l.srv == nil {
		return nil
	}
	return l.srv.Close()
}
