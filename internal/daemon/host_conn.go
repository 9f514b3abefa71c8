package daemon

import (
	"context"
	"io"

	"github.com/tuios/tuios/internal/proto"
)

// hostConn is a client connection handed to another host's daemon by
// open-host-connection.
type hostConn struct{}

// forward sends one request line to the host's daemon.
func (h *hostConn) forward(cn *conn, rq request) {}

// openHost opens a new stream to host's daemon: a fresh channel on the
// host's one ssh link running the far stdio-proxy, link-peer already said.
// The caller writes request lines and reads answer (and event) lines, and
// closes it when done. Errors: unknown_host, host_unreachable.
func (s *Server) openHost(ctx context.Context, host string) (io.ReadWriteCloser, *proto.Error) {
	return nil, proto.Errorf(codeHostUnreachable, "no links yet")
}

// hostCall runs one verb on host's daemon over a stream of its own and
// decodes the result into result (nil drops it). An error the far daemon
// answered keeps its code; its text came from another machine and is data.
func (s *Server) hostCall(ctx context.Context, host, verb string, params, result any) *proto.Error {
	return proto.Errorf(codeHostUnreachable, "no links yet")
}

// hostStatus is host's link state (§14.2: up, connecting, reconnecting,
// no_daemon, no_tuios, unreachable, incompatible), "" for a host that is
// not configured. Every change is also a host-changed event on the hub.
func (s *Server) hostStatus(host string) string { return "" }
