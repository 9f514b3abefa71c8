package links

import "slices"

// What the daemon's whole-machine tests and benchmarks watch of the
// pool: which channels are pooled or handed to a client (by identity
// only), and how many were opened.

// Chan is one channel to a host's daemon kept for open-host-connection;
// only its identity shows.
type Chan = farChan

// Pooled is host's idle pooled channels now.
func (ls *Links) Pooled(host string) []*Chan {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if h := ls.hosts[host]; h != nil {
		return slices.Clone(h.pool)
	}
	return nil
}

// Handed is the channels of the host connections open now.
func (ls *Links) Handed() []*Chan {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	out := make([]*Chan, 0, len(ls.conns))
	for hc := range ls.conns {
		out = append(out, hc.fc)
	}
	return out
}

// Pending counts the requests the open host connections wait on.
func (ls *Links) Pending() int {
	ls.mu.Lock()
	conns := make([]*Conn, 0, len(ls.conns))
	for hc := range ls.conns {
		conns = append(conns, hc)
	}
	ls.mu.Unlock()
	n := 0
	for _, hc := range conns {
		hc.mu.Lock()
		n += len(hc.pending)
		hc.mu.Unlock()
	}
	return n
}

// Opens counts the channels opened on every link since New (each starts
// a far stdio-proxy: the cost the pool saves).
func (ls *Links) Opens() int64 { return ls.opens.Load() }

// Done is closed when the channel is gone (closed, or its link ended).
func (fc *farChan) Done() <-chan struct{} { return fc.done }
