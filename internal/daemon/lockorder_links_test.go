package daemon

import "testing"

// linksLockRanks is links/doc.go's lock order (# Locks) as ranks, as
// lockRanks is the core's.
var linksLockRanks = map[string]struct {
	rank int
	doc  string
}{
	"Outbox.nmu":   {1, "Outbox.nmu"},
	"inboxRows.mu": {2, "inboxRows.mu"},
	"farChan.mu":   {3, "pool channel's lock"},
	"Links.mu":     {leafRank, "Links.mu"},
	"Conn.mu":      {leafRank, "Conn's lock"},
	"Outbox.mu":    {leafRank, "Outbox.mu"},
	"Follow.mu":    {leafRank, "Follow.mu"},
}

// TestLinksLockOrder walks the links feature as TestLockOrder walks the
// core: every nesting of its own locks follows links/doc.go's order.
func TestLinksLockOrder(t *testing.T) {
	t.Parallel()
	checkLockOrder(t, "links", linksLockRanks, 2)
}
