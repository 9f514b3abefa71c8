package jsonrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// peer is the other end of a Conn: what it writes the Conn reads, and
// the Conn's writes come out on its reader.
type peer struct {
	toConn   *io.PipeWriter
	fromConn *bufio.Reader
}

func pair(t *testing.T, opt Options) (*Conn, *peer, chan error) {
	t.Helper()
	r1, w1 := io.Pipe() // peer → conn
	r2, w2 := io.Pipe() // conn → peer
	c := New(r1, w2, opt)
	done := make(chan error, 1)
	go func() { done <- c.Run() }()
	t.Cleanup(func() { w1.Close(); r2.Close(); c.Close() })
	return c, &peer{toConn: w1, fromConn: bufio.NewReader(r2)}, done
}

func (p *peer) line(t *testing.T) map[string]any {
	t.Helper()
	l, err := p.fromConn.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(l, &m); err != nil {
		t.Fatalf("%q: %v", l, err)
	}
	return m
}

func TestCallGetsItsAnswerAndRequestsGoBothWays(t *testing.T) {
	got := make(chan Message, 2)
	c, p, _ := pair(t, Options{OnRequest: func(m Message) { got <- m }, OnNotify: func(m Message) { got <- m }})
	res := make(chan string, 1)
	go func() {
		var out struct{ Name string }
		err := c.Call(context.Background(), "hello", map[string]int{"n": 1}, &out)
		res <- out.Name + "|" + errString(err)
	}()
	req := p.line(t)
	if req["jsonrpc"] != "2.0" || req["method"] != "hello" {
		t.Fatalf("request: %v", req)
	}
	// A notification and a request from the peer, then the answer.
	io.WriteString(p.toConn, `{"jsonrpc":"2.0","method":"note","params":{"a":1}}`+"\n")
	io.WriteString(p.toConn, `{"jsonrpc":"2.0","id":"x7","method":"ask","params":{}}`+"\n")
	io.WriteString(p.toConn, `{"jsonrpc":"2.0","id":`+jsonNum(req["id"])+`,"result":{"Name":"agent"}}`+"\n")
	if r := <-res; r != "agent|" {
		t.Fatalf("call: %s", r)
	}
	n, q := <-got, <-got
	if n.Kind != KindNotification || n.Method != "note" || q.Kind != KindRequest || string(q.ID) != `"x7"` {
		t.Fatalf("got %+v and %+v", n, q)
	}
	c.Reply(q.ID, map[string]bool{"ok": true})
	if a := p.line(t); a["id"] != "x7" || a["result"].(map[string]any)["ok"] != true {
		t.Fatalf("reply: %v", a)
	}
}

func TestAnErrorAnswerIsAnError(t *testing.T) {
	c, p, _ := pair(t, Options{})
	res := make(chan error, 1)
	go func() { res <- c.Call(context.Background(), "x", nil, nil) }()
	req := p.line(t)
	io.WriteString(p.toConn, `{"jsonrpc":"2.0","id":`+jsonNum(req["id"])+`,"error":{"code":-32000,"message":"auth required"}}`+"\n")
	var re *Error
	if err := <-res; !errors.As(err, &re) || re.Code != -32000 {
		t.Fatalf("err: %v", err)
	}
}

// endless is a reader of one line that never ends.
type endless struct{ n int }

func (e *endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = 'a'
	}
	e.n += len(b)
	return len(b), nil
}

func TestALineOverTheBoundEndsTheConnection(t *testing.T) {
	src := &endless{}
	c := New(io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"result":"`), src), io.Discard, Options{MaxMessage: 1 << 20})
	pending := make(chan error, 1)
	go func() { pending <- c.Call(context.Background(), "x", nil, nil) }()
	err := c.Run()
	var tl *TooLongError
	if !errors.As(err, &tl) || tl.Limit != 1<<20 {
		t.Fatalf("Run: %v", err)
	}
	if src.n > 2<<20 {
		t.Fatalf("read %d bytes past a 1 MiB bound", src.n)
	}
	if err := <-pending; err == nil {
		t.Fatal("the waiting call did not fail")
	}
}

func TestNoiseIsSkippedAndCounted(t *testing.T) {
	var noise []string
	got := make(chan Message, 1)
	c := New(strings.NewReader("hello\n\n{\"x\":1}\n[1]\n{\"jsonrpc\":\"1.0\",\"method\":\"m\"}\n{\"method\":\"ok\"}\n"), io.Discard,
		Options{OnNoise: func(l []byte, err error) { noise = append(noise, string(l)) }, OnNotify: func(m Message) { got <- m }})
	if err := c.Run(); !errors.Is(err, io.EOF) {
		t.Fatalf("Run: %v", err)
	}
	if len(noise) != 4 {
		t.Fatalf("noise: %q", noise)
	}
	if m := <-got; m.Method != "ok" {
		t.Fatalf("notification without jsonrpc (Codex): %+v", m)
	}
}

// stuck is a writer that never returns.
type stuck struct{ block chan struct{} }

func (s stuck) Write(b []byte) (int, error) { <-s.block; return len(b), nil }

func TestAPeerThatStopsReadingNeverBlocksTheCaller(t *testing.T) {
	s := stuck{block: make(chan struct{})}
	defer close(s.block)
	c := New(strings.NewReader(""), s, Options{Backlog: 4})
	deadline := time.Now().Add(5 * time.Second)
	var err error
	for i := 0; err == nil && time.Now().Before(deadline); i++ {
		err = c.Notify("n", nil)
	}
	if !errors.Is(err, ErrBacklog) {
		t.Fatalf("err: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func jsonNum(v any) string { b, _ := json.Marshal(v); return string(b) }
