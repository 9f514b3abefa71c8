package push

import (
	"strconv"
	"testing"

	"github.com/tuios/tuios/inbox"
)

// BenchmarkObserve is the cost of one Inbox change to the daemon: an
// item opening, its line changing and it closing before the settle (so
// nothing is sent), the Notifier's timer armed and stopped on the way.
func BenchmarkObserve(b *testing.B) {
	s := parseSettingsB(b, "[notify.ntfy]\nurl = \"https://ntfy.sh/bench-topic\"\n")
	r := newRigB(b, s)
	it := inbox.Item{Kind: inbox.KindApproval, Session: "api", Window: "w1", Name: "worker", Summary: "Bash: make test"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		it.ID = strconv.Itoa(i)
		r.n.Observe(inbox.Event{Op: inbox.OpOpen, Item: it})
		r.n.Observe(inbox.Event{Op: inbox.OpUpdate, Item: it})
		r.n.Observe(inbox.Event{Op: inbox.OpClose, Item: it})
	}
}
