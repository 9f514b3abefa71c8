package daemon

import (
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

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

// applyLinkPolicy installs the link policy of f ([hosts."*"], [hosts.NAME]
// allow and hold_mail); the daemon's start and apply-config call it.
func (s *Server) applyLinkPolicy(f *config.File) {}
