package links

import (
	"context"
	"path/filepath"

	"github.com/tuios/tuios/internal/atomicfile"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// newLinksOutbox wires an outbox to the links (Call, Status), the state
// dir and the host's Inbox row (inbox_rows.go).
func newLinksOutbox(ls *Links) *Outbox {
	opt := ls.core.Options()
	path := ""
	if opt.StateDir != "" {
		path = filepath.Join(opt.StateDir, filepath.FromSlash(OutboxFile))
	}
	log := ls.core.Log()
	return NewOutbox(OutboxOptions{
		Clock: ls.core.Clock(), Path: path, UID: opt.UID, Done: ls.core.Done(), Logf: log.Infof,
		Deliver: func(ctx context.Context, host string, params map[string]any) (map[string]any, *proto.Error) {
			var res map[string]any
			err := ls.Call(ctx, host, "send-agent-message", params, &res)
			return res, err
		},
		Status:  ls.Status,
		Changed: ls.outboxChanged,
		SetAside: func(path, why string) {
			aside, err := atomicfile.SetAside(path, ls.core.Clock().Now())
			if err != nil {
				log.Errorf("outbox: refused %s (%s) and could not move it aside: %v; started with an empty outbox", path, why, err)
				return
			}
			log.Warnf("outbox: refused %s (%s); moved it to %s and started with an empty outbox", path, why, aside)
		},
	})
}

// Outbox is the mail kept for hosts whose link is down.
func (ls *Links) Outbox() *Outbox { return ls.outbox }

// startOutbox loads the outbox file, puts its hosts' rows back in the
// Inbox and follows the links: a host whose link comes up is tried at
// once. Called once the socket is the daemon's (Start).
func (ls *Links) startOutbox() {
	o := ls.outbox
	for _, host := range o.Load() {
		o.Notify(host)
	}
	sub := ls.core.Subscribe(core.Filter{Types: map[string]bool{"host-changed": true, "gap": true}}, 64)
	go func() {
		for range sub.C() { // closed with the hub
			o.LinkChanged()
		}
	}()
	o.LinkChanged()
}
