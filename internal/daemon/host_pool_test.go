package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/testsshd"
)

// poolOf is host's pooled channels now.
func poolOf(s *Server, host string) []*farChan {
	s.links.mu.Lock()
	defer s.links.mu.Unlock()
	if h := s.links.hosts[host]; h != nil {
		return slices.Clone(h.pool)
	}
	return nil
}

// openConns counts the client connections handed to hosts right now.
func openConns(s *Server) int {
	s.links.mu.Lock()
	defer s.links.mu.Unlock()
	return len(s.links.conns)
}

// handedChan is the channel of the one host connection open now.
func handedChan(t testing.TB, s *Server) *farChan {
	t.Helper()
	s.links.mu.Lock()
	defer s.links.mu.Unlock()
	if len(s.links.conns) != 1 {
		t.Fatalf("%d host connections open, want 1", len(s.links.conns))
	}
	for hc := range s.links.conns {
		return hc.fc
	}
	return nil
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
	waitStatus(t, dialRPC(t, w.sock), "far", "up")
	eventually(t, "a channel warmed", func() bool { return len(poolOf(w.near, "far")) == 1 })
	return w
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
	w := pooledWorld(t, nil)
	if st := cliCall(t, w); st["state"] == nil {
		t.Fatalf("get-agent-state through the pool: %v", st)
	}
	// The first call took the warm channel and warmed the next; both
	// are pooled now.
	eventually(t, "two channels pooled", func() bool { return len(poolOf(w.near, "far")) == 2 })
	opens := w.near.links.opens.Load()
	procs := farProxies(w.bin)
	slices.Sort(procs)
	for i := 0; i < 20; i++ {
		if st := cliCall(t, w); st["state"] == nil {
			t.Fatalf("call %d: %v", i, st)
		}
	}
	if n := w.near.links.opens.Load(); n != opens {
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
		case <-fc.done:
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
		case <-fc.done:
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

// A channel past the first idles at most poolIdle on the daemon's clock;
// the first stays warm with no timer.
func TestHostPoolIdleTimeoutOnTheDaemonClock(t *testing.T) {
	t.Parallel()
	clk := fakeclock.New(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	w := pooledWorld(t, func(o *Options) { o.Tracker.Clock = clk })
	cliCall(t, w)
	eventually(t, "two channels pooled", func() bool { return len(poolOf(w.near, "far")) == 2 })
	pooled := poolOf(w.near, "far")
	clk.Advance(poolIdle - time.Second)
	if n := len(poolOf(w.near, "far")); n != 2 {
		t.Fatalf("%d pooled before the idle timeout", n)
	}
	clk.Advance(time.Second)
	p := poolOf(w.near, "far")
	if len(p) != 1 {
		t.Fatalf("%d pooled after the idle timeout, want the warm one", len(p))
	}
	var gone *farChan
	for _, fc := range pooled {
		if fc != p[0] {
			gone = fc
		}
	}
	select {
	case <-gone.done:
	case <-time.After(guard):
		t.Fatal("the expired channel was not closed")
	}
	clk.Advance(10 * poolIdle)
	if n := len(poolOf(w.near, "far")); n != 1 {
		t.Fatalf("the warm channel expired too (%d pooled)", n)
	}
	if st := cliCall(t, w); st["state"] == nil {
		t.Fatalf("a call after the idle timeout: %v", st)
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
	waitStatus(t, dialRPC(t, w.sock), "far", "up")
	before := w.near.links.opens.Load()
	for i := 0; i < 3; i++ {
		cliCall(t, w)
	}
	if n := w.near.links.opens.Load() - before; n != 3 {
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
	if err := w.near.hostCall(context.Background(), "far", "hello", nil, &hello); err != nil || hello["type"] != "hello" {
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

// farPipe is a far daemon's channel held open: what the test writes on w
// is what the far side sent; requests written to it are dropped.
type farPipe struct {
	r *io.PipeReader
	w *io.PipeWriter
}

func (f *farPipe) Read(p []byte) (int, error)  { return f.r.Read(p) }
func (f *farPipe) Write(p []byte) (int, error) { return len(p), nil }
func (f *farPipe) Close() error                { f.r.Close(); return nil }

// A channel goes back to the pool only when the far side sent exactly
// the answers to what was asked, in order, and nothing more: an event
// line, a line under way, an answer missing, one nobody asked for, one
// out of order, a far internal error or a verb that keeps state closes it.
func TestHostConnReleasedToThePoolOnlyWhenClean(t *testing.T) {
	t.Parallel()
	ans := func(id int) string { return fmt.Sprintf(`{"id":%d,"result":{"type":"agent_state"}}`+"\n", id) }
	cases := []struct {
		name  string
		verbs []string
		far   string
		lines int // complete lines the client gets before the release
		clean bool
	}{
		{"answers in order", []string{"get-agent-state", "list-sessions"}, ans(1) + ans(2), 2, true},
		{"a far error answered", []string{"get-agent-state"}, `{"id":1,"error":{"code":"session_not_found","message":"x"}}` + "\n", 1, true},
		{"nothing asked", nil, "", 0, true},
		{"an answer missing", []string{"get-agent-state", "list-sessions"}, ans(1), 1, false},
		{"an event line", []string{"get-agent-state"}, ans(1) + `{"type":"agent-state","seq":1}` + "\n", 2, false},
		{"a line under way", []string{"get-agent-state"}, ans(1) + `{"id":`, 1, false},
		{"an answer nobody asked for", []string{"get-agent-state"}, ans(1) + ans(2), 2, false},
		{"out of order", []string{"get-agent-state", "list-sessions"}, ans(2) + ans(1), 2, false},
		{"a far internal error", []string{"get-agent-state"}, `{"id":1,"error":{"code":"internal","message":"x"}}` + "\n", 1, false},
		{"subscribe", []string{"subscribe"}, ans(1), 1, false},
		{"wait-for", []string{"wait-for"}, ans(1), 1, false},
		{"link-peer again", []string{"link-peer"}, ans(1), 1, false},
		{"a nested host connection", []string{"open-host-connection"}, ans(1), 1, false},
		{"a verb this daemon does not know", []string{"frobnicate"}, ans(1), 1, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &Server{opt: Options{Logf: func(string, ...any) {}}, clock: fakeclock.New(time.Unix(0, 0))}
			s.verbs = s.verbTable() // poolVerb reads the declarations
			s.links = &links{s: s, hosts: map[string]*hostLink{}, refused: map[string]refusedHost{}, conns: map[*hostConn]string{}}
			h := &hostLink{ls: s.links, name: "far", status: linkUp}
			s.links.hosts["far"] = h
			near, client := net.Pipe()
			defer client.Close()
			got := make(chan struct{}, 16)
			go func() {
				r := bufio.NewReader(client)
				for {
					if _, err := proto.ReadLine(r, proto.MaxLine); err != nil {
						return
					}
					got <- struct{}{}
				}
			}()
			cn := newConn(s, near)
			pr, pw := io.Pipe()
			defer pw.Close()
			fc := newFarChan(h, nil, &farPipe{r: pr, w: pw})
			hc := &hostConn{host: "far", fc: fc, cn: cn, popped: make(chan struct{}, 1), over: make(chan struct{})}
			fc.attach(hc)
			s.links.track(hc)
			for i, v := range tc.verbs {
				hc.forward(cn, request{line: []byte(fmt.Sprintf(`{"id":%d,"verb":%q}`, i+1, v))})
			}
			go fc.pump()
			if _, err := pw.Write([]byte(tc.far)); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < tc.lines; i++ {
				select {
				case <-got:
				case <-time.After(guard):
					t.Fatalf("line %d never reached the client", i+1)
				}
			}
			hc.release()
			pooled := len(poolOf(s, "far")) == 1
			if pooled != tc.clean {
				t.Fatalf("pooled %v, want %v (dirty: %q)", pooled, tc.clean, hc.dirty)
			}
			if !tc.clean {
				select {
				case <-fc.done:
				case <-time.After(guard):
					t.Fatal("a channel not pooled was not closed")
				}
			}
			// An idle pooled channel the far side writes on is closed.
			if pooled {
				pw.Write([]byte(ans(9)))
				select {
				case <-fc.done:
				case <-time.After(guard):
					t.Fatal("a pooled channel the far side wrote on stayed open")
				}
				if n := len(poolOf(s, "far")); n != 0 {
					t.Fatalf("%d pooled after the far side wrote on the idle one", n)
				}
			}
		})
	}
}

// Whatever the far side sends, a channel goes back to the pool only when
// what it sent was exactly one answer per request, in order, each line
// whole, and no far internal error.
func FuzzHostConnRelease(f *testing.F) {
	f.Add([]byte(`{"id":1,"result":{}}`+"\n"), 1)
	f.Add([]byte(`{"id":1,"result":{}}`+"\n"+`{"id":2,"error":{"code":"timeout"}}`+"\n"), 2)
	f.Add([]byte(`{"id":1,"result":{}}`+"\n"+`{"type":"x"}`+"\n"), 1)
	f.Add([]byte(`{"id":1,"result":{}}`+"\n"+`{"id"`), 1)
	f.Add([]byte(`{"ID":1,"Result":{}}`+"\n"), 1)
	f.Fuzz(func(t *testing.T, far []byte, nreq int) {
		nreq = max(0, min(nreq, 4))
		s := &Server{opt: Options{Logf: func(string, ...any) {}}, clock: fakeclock.New(time.Unix(0, 0))}
		s.links = &links{s: s, hosts: map[string]*hostLink{}, refused: map[string]refusedHost{}, conns: map[*hostConn]string{}}
		h := &hostLink{ls: s.links, name: "far", status: linkUp}
		s.links.hosts["far"] = h
		near, client := net.Pipe()
		defer client.Close()
		go io.Copy(io.Discard, client)
		cn := newConn(s, near)
		pr, pw := io.Pipe()
		defer pw.Close()
		fc := newFarChan(h, nil, &farPipe{r: pr, w: pw})
		hc := &hostConn{host: "far", fc: fc, cn: cn, popped: make(chan struct{}, 1), over: make(chan struct{})}
		fc.attach(hc)
		s.links.track(hc)
		for i := 1; i <= nreq; i++ {
			hc.forward(cn, request{line: []byte(fmt.Sprintf(`{"id":%d,"verb":"get-agent-state"}`, i))})
		}
		go fc.pump()
		go pw.Write(far)
		deadline := time.Now().Add(guard)
		for fc.cr.n.Load() < int64(len(far)) {
			select {
			case <-fc.done:
			default:
				if time.Now().After(deadline) {
					t.Fatal("the pump never read the far bytes")
				}
				time.Sleep(time.Millisecond)
				continue
			}
			break
		}
		hc.release()
		if len(poolOf(s, "far")) == 1 && !exactAnswers(far, nreq) {
			t.Fatalf("pooled after the far side sent %q for %d requests", far, nreq)
		}
	})
}

// exactAnswers: far is n whole answer lines for ids 1..n (blank lines
// aside), none a far internal error.
func exactAnswers(far []byte, n int) bool {
	if len(far) > 0 && far[len(far)-1] != '\n' {
		return false
	}
	got := 0
	for _, l := range strings.Split(string(far), "\n") {
		if strings.TrimSuffix(l, "\r") == "" {
			continue
		}
		var m map[string]json.RawMessage
		if !strings.HasPrefix(l, "{") || json.Unmarshal([]byte(l), &m) != nil {
			return false
		}
		_, res := m["result"]
		e, isErr := m["error"]
		if !res && !isErr {
			return false
		}
		var code struct {
			Code string `json:"code"`
		}
		json.Unmarshal(e, &code)
		if code.Code == "internal" || got >= n || !sameID(m["id"], json.RawMessage(strconv.Itoa(got+1))) {
			return false
		}
		got++
	}
	return got == n
}
