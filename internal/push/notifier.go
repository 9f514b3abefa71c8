package push

import (
	"context"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/config"
)

// DefaultQueue is how many notifications one provider may have waiting
// to be sent; one more is dropped (and logged).
const DefaultQueue = 32

// Options configure a Notifier.
type Options struct {
	// Settings are [notify] as applied; SetSettings replaces them.
	Settings config.PushSettings
	// Clock times every rule; nil is the wall clock.
	Clock agentstate.Clock
	// Logf receives one line per send and per dropped notification; nil
	// discards them. No line holds a secret.
	Logf func(format string, args ...any)
	// Send configures the sends: the environment secrets are read from,
	// the certificates, the timeout.
	Send SendOptions
	// QueueSize bounds each provider's queue; 0 is DefaultQueue.
	QueueSize int
	// OnResult sees each send's result, after it is logged.
	OnResult func(Result)
	// Lookup, when set, is asked for an item when it falls due: one it
	// does not find open (closed, or snoozed) is not sent, and one it
	// finds is sent as it reads now. It guards against changes missed.
	Lookup func(id string) (inbox.Item, bool)
}

// Notifier applies the rules to the Inbox's changes and sends what falls
// due. Its methods never block on the network: sends run on a goroutine
// per provider, started when that provider has work and gone when it has
// none.
type Notifier struct {
	opt    Options
	clock  agentstate.Clock
	snd    *sender
	ctx    context.Context
	cancel context.CancelFunc

	mu        sync.Mutex // guards r and providers; never held across a send
	r         *rules
	providers []Provider

	tmu     sync.Mutex // guards the timer; taken before mu
	timer   agentstate.Timer
	timerAt time.Time

	lmu    sync.Mutex // guards lanes and closed
	idle   *sync.Cond // on lmu: a lane stopped
	lanes  map[string]*lane
	closed bool
	wg     sync.WaitGroup
}

// lane is one provider's queue.
type lane struct {
	q       chan job
	running bool
}

type job struct {
	p         Provider
	n         Notification
	allowHTTP bool
}

// New makes a Notifier with opt.Settings applied.
func New(opt Options) *Notifier {
	if opt.Clock == nil {
		opt.Clock = agentstate.RealClock{}
	}
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	if opt.QueueSize <= 0 {
		opt.QueueSize = DefaultQueue
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := &Notifier{opt: opt, clock: opt.Clock, snd: newSender(opt.Send), ctx: ctx, cancel: cancel,
		r: newRules(), lanes: map[string]*lane{}}
	n.idle = sync.NewCond(&n.lmu)
	n.setLocked(opt.Settings)
	return n
}

func (n *Notifier) setLocked(s config.PushSettings) {
	n.providers = Providers(s)
	n.r.settings = s
	n.r.providers = len(n.providers)
}

// SetSettings applies new settings: to what is waiting too.
func (n *Notifier) SetSettings(s config.PushSettings) {
	n.mu.Lock()
	n.setLocked(s)
	n.mu.Unlock()
	n.evaluate()
}

// Settings are the settings in use.
func (n *Notifier) Settings() config.PushSettings {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.r.settings
}

// Observe takes one change of the Inbox, in the order they happened.
func (n *Notifier) Observe(ev inbox.Event) {
	n.mu.Lock()
	n.r.observe(ev, n.clock.Now())
	n.mu.Unlock()
	n.rearm()
}

// Resync replaces what the Notifier knows is open with the Inbox's open
// items, after changes were missed.
func (n *Notifier) Resync(open []inbox.Item) {
	n.mu.Lock()
	n.r.resync(open, n.clock.Now())
	n.mu.Unlock()
	n.rearm()
}

// PersonTyped says the person typed in an attached client now: what
// would be sent waits until quiet_active_seconds have passed since.
func (n *Notifier) PersonTyped() {
	now := n.clock.Now()
	n.mu.Lock()
	if now.After(n.r.lastKey) {
		n.r.lastKey = now
	}
	n.mu.Unlock()
}

// Waiting is how many items are open and not sent yet.
func (n *Notifier) Waiting() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.r.open)
}

// NextSend is when the earliest item waiting falls due (the settle, the
// person's quiet time, a cooldown or the hour's cap may hold it); zero
// when none waits.
func (n *Notifier) NextSend() time.Time {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.r.next()
}

// Close stops the timer and every send in flight, and returns when no
// send runs.
func (n *Notifier) Close() {
	n.lmu.Lock()
	n.closed = true
	n.lmu.Unlock()
	n.cancel()
	n.tmu.Lock()
	if n.timer != nil {
		n.timer.Stop()
		n.timer = nil
	}
	n.tmu.Unlock()
	n.wg.Wait()
}

// evaluate sends what is due and arms the timer for what is next.
func (n *Notifier) evaluate() {
	n.mu.Lock()
	due := n.r.take(n.clock.Now())
	providers, s := n.providers, n.r.settings
	n.mu.Unlock()
	for _, it := range due {
		if n.opt.Lookup != nil {
			now, ok := n.opt.Lookup(it.ID)
			if !ok || now.Snoozed() {
				continue
			}
			it = now
		}
		msg := FromItem(it, s)
		for _, p := range providers {
			n.enqueue(job{p: p, n: msg, allowHTTP: s.AllowHTTPRedirects})
		}
	}
	n.rearm()
}

// rearm keeps one timer, for the earliest item due; none when nothing
// waits for time. The next time is read under tmu, so two rearms cannot
// cross.
func (n *Notifier) rearm() {
	n.tmu.Lock()
	defer n.tmu.Unlock()
	n.lmu.Lock()
	closed := n.closed
	n.lmu.Unlock()
	n.mu.Lock()
	now := n.clock.Now()
	next := n.r.next()
	n.mu.Unlock()
	if closed {
		next = time.Time{}
	}
	if next.Equal(n.timerAt) && (next.IsZero() || n.timer != nil) {
		return
	}
	if n.timer != nil {
		n.timer.Stop()
		n.timer = nil
	}
	n.timerAt = next
	if next.IsZero() {
		return
	}
	n.timer = n.clock.AfterFunc(max(next.Sub(now), time.Millisecond), n.fire)
}

// fire is the timer: something may be due.
func (n *Notifier) fire() {
	n.tmu.Lock()
	n.timer, n.timerAt = nil, time.Time{}
	n.tmu.Unlock()
	n.evaluate()
}

// enqueue hands a send to its provider's lane, starting the lane's
// goroutine when it has none. A full lane drops the send.
func (n *Notifier) enqueue(j job) {
	n.lmu.Lock()
	defer n.lmu.Unlock()
	if n.closed {
		return
	}
	l := n.lanes[j.p.Name]
	if l == nil {
		l = &lane{q: make(chan job, n.opt.QueueSize)}
		n.lanes[j.p.Name] = l
	}
	select {
	case l.q <- j:
	default:
		n.opt.Logf("push: %s: %d notifications already wait to be sent: %s item %s dropped", j.p, cap(l.q), j.n.Kind, j.n.ItemID)
		return
	}
	if !l.running {
		l.running = true
		n.wg.Add(1)
		go n.run(l)
	}
}

// run sends a lane's jobs one at a time and ends when it has none.
func (n *Notifier) run(l *lane) {
	defer n.wg.Done()
	for {
		n.lmu.Lock()
		var j job
		select {
		case j = <-l.q:
		default:
			l.running = false
			n.idle.Broadcast()
			n.lmu.Unlock()
			return
		}
		n.lmu.Unlock()
		if n.ctx.Err() != nil {
			continue // stopping: what waits is dropped
		}
		res := n.snd.send(n.ctx, j.p, j.n, j.allowHTTP)
		if res.OK {
			n.opt.Logf("push: %s: sent %s item %s (%v)", j.p, j.n.Kind, j.n.ItemID, res.Took.Round(time.Millisecond))
		} else {
			n.opt.Logf("push: %s: %s item %s not sent: %s", j.p, j.n.Kind, j.n.ItemID, res.Error)
		}
		if n.opt.OnResult != nil {
			n.opt.OnResult(res)
		}
	}
}

// waitIdle returns once no lane sends: everything enqueued has been sent
// (tests).
func (n *Notifier) waitIdle() {
	n.lmu.Lock()
	defer n.lmu.Unlock()
	for n.sendingLocked() {
		n.idle.Wait()
	}
}

func (n *Notifier) sendingLocked() bool {
	for _, l := range n.lanes {
		if l.running {
			return true
		}
	}
	return false
}
