package daemon

import (
	"slices"
	"strings"

	"github.com/tuios/tuios/internal/daemon/links"
	"github.com/tuios/tuios/internal/proto"
)

// withQueued adds the outbox to the rail's hosts: each host's count of
// messages waiting for its link (docs/inbox.md: "2 queued" beside "seen 3m
// ago"), and a header of its own for a host mail waits for that the
// Inbox does not follow. The outbox's lock is a leaf, so this is safe
// under the table's lock.
func withQueued(hs []proto.AttachHost, o *links.Outbox) []proto.AttachHost {
	if o == nil {
		return hs
	}
	waiting := o.Queued()
	if len(waiting) == 0 {
		return hs
	}
	for i := range hs {
		if n, ok := waiting[hs[i].Host]; ok {
			hs[i].Queued = n
			delete(waiting, hs[i].Host)
		}
	}
	if len(waiting) == 0 {
		return hs
	}
	for name, n := range waiting {
		hs = append(hs, proto.AttachHost{Host: name, Queued: n})
	}
	slices.SortFunc(hs, func(a, b proto.AttachHost) int { return strings.Compare(a.Host, b.Host) })
	return hs
}
