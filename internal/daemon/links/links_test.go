package links

import (
	"testing"
	"time"
)

// A failed attempt waits 1 s, then twice as long after each one that
// fails in a row, never more than 30 s (the daemon's whole-link test,
// TestLinksRedialBackoffSchedule, watches the schedule on its clock).
func TestRedialBackoff(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 5: 16 * time.Second, 6: 30 * time.Second, 40: 30 * time.Second} {
		if got := redialBackoff(n); got != want {
			t.Errorf("redialBackoff(%d) = %v, want %v", n, got, want)
		}
	}
}
