// Package pace is the frame pacing the attach stream and the attach client
// share: a change after a quiet spell goes out at once, a short burst of
// changes too (a person typing, a prompt redrawn), and a flood is held to
// one frame per interval. It owns no timer and no goroutine: the caller
// asks how long to wait and arms its own one-shot timer, so nothing ticks
// while nothing changes.
package pace

import "time"

// Limiter is a token bucket of frames. The zero value is not ready: use
// New.
type Limiter struct {
	every time.Duration // one token comes back per every
	burst float64       // at most this many tokens are kept
	have  float64
	at    time.Time // when have was counted
}

// New is a limiter that lets burst frames go at once and then one per
// every.
func New(every time.Duration, burst int) *Limiter {
	return &Limiter{every: every, burst: float64(burst), have: float64(burst)}
}

// Wait says how long a frame due at now must wait: 0 means draw now (the
// frame is counted); otherwise ask again after the wait.
func (l *Limiter) Wait(now time.Time) time.Duration {
	if !l.at.IsZero() {
		l.have = min(l.burst, l.have+float64(now.Sub(l.at))/float64(l.every))
	}
	l.at = now
	if l.have >= 1 {
		l.have--
		return 0
	}
	return time.Duration((1 - l.have) * float64(l.every))
}
