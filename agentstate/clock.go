package agentstate

import "time"

// Clock is where the arbiter reads time and arms its one-shot timer. Tests
// inject a fake (see package fakeclock) so every timing rule is checked
// without sleeping; a nil Clock in Options means the real clock.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once, on its own goroutine or the caller's,
	// d after now. It must not call f while the caller holds a lock f needs.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a one-shot timer made by a Clock.
type Timer interface {
	Stop() bool
	Reset(d time.Duration) bool
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// AfterFunc wraps time.AfterFunc.
func (RealClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
