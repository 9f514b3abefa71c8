package links

import (
	"context"

	"github.com/tuios/tuios/internal/daemon/core"
)

// Links is a core.Feature: the daemon makes it with New (the core reads
// its hosts and outbox from then on), inits it with the others and shuts
// it down first, as the last in its list.

// Name is the feature's name in the daemon's log.
func (ls *Links) Name() string { return "links" }

// Init adds list-hosts and list-outbox to h's verbs and dials every
// configured host once the daemon's sessions came back (so the mail that
// waited finds the panes it names); then the follow of the hosts'
// Inboxes starts (follow.go), after the Inbox's saved items were loaded.
func (ls *Links) Init(h core.Host) error {
	ls.addVerbs(h) // verbs.go
	h.OnRestored(func([]core.Restored) {
		ls.Start()
		if ls.follow != nil {
			ls.follow.start()
		}
	})
	return nil
}

// Follow is the follow of the linked hosts' Inboxes (follow.go): the
// Inbox's verbs and the attached clients' rail read it. nil when the
// links were made without an Inbox.
func (ls *Links) Follow() *Follow { return ls.follow }

// Shutdown closes every link and its streams (Close), bounded by ctx.
func (ls *Links) Shutdown(ctx context.Context) error {
	done := make(chan struct{})
	go func() { ls.Close(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
