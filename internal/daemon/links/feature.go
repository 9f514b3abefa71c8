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
// waited finds the panes it names).
func (ls *Links) Init(h core.Host) error {
	ls.addVerbs(h) // verbs.go
	h.OnRestored(func([]core.Restored) { ls.Start() })
	return nil
}

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
