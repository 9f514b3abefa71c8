package fakeclock

import (
	"sort"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
)

// Clock is a fake clock. The zero value is not usable; call New.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	seq    int
	timers []*timer
}

// New returns a clock that reads start until advanced.
func New(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc arms a one-shot timer that fires during a later Advance.
func (c *Clock) AfterFunc(d time.Duration, f func()) agentstate.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, f: f}
	c.arm(t, d)
	return t
}

// Pending is the number of armed timers. Tests use it to prove that an idle
// arbiter holds none.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// Advance moves time forward by d, firing every timer that falls due, each
// at its own deadline (so a callback reading Now sees its deadline), in
// deadline order. Callbacks run without the clock's lock held and may arm
// new timers, which fire in the same Advance if they fall due.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	for {
		sort.SliceStable(c.timers, func(i, j int) bool {
			if c.timers[i].at.Equal(c.timers[j].at) {
				return c.timers[i].seq < c.timers[j].seq
			}
			return c.timers[i].at.Before(c.timers[j].at)
		})
		if len(c.timers) == 0 || c.timers[0].at.After(end) {
			break
		}
		t := c.timers[0]
		c.timers = c.timers[1:]
		t.armed = false
		if t.at.After(c.now) {
			c.now = t.at
		}
		c.mu.Unlock()
		t.f()
		c.mu.Lock()
	}
	c.now = end
	c.mu.Unlock()
}

// Set jumps to t (which must not be before Now), firing due timers.
func (c *Clock) Set(t time.Time) { c.Advance(t.Sub(c.Now())) }

func (c *Clock) arm(t *timer, d time.Duration) {
	if d < 0 {
		d = 0
	}
	c.seq++
	t.seq = c.seq
	t.at = c.now.Add(d)
	if !t.armed {
		t.armed = true
		c.timers = append(c.timers, t)
	}
}

func (c *Clock) remove(t *timer) bool {
	if !t.armed {
		return false
	}
	for i, x := range c.timers {
		if x == t {
			c.timers = append(c.timers[:i], c.timers[i+1:]...)
			break
		}
	}
	t.armed = false
	return true
}

type timer struct {
	c     *Clock
	f     func()
	at    time.Time
	seq   int
	armed bool
}

func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	return t.c.remove(t)
}

func (t *timer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.armed
	t.c.arm(t, d)
	return was
}
