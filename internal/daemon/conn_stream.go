package daemon

import (
	"bytes"
	"io"

	"github.com/tuios/tuios/internal/rawio"
)

// An attach stream's socket is moved out of the runtime's poller
// (rawio.Conn) before the attach runs. The poller watches a socket for
// input and for room to write at once, edge-triggered, so every frame
// the client reads would wake the daemon for room nobody waits for: one
// wakeup per echo, as many as the echo itself costs. A rawio.Conn costs
// two descriptors more (its epoll instances), so only streams get one,
// not every connection: a flood of callers holds what it held.

// connSource is the request reader's source, swapped to the moved
// socket by the reading goroutine itself.
type connSource struct{ r io.Reader }

func (s *connSource) Read(p []byte) (int, error) { return s.r.Read(p) }

// streamSocket moves the socket when line asks for an attach stream and
// nothing else is under way on the connection: no request in the
// worker's hands, nothing unwritten. Only the reading goroutine calls it.
func (cn *conn) streamSocket(line []byte, src *connSource) {
	if cn.moved || cn.inflight.Load() != 0 || !bytes.Contains(line, []byte(`"attach"`)) || !bytes.Contains(line, []byte(`"stream":true`)) {
		return
	}
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	if cn.w.Buffered() > 0 {
		return
	}
	cn.cmu.Lock()
	defer cn.cmu.Unlock()
	if cn.ctx.Err() != nil {
		return // stopped: the socket is closed or about to be
	}
	nc := rawio.NewConn(cn.c)
	if nc == cn.c {
		return
	}
	cn.moved = true
	cn.c = nc
	cn.w.Reset(rawio.NewWriter(nc))
	src.r = rawio.NewReader(nc)
}
