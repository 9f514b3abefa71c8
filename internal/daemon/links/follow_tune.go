package links

import (
	"context"
	"io"
	"time"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/proto"
)

// What the daemon's end-to-end tests change or feed of the follow; the
// daemon itself never calls these.

// Knobs are how the follow reaches hosts and how often it lists them.
type Knobs struct {
	// Open opens a new stream to a host's daemon (the links' Open; a
	// test puts an older daemon's refusals in front of it).
	Open func(ctx context.Context, host string) (io.ReadWriteCloser, *proto.Error)
	// PollEvery and PollRail are how often a host too old to subscribe
	// is listed, and while a client's rail shows it (30 s, 5 s).
	PollEvery, PollRail time.Duration
	// SessionsEvery is how often a live follow lists a host's sessions
	// again (a minute).
	SessionsEvery time.Duration
}

// Tune changes the knobs: fn gets them as they are and changes what it
// wants, under the follow's lock.
func (f *Follow) Tune(fn func(k *Knobs)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	k := Knobs{Open: f.open, PollEvery: f.pollEvery, PollRail: f.pollRail, SessionsEvery: f.sessionsEvery}
	fn(&k)
	f.open, f.pollEvery, f.pollRail, f.sessionsEvery = k.Open, k.PollEvery, k.PollRail, k.SessionsEvery
}

// Mirror runs fn on the mirror of the hosts' items and publishes its
// events, as the follower does with what a host sent.
func (f *Follow) Mirror(fn func(m *inbox.Mirror) []inbox.Event) {
	f.do(func() []inbox.Event { return fn(f.m) })
}

// CachedSessions runs fn on host's cached session names (what the rail
// lists under it) under the follow's lock; nothing when host is not
// followed.
func (f *Follow) CachedSessions(host string, fn func(sessions map[string]struct{})) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if h := f.hosts[host]; h != nil {
		fn(h.sessions)
	}
}
