package daemon

import (
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/core"
)

// The person's keys as the features hear them (core.Registrar's
// OnPersonTyped; push notifications hold what would be sent while the
// person types).

// OnPersonTyped adds fn to what runs when the person typed into a pane.
func (h host) OnPersonTyped(fn func(window string)) {
	h.registering()
	h.s.typedHooks = append(h.s.typedHooks, fn)
}

// personTyped tells the features that cn typed into window, when cn is
// the person: a connection that comes from the process of an attached
// client holding a live human nonce, never a link. Called after the
// write, with no lock held.
func (s *Server) personTyped(cn *conn, window string) {
	if len(s.typedHooks) == 0 || cn.link != nil || !s.resp.heldByClient(cn) {
		return
	}
	for _, fn := range s.typedHooks {
		fn(window)
	}
}

// heldByClient reports whether cn is, or comes from the process of, an
// attached client's connection holding a live human nonce.
func (r *responder) heldByClient(cn *conn) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, h := range r.nonces {
		if h.cn == cn || cn.peer > 1 && h.pid == cn.peer {
			select {
			case <-h.cn.closed:
			default:
				return true
			}
		}
	}
	return false
}

// notifyConfig is the push notifications feature (internal/daemon/notify)
// as the config file's appliers reach it: apply-config applies [notify]
// in full (the lines say what changed), an edit of the file while the
// daemon runs applies what narrows (the lines say what waits).
type notifyConfig interface {
	Apply(f *config.File) []string
	FileChanged(f *config.File) []string
}

var _ core.Registrar = host{}
