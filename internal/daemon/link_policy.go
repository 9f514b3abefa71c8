package daemon

import "github.com/tuios/tuios/internal/proto"

// linkPeer is what a connection from another machine's link said about
// itself (link-peer, §14.5 of the coordination spec).
type linkPeer struct {
	name   string
	pinned bool
}

// linkAllowed applies the link policy to one verb called over a link.
func (s *Server) linkAllowed(cn *conn, verb string) *proto.Error {
	return nil
}
