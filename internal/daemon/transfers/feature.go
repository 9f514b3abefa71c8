package transfers

import (
	"context"
	"sync"

	"github.com/tuios/tuios/internal/daemon/core"
)

// Feature is the copies, as the daemon composes it.
type Feature struct {
	h    core.Host
	list *copies
	// quit is closed by Shutdown: every copy stops between two chunks.
	quit     chan struct{}
	quitOnce sync.Once
}

var _ core.Feature = (*Feature)(nil)

// New makes the feature; Init adds it to a daemon.
func New() *Feature { return &Feature{list: newCopies(), quit: make(chan struct{})} }

// Name is "transfers".
func (f *Feature) Name() string { return "transfers" }

// Init serves the copy verbs (verbs.go).
func (f *Feature) Init(h core.Host) error {
	f.h = h
	f.addVerbs(h)
	return nil
}

// Shutdown stops every copy and waits for them to end: a file being
// copied is removed, files a folder copy finished stay.
func (f *Feature) Shutdown(ctx context.Context) error {
	f.quitOnce.Do(func() { close(f.quit) })
	done := make(chan struct{})
	go func() { f.list.running.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
