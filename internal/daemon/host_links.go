package daemon

import (
	"context"
	"os"

	"github.com/tuios/tuios/internal/daemon/links"
	"github.com/tuios/tuios/internal/proto"
)

// The core's side of the links feature (internal/daemon/links): what it
// is given at New, and the client connection it answers on after
// open-host-connection.

// newServerLinks makes the links to s's configured hosts. The verb table
// (Poolable) is read when a call needs it, after New; the Inbox takes
// each host's row and the mirror of its items (links/inbox.go).
func newServerLinks(s *Server) *links.Links {
	return links.New(host{s}, links.Options{
		Getenv:   s.getenv,
		Poolable: s.poolVerb,
		Inbox:    s.att,
	})
}

// poolVerb reports whether a channel that carried verb (and got its
// answer) may serve another client: the verb answers once and leaves
// nothing on the far connection (its declaration says neither holdsConn
// nor capLocal). A verb this daemon does not know is not (a newer far
// daemon's verb may keep state).
func (s *Server) poolVerb(verb string) bool {
	v := s.verbs.Lookup(verb)
	return v != nil && v.Access.Poolable()
}

func (s *Server) getenv(k string) string {
	if s.opt.Getenv != nil {
		return s.opt.Getenv(k)
	}
	return os.Getenv(k)
}

// hostClient is a connection handed to a host (links.Client).
type hostClient struct{ cn *conn }

func (c hostClient) Context() context.Context { return c.cn.ctx }
func (c hostClient) Send(r proto.Response)    { c.cn.send(r) }
func (c hostClient) Stop()                    { c.cn.stop() }
func (c hostClient) Closed() <-chan struct{}  { return c.cn.closed }

func (c hostClient) WriteLine(line []byte, flush bool) {
	cn := c.cn
	cn.wmu.Lock()
	cn.w.Write(line)
	cn.w.WriteByte('\n')
	if flush {
		cn.w.Flush()
	}
	cn.wmu.Unlock()
}

func (c hostClient) Flush() {
	c.cn.wmu.Lock()
	c.cn.w.Flush()
	c.cn.wmu.Unlock()
}

// drainHost runs when the client stops writing: the far answers still
// owed are delivered before the connection ends.
func (cn *conn) drainHost() {
	if cn.host != nil {
		cn.host.Drain()
	}
}
