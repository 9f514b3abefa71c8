package links

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// testCore is the core as these tests need it: a clock and a log. Any
// other method of core.Host panics (nil), so a test that reached further
// would say so.
type testCore struct {
	core.Host
	clk agentstate.Clock
}

func (c testCore) Clock() agentstate.Clock { return c.clk }
func (c testCore) Log() core.Log           { return core.Log{} }

// poolable are the verbs the daemon's verb table declares poolable among
// those these tests send (TestPoolableVerbs in package daemon checks the
// table says so).
var poolable = map[string]bool{"get-agent-state": true, "list-sessions": true, "hello": true}

// testLinks is Links with one host "far", up, and no dialling.
func testLinks() (*Links, *hostLink) {
	ls := &Links{core: testCore{clk: fakeclock.New(time.Unix(0, 0))}, opt: Options{Poolable: func(v string) bool { return poolable[v] }},
		hosts: map[string]*hostLink{}, refused: map[string]refusedHost{}, conns: map[*Conn]string{}}
	h := &hostLink{ls: ls, name: "far", status: StatusUp}
	ls.hosts["far"] = h
	return ls, h
}

// pipeClient is a client connection on one end of a pipe, as the
// daemon's connection writes: one line per answer, under a write lock.
type pipeClient struct {
	ctx    context.Context
	cancel context.CancelFunc
	c      net.Conn
	mu     sync.Mutex
	w      *bufio.Writer
	closed chan struct{}
	once   sync.Once
}

func newPipeClient(c net.Conn) *pipeClient {
	ctx, cancel := context.WithCancel(context.Background())
	return &pipeClient{ctx: ctx, cancel: cancel, c: c, w: bufio.NewWriter(c), closed: make(chan struct{})}
}

func (p *pipeClient) Context() context.Context { return p.ctx }
func (p *pipeClient) Closed() <-chan struct{}  { return p.closed }

func (p *pipeClient) Send(r proto.Response) {
	b, _ := json.Marshal(r)
	p.WriteLine(b, true)
}

func (p *pipeClient) WriteLine(line []byte, flush bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.w.Write(line)
	p.w.WriteByte('\n')
	if flush {
		p.w.Flush()
	}
}

func (p *pipeClient) Flush() {
	p.mu.Lock()
	p.w.Flush()
	p.mu.Unlock()
}

func (p *pipeClient) Stop() {
	p.once.Do(func() {
		p.cancel()
		p.c.Close()
		close(p.closed)
	})
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
			ls, h := testLinks()
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
			cn := newPipeClient(near)
			pr, pw := io.Pipe()
			defer pw.Close()
			fc := newFarChan(h, nil, &farPipe{r: pr, w: pw})
			hc := &Conn{ls: ls, host: "far", fc: fc, cl: cn, popped: make(chan struct{}, 1), over: make(chan struct{})}
			fc.attach(hc)
			ls.track(hc)
			for i, v := range tc.verbs {
				hc.Forward([]byte(fmt.Sprintf(`{"id":%d,"verb":%q}`, i+1, v)), nil)
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
			pooled := len(ls.Pooled("far")) == 1
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
				if n := len(ls.Pooled("far")); n != 0 {
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
		ls, h := testLinks()
		near, client := net.Pipe()
		defer client.Close()
		go io.Copy(io.Discard, client)
		cn := newPipeClient(near)
		pr, pw := io.Pipe()
		defer pw.Close()
		fc := newFarChan(h, nil, &farPipe{r: pr, w: pw})
		hc := &Conn{ls: ls, host: "far", fc: fc, cl: cn, popped: make(chan struct{}, 1), over: make(chan struct{})}
		fc.attach(hc)
		ls.track(hc)
		for i := 1; i <= nreq; i++ {
			hc.Forward([]byte(fmt.Sprintf(`{"id":%d,"verb":"get-agent-state"}`, i)), nil)
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
		if len(ls.Pooled("far")) == 1 && !exactAnswers(far, nreq) {
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

// farBytes is a far daemon that writes fixed bytes and then hangs up.
type farBytes struct{ r *bytes.Reader }

func (f *farBytes) Read(p []byte) (int, error)  { return f.r.Read(p) }
func (f *farBytes) Write(p []byte) (int, error) { return len(p), nil }
func (f *farBytes) Close() error                { return nil }

// Whatever the far side writes on a host connection, the client gets only
// JSON lines, every request it sent is answered (by the far daemon or,
// when the stream ends, host_unreachable), and nothing hangs or panics.
func FuzzHostConnPump(f *testing.F) {
	f.Add([]byte(`{"id":1,"result":{"type":"session_list"}}`+"\n"), 2)
	f.Add([]byte(`{"seq":3,"type":"agent-state"}`+"\n"+`{"id":1,"error":{"code":"timeout","message":"x"}}`+"\n"), 1)
	f.Add([]byte("HTTP/1.1 400 \x1b[31mnope\n"), 1)
	f.Add([]byte(`{"id":1,"result":{}}`), 3)
	f.Add([]byte("\n\n\r\n[1,2]\n\"x\"\nnull\n"), 2)
	f.Fuzz(func(t *testing.T, far []byte, nreq int) {
		nreq = max(0, min(nreq, 8))
		ls, _ := testLinks()
		near, client := net.Pipe()
		defer client.Close()
		cn := newPipeClient(near)
		h := &hostLink{ls: ls, name: "far"}
		fc := newFarChan(h, nil, &farBytes{r: bytes.NewReader(far)})
		hc := &Conn{ls: ls, host: "far", fc: fc, cl: cn, popped: make(chan struct{}, 1), over: make(chan struct{})}
		fc.attach(hc)
		for i := 1; i <= nreq; i++ {
			hc.Forward([]byte(fmt.Sprintf(`{"id":%d,"verb":"hello"}`, i)), nil)
		}
		go fc.pump()
		r := bufio.NewReader(client)
		answers := 0
		for {
			line, err := proto.ReadLine(r, proto.MaxLine)
			if err == io.EOF || err != nil {
				break
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatalf("the client got a line that is not a JSON object: %q", line)
			}
			if m["result"] != nil || m["error"] != nil {
				answers++
			}
		}
		<-fc.done
		<-hc.over
		if answers < nreq {
			t.Fatalf("%d requests, %d answers", nreq, answers)
		}
	})
}
