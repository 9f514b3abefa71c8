package notify

import (
	"context"
	"sync"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/push"
)

// subQueue bounds the Inbox events waiting for the Notifier.
const subQueue = 1024

// Inbox is the Inbox as the pushes read it: an item as it is now, and
// the open items after events were missed.
type Inbox interface {
	Get(id string) (inbox.Item, bool)
	List(opt inbox.ListOptions) inbox.List
}

// Options are what the feature needs beyond core.Host.
type Options struct {
	Inbox Inbox
	// Getenv reads the daemon's own environment, where token_env names
	// the secrets.
	Getenv func(string) string
}

// Feature is push notifications, as the daemon composes it.
type Feature struct {
	opt Options
	h   core.Host
	n   *push.Notifier

	mu      sync.Mutex
	applied config.PushSettings // what the start or apply-config applied

	sub      core.Subscription // set once the sessions came back; nil before
	followed chan struct{}     // closed when follow ends
}

var _ core.Feature = (*Feature)(nil)

// New makes the feature; Init adds it to a daemon.
func New(opt Options) *Feature { return &Feature{opt: opt, followed: make(chan struct{})} }

// Name is "notify".
func (f *Feature) Name() string { return "notify" }

// Init applies [notify] as the file says at start and hooks the
// Notifier to the person's keys and, once the sessions came back, to
// the Inbox's events.
func (f *Feature) Init(h core.Host) error {
	f.h = h
	log := h.Log()
	ps := h.Options().Config.PushSettings()
	for _, p := range ps.Problems {
		log.Warnf("config: %s", p)
	}
	f.applied = ps
	f.n = push.New(push.Options{
		Settings: ps,
		Clock:    h.Clock(),
		Logf:     log.Infof,
		Send:     push.SendOptions{Getenv: f.opt.Getenv, Where: "the daemon's environment"},
		Lookup:   f.opt.Inbox.Get,
	})
	h.OnRestored(func([]core.Restored) { f.follow() })
	h.OnPersonTyped(func(string) { f.n.PersonTyped() })
	return nil
}

// Shutdown ends the subscription and every send in flight.
func (f *Feature) Shutdown(ctx context.Context) error {
	f.mu.Lock()
	sub := f.sub
	f.mu.Unlock()
	if sub != nil {
		sub.Close()
		select {
		case <-f.followed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	f.n.Close()
	return nil
}

// Notifier is the Notifier the feature feeds: what waits and when it is
// due (the daemon's tests read it).
func (f *Feature) Notifier() *push.Notifier { return f.n }

// follow subscribes to the Inbox's events and feeds the Notifier until
// the subscription ends. Called once the Inbox was loaded: only items
// opened from now on send.
func (f *Feature) follow() {
	sub := f.h.Subscribe(core.Filter{Types: map[string]bool{"attention": true}}, subQueue)
	f.mu.Lock()
	f.sub = sub
	f.mu.Unlock()
	go func() {
		defer close(f.followed)
		var lost uint64
		for ev := range sub.C() {
			if n := sub.Lost(); n > lost {
				lost = n
				f.n.Resync(f.opt.Inbox.List(inbox.ListOptions{}).Items)
			}
			if ev.Item != nil {
				f.n.Observe(inbox.Event{Op: inbox.Op(ev.Op), Item: *ev.Item})
			}
		}
	}()
}
