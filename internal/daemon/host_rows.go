package daemon

import (
	"sync"

	"github.com/tuios/tuios/inbox"
)

// hostInboxRows composes each linked machine's one Inbox row ("Waiting to
// send") from the two things that feed it: the outbox (mail waiting, the
// last refusal) and the config (why no link is held at all: an ssh option
// refused, a host added to the file and not applied — X9, X11).
type hostInboxRows struct {
	mu sync.Mutex
	m  map[string]inbox.OutboxInput
}

// setOutboxRow is the outbox's part of host's row.
func (s *Server) setOutboxRow(host string, waiting int, refused string) {
	s.rows.update(s, host, func(in *inbox.OutboxInput) { in.Waiting, in.Refused = waiting, refused })
}

// setHostProblem is the config's part of host's row ("" clears it).
func (s *Server) setHostProblem(host, problem string) {
	s.rows.update(s, host, func(in *inbox.OutboxInput) { in.Problem = problem })
}

// update changes one part and puts the row in the Inbox. The lock is held
// across the Inbox call so two parts never land out of order; the Inbox
// never calls back here.
func (r *hostInboxRows) update(s *Server, host string, set func(*inbox.OutboxInput)) {
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
	s.att.Outbox(in)
}
