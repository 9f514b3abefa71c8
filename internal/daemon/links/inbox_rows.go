package links

import (
	"sync"

	"github.com/tuios/tuios/inbox"
)

// inboxRows composes each linked machine's one Inbox row ("Waiting to
// send") from the two things that feed it: the outbox (mail waiting, the
// last refusal) and the config (why no link is held at all: an ssh option
// refused, a host added to the file and not applied — X9, X11).
type inboxRows struct {
	in Inbox // nil: no Inbox, no rows (a test's links)

	mu sync.Mutex
	m  map[string]inbox.OutboxInput
}

// outboxChanged is the outbox's part of host's row (the outbox's Changed
// hook, held under Outbox.nmu).
func (ls *Links) outboxChanged(host string, waiting int, refused string) {
	ls.rows.update(host, func(in *inbox.OutboxInput) { in.Waiting, in.Refused = waiting, refused })
}

// SetHostProblem is the config's part of host's row ("" clears it): why
// no link is held for it (the daemon's config follower says).
func (ls *Links) SetHostProblem(host, problem string) {
	ls.rows.update(host, func(in *inbox.OutboxInput) { in.Problem = problem })
}

// update changes one part and puts the row in the Inbox. The lock is held
// across the Inbox call so two parts never land out of order; the Inbox
// never calls back here.
func (r *inboxRows) update(host string, set func(*inbox.OutboxInput)) {
	if r.in == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]inbox.OutboxInput{}
	}
	in := r.m[host]
	in.Host = host
	set(&in)
	if in.Waiting <= 0 && in.Refused == "" && in.Problem == "" {
		delete(r.m, host)
	} else {
		r.m[host] = in
	}
	r.in.Outbox(in)
}
