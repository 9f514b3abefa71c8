package daemon

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/internal/daemon/agents"
	"github.com/tuios/tuios/internal/daemon/links"
	"github.com/tuios/tuios/internal/testsshd"
)

// poolOf is host's pooled channels now.
func poolOf(s *Server, host string) []*links.Chan { return s.links.Pooled(host) }

// openConns counts the client connections handed to hosts right now.
func openConns(s *Server) int { return len(s.links.Handed()) }

// handedChan is the channel of the one host connection open now.
func handedChan(t testing.TB, s *Server) *links.Chan {
	t.Helper()
	handed := s.links.Handed()
	if len(handed) != 1 {
		t.Fatalf("%d host connections open, want 1", len(handed))
	}
	return handed[0]
}

// pooledWorld is a near daemon linked to the far one, a far session
// "api", and the first channel warmed.
func pooledWorld(t *testing.T, set func(*Options)) *linkWorld {
	return pooledWorldWith(t, testsshd.Options{}, set)
}

func pooledWorldWith(t *testing.T, opt testsshd.Options, set func(*Options)) *linkWorld {
	w := newLinkWorld(t, opt)
	dialRPC(t, w.far.Socket()).must("new-session", map[string]any{"name": "api", "argv": []string{"/bin/cat"}})
	w.startNear(w.hostTable("far"), set)
	waitFollowed(t, w)
	eventually(t, "a channel warmed", func() bool { return len(poolOf(w.near, "far")) == 1 })
	return w
}

// waitFollowed waits for the link to far to be up and the near daemon's
// follow of far's Inbox to be live: the follow opens its own channel as
// the link comes up, and a test that counts channels counts from after.
func waitFollowed(t *testing.T, w *linkWorld) {
	t.Helper()
	r := dialRPC(t, w.sock)
	waitStatus(t, r, "far", "up")
	eventually(t, "far's Inbox followed live", func() bool { return hostRows(t, r)["far"]["events"] == "live" })
}

// cliCall is what `tuios get-agent-state -w far:api` does: connect to
// the local socket, open-host-connection, one verb, close. It returns
// once the near daemon is done with the connection (as a CLI process
// that exits leaves it).
func cliCall(t testing.TB, w *linkWorld) map[string]any {
	t.Helper()
	r := dialRPC(t, w.sock)
	r.must("open-host-connection", map[string]any{"host": "far"})
	res := r.must("get-agent-state", map[string]any{"session": "api"})
	r.c.Close()
	eventually(t, "the host connection released", func() bool { return openConns(w.near) == 0 })
	return res
}

// Sequential CLI-style calls reuse the same far stdio-proxy: after the
// first, no channel is opened and no far process is started.
func TestHostPoolSequentialCallsReuseOneChannel(t *testing.T) {
	t.Parallel() // its far processes are told apart by its world's own binary name (farProxies)
	w := pooledWorld(t, nil)
	if st := cliCall(t, w); st["state"] == nil {
		t.Fatalf("get-agent-state through the pool: %v", st)
	}
	// The first call took the warm channel and warmed the next; both
	// are pooled now.
	eventually(t, "two channels pooled", func() bool { return len(poolOf(w.near, "far")) == 2 })
	opens := w.near.links.Opens()
	procs := farProxies(w.bin)
	slices.Sort(procs)
	for i := 0; i < 20; i++ {
		if st := cliCall(t, w); st["state"] == nil {
			t.Fatalf("call %d: %v", i, st)
		}
	}
	if n := w.near.links.Opens(); n != opens {
		t.Fatalf("20 calls opened %d channels, want none", n-opens)
	}
	after := farProxies(w.bin)
	slices.Sort(after)
	if !slices.Equal(procs, after) {
		t.Fatalf("far stdio-proxies before %v, after %v: the calls started far processes", procs, after)
	}
	// A far error is an answer like any other: the channel stays.
	r := dialRPC(t, w.sock)
	r.must("open-host-connection", map[string]any{"host": "far"})
	fc := handedChan(t, w.near)
	if _, err := r.call("get-agent-state", map[string]any{"session": "nope"}); err == nil || err.Code != "session_not_found" {
		t.Fatalf("far error: %v", err)
	}
	r.c.Close()
	eventually(t, "released", func() bool { return openConns(w.near) == 0 })
	if !slices.Contains(poolOf(w.near, "far"), fc) {
		t.Fatal("a channel that carried a far error answer was not pooled")
	}
}

// A channel that carried a subscribe or a wait-for, or that was left
// with a request unanswered, is closed, never handed to the next caller.
func TestHostPoolNeverReusesStreamsOrUnanswered(t *testing.T) {
	t.Parallel()
	w := pooledWorld(t, nil)
	notPooled := func(what string, use func(r *rpc)) {
		t.Helper()
		r := dialRPC(t, w.sock)
		r.must("open-host-connection", map[string]any{"host": "far"})
		fc := handedChan(t, w.near)
		use(r)
		r.c.Close()
		eventually(t, what+": released", func() bool { return openConns(w.near) == 0 })
		select {
		case <-fc.Done():
		case <-time.After(guard):
			t.Fatalf("%s: the channel was not closed", what)
		}
		if slices.Contains(poolOf(w.near, "far"), fc) {
			t.Fatalf("%s: the channel was pooled", what)
		}
		// The next caller gets a working channel all the same.
		if st := cliCall(t, w); st["state"] == nil {
			t.Fatalf("after %s: %v", what, st)
		}
	}
	notPooled("subscribe", func(r *rpc) {
		r.must("subscribe", map[string]any{"types": []string{"agent-state"}})
	})
	notPooled("wait-for", func(r *rpc) {
		// Answered (timed out) and all the same not reused.
		if _, err := r.call("wait-for", map[string]any{"session": "later", "condition": "session-exists", "timeout": 50}); err == nil || err.Code != "timeout" {
			t.Fatalf("wait-for a session nobody makes: %v", err)
		}
	})
	notPooled("an unanswered request", func(r *rpc) {
		r.c.Write([]byte(`{"id":7,"verb":"wait-for","params":{"session":"later","condition":"session-exists","timeout":30000}}` + "\n"))
		eventually(t, "the wait forwarded", func() bool { return hostPending(w.near) == 1 })
	})
	// A clean one is pooled (the control).
	r := dialRPC(t, w.sock)
	r.must("open-host-connection", map[string]any{"host": "far"})
	fc := handedChan(t, w.near)
	r.must("list-sessions", nil)
	r.c.Close()
	eventually(t, "a clean channel pooled", func() bool { return slices.Contains(poolOf(w.near, "far"), fc) })
}

// The pool empties when the link drops (the far daemon stops: every far
// stdio-proxy ends) and fills again once it is back up.
func TestHostPoolEmptiesOnLinkDrop(t *testing.T) {
	t.Parallel()
	w := pooledWorld(t, nil)
	cliCall(t, w)
	eventually(t, "two channels pooled", func() bool { return len(poolOf(w.near, "far")) == 2 })
	pooled := poolOf(w.near, "far")
	r := dialRPC(t, w.sock)
	ev := subscribeHosts(t, w.sock)
	w.sshd.Stop() // the ssh connection ends; the far daemon lives on
	ev.waitFor("far", "reconnecting")
	if n := len(poolOf(w.near, "far")); n != 0 {
		t.Fatalf("%d pooled after the link dropped", n)
	}
	for _, fc := range pooled {
		select {
		case <-fc.Done():
		case <-time.After(guard):
			t.Fatal("a pooled channel outlived its link")
		}
	}
	w.sshd.Restart()
	waitStatus(t, r, "far", "up")
	eventually(t, "a channel warmed on the new link", func() bool {
		p := poolOf(w.near, "far")
		return len(p) == 1 && !slices.Contains(pooled, p[0])
	})
	if st := cliCall(t, w); st["state"] == nil {
		t.Fatalf("a call after the redial: %v", st)
	}
}

// A channel past the first idles at most links.PoolIdle on the daemon's clock;
// the first stays warm with no timer.
func TestHostPoolIdleTimeoutOnTheDaemonClock(t *testing.T) {
	t.Parallel()
	clk := &poolClock{Clock: fakeclock.New(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))}
	w := pooledWorld(t, func(o *Options) { o.Tracker.Clock = clk })
	cliCall(t, w)
	// The surplus channel is in the pool a moment before its idle timer
	// is armed (outside the links' lock): time moved in between would
	// push its deadline past the test's second step.
	eventually(t, "two channels pooled, the second on its idle timer", func() bool {
		return len(poolOf(w.near, "far")) == 2 && clk.idleArmed.Load() == 1
	})
	pooled := poolOf(w.near, "far")
	clk.Advance(links.PoolIdle - time.Second)
	if n := len(poolOf(w.near, "far")); n != 2 {
		t.Fatalf("%d pooled before the idle timeout", n)
	}
	clk.Advance(time.Second)
	p := poolOf(w.near, "far")
	if len(p) != 1 {
		t.Fatalf("%d pooled after the idle timeout, want the warm one", len(p))
	}
	var gone *links.Chan
	for _, fc := range pooled {
		if fc != p[0] {
			gone = fc
		}
	}
	select {
	case <-gone.Done():
	case <-time.After(guard):
		t.Fatal("the expired channel was not closed")
	}
	clk.Advance(10 * links.PoolIdle)
	if n := len(poolOf(w.near, "far")); n != 1 {
		t.Fatalf("the warm channel expired too (%d pooled)", n)
	}
	if st := cliCall(t, w); st["state"] == nil {
		t.Fatalf("a call after the idle timeout: %v", st)
	}
}

// poolClock is a fake daemon clock that counts the idle timers the host
// pool arms, so a test steps time only once the timer it steps is there.
// The pool's are told from the clock's other users (the follow's backstop
// is a minute too) by who asks: links' putPool.
type poolClock struct {
	*fakeclock.Clock
	idleArmed atomic.Int32
}

func (c *poolClock) AfterFunc(d time.Duration, f func()) agentstate.Timer {
	t := c.Clock.AfterFunc(d, f)
	if d == links.PoolIdle && calledFrom("links.(*hostLink).putPool") {
		c.idleArmed.Add(1)
	}
	return t
}

// calledFrom says whether a function whose name ends in fn is on the
// caller's stack.
func calledFrom(fn string) bool {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.Function, fn) {
			return true
		}
		if !more {
			return false
		}
	}
}

// With the pool off every open-host-connection opens a channel of its
// own, and none is kept.
func TestHostPoolOff(t *testing.T) {
	t.Parallel()
	w := newLinkWorld(t, testsshd.Options{})
	dialRPC(t, w.far.Socket()).must("new-session", map[string]any{"name": "api", "argv": []string{"/bin/cat"}})
	w.startNear(w.hostTable("far"), func(o *Options) {
		env := o.Getenv
		o.Getenv = func(k string) string {
			if k == "TUIOS_HOST_POOL" {
				return "off"
			}
			return env(k)
		}
	})
	waitFollowed(t, w)
	before := w.near.links.Opens()
	for i := 0; i < 3; i++ {
		cliCall(t, w)
	}
	if n := w.near.links.Opens() - before; n != 3 {
		t.Fatalf("3 calls without the pool opened %d channels", n)
	}
	if n := len(poolOf(w.near, "far")); n != 0 {
		t.Fatalf("%d pooled with the pool off", n)
	}
}

// The far sshd's MaxSessions: the warm channel holds the last session
// there is; a call of the daemon's own (hostCall) closes it to make
// room, and open-host-connection then takes the channel hostCall keeps.
func TestHostPoolMakesRoomUnderMaxSessions(t *testing.T) {
	t.Parallel()
	// MaxSessions 3 leaves room, in OpenSSH 9.2, for the link's first
	// channel and one more: the warm one.
	w := pooledWorldWith(t, testsshd.Options{MaxSessions: 3}, nil)
	var hello map[string]any
	if err := w.near.links.Call(context.Background(), "far", "hello", nil, &hello); err != nil || hello["type"] != "hello" {
		t.Fatalf("hostCall with the only session pooled: %v %v", hello, err)
	}
	if n := len(poolOf(w.near, "far")); n != 0 {
		t.Fatalf("%d pooled after hostCall made room", n)
	}
	if st := cliCall(t, w); st["state"] == nil {
		t.Fatalf("open-host-connection after hostCall: %v", st)
	}
	eventually(t, "the channel pooled again", func() bool { return len(poolOf(w.near, "far")) == 1 })
}

// A channel that carried a verb goes back to the pool only when the verb
// table says the verb answers once and keeps nothing on the connection:
// the links' own tests (internal/daemon/links) take these as given.
func TestPoolableVerbs(t *testing.T) {
	t.Parallel()
	s := &Server{}
	if err := agents.New().Init(host{s}); err != nil { // a feature's verb: get-agent-state
		t.Fatal(err)
	}
	s.verbs = s.verbTable()
	for verb, want := range map[string]bool{"get-agent-state": true, "list-sessions": true, "hello": true,
		"subscribe": false, "wait-for": false, "link-peer": false, "open-host-connection": false, "frobnicate": false} {
		if got := s.poolVerb(verb); got != want {
			t.Errorf("Poolable(%s) = %v, want %v", verb, got, want)
		}
	}
}
