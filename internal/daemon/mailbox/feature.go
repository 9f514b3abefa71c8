package mailbox

import (
	"context"
	"os"
	"path/filepath"
	"sync"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/mail"
)

// Mail is agent mail as the daemon composes it: each session's ring and
// stash, the daemon-wide message id counter, and the mail verbs.
type Mail struct {
	h   core.Host
	ids mail.Counter

	mu     sync.Mutex // a leaf: nothing is taken under it
	rings  map[string]*box
	closed bool // Shutdown ran: a ring made later is closed at once
}

// box is one session's ring, with the id of the session it was made for
// (a session killed and made again under the same name gets a new one).
type box struct {
	id   string
	ring *mail.Ring
}

var _ core.Feature = (*Mail)(nil)

// New makes the feature; Init adds it to a daemon.
func New() *Mail { return &Mail{rings: map[string]*box{}} }

// Name is "mail".
func (m *Mail) Name() string { return "mail" }

// Init serves the mail verbs and has the hub tell it of a closed window
// (its inbox reads undeliverable) and a closed session (its mail and
// stash go).
func (m *Mail) Init(h core.Host) error {
	m.h = h
	h.OnWindowClosed(m.windowClosed)
	h.OnSessionClosed(m.sessionClosed)
	m.addVerbs(h) // verbs.go, ask.go, release.go
	return nil
}

// Shutdown closes every ring (mail dies with the daemon, and so does the
// stash) and removes the stash folder once the rings left it empty.
func (m *Mail) Shutdown(context.Context) error {
	m.mu.Lock()
	m.closed = true
	var rings []*mail.Ring
	for name, b := range m.rings {
		rings = append(rings, b.ring)
		delete(m.rings, name)
	}
	m.mu.Unlock()
	for _, r := range rings {
		r.Close()
	}
	os.Remove(m.stashRoot()) // only if the rings left it empty
	return nil
}

// stashRoot is the folder beside the socket that holds every session's
// stash.
func (m *Mail) stashRoot() string { return filepath.Join(filepath.Dir(m.h.Options().Socket), "stash") }

// Ring is the ring of the session named name whose id is id, made on
// first use. A session that is gone by then gets a closed ring: nothing
// may outlive it.
func (m *Mail) Ring(name, id string) *mail.Ring {
	m.mu.Lock()
	b := m.rings[name]
	if b != nil && b.id == id {
		m.mu.Unlock()
		return b.ring
	}
	// Making a ring and its stash does no I/O: the folder is made by
	// the first put.
	r := mail.NewRing(mail.RingOptions{Session: name, IDs: &m.ids, Clock: m.h.Clock(),
		Stash: mail.NewStash(mail.StashOptions{Dir: filepath.Join(m.stashRoot(), stashDirName(name, id)), Clock: m.h.Clock()})})
	closed := m.closed
	if !closed {
		m.rings[name] = &box{id: id, ring: r}
	}
	m.mu.Unlock()
	if b != nil { // made for a session of that name that is gone
		b.ring.Close()
	}
	if closed || !m.live(name, id) { // killed meanwhile (its hook may have run before the ring was kept)
		m.drop(name, id)
		r.Close()
	}
	return r
}

// Existing is the ring of the session named name whose id is id when one
// was made; nil otherwise.
func (m *Mail) Existing(name, id string) *mail.Ring {
	m.mu.Lock()
	defer m.mu.Unlock()
	if b := m.rings[name]; b != nil && b.id == id {
		return b.ring
	}
	return nil
}

// live says whether the session named name with id id is in the table.
func (m *Mail) live(name, id string) bool {
	sv, ok := m.h.FindSession(name)
	return ok && sv.ID == id
}

// drop forgets the ring of name when it is the one made for id.
func (m *Mail) drop(name, id string) {
	m.mu.Lock()
	if b := m.rings[name]; b != nil && b.id == id {
		delete(m.rings, name)
	}
	m.mu.Unlock()
}

// windowClosed: the window's inbox dies with it, and mail to it reads
// undeliverable.
func (m *Mail) windowClosed(ev core.Event) {
	m.mu.Lock()
	b := m.rings[ev.Session]
	m.mu.Unlock()
	if b != nil {
		b.ring.CloseInbox(ev.Window)
	}
}

// sessionClosed: the session's mail and stash go with it. The event
// carries the name only; a ring made for a session of that name that is
// still in the table (one made again since) stays.
func (m *Mail) sessionClosed(ev core.Event) {
	m.mu.Lock()
	b := m.rings[ev.Session]
	m.mu.Unlock()
	if b == nil || m.live(ev.Session, b.id) {
		return
	}
	m.drop(ev.Session, b.id)
	b.ring.Close()
}

// stashDirName is the session's name when it is a plain file name, else
// its id.
func stashDirName(name, id string) string {
	ok := name != "" && name != "." && name != ".." && len(name) <= 64
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			ok = false
		}
	}
	if ok {
		return name
	}
	return id
}
