package codex

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/tuios/tuios/internal/agentproto/conv"
	"github.com/tuios/tuios/internal/agentproto/jsonrpc"
)

type server struct {
	t   *testing.T
	out io.Writer
	in  *bufio.Reader
}

func (s *server) send(v string) { io.WriteString(s.out, v+"\n") }

func (s *server) next() map[string]any {
	s.t.Helper()
	l, err := s.in.ReadBytes('\n')
	if err != nil {
		s.t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(l, &m)
	if _, ok := m["jsonrpc"]; ok {
		s.t.Fatalf("Codex's app-server takes no jsonrpc member: %s", l)
	}
	return m
}

func rid(m map[string]any) string { b, _ := json.Marshal(m["id"]); return string(b) }

func TestATurnWithAnApproval(t *testing.T) {
	r1, w1 := io.Pipe()
	r2, w2 := io.Pipe()
	defer w1.Close()
	defer r2.Close()
	evs := make(chan conv.Event, 64)
	c := New(r1, w2, Options{Cwd: "/w", Emit: func(e conv.Event) { evs <- e }})
	go c.Run()
	s := &server{t: t, out: w1, in: bufio.NewReader(r2)}
	done := make(chan error, 1)
	go func() { done <- c.Start(context.Background()) }()
	in := s.next()
	s.send(`{"id":` + rid(in) + `,"result":{"userAgent":"codex_cli_rs/0.171.0 (linux)"}}`)
	if n := s.next(); n["method"] != "initialized" {
		t.Fatalf("after initialize: %v", n)
	}
	th := s.next()
	s.send(`{"id":` + rid(th) + `,"result":{"thread":{"id":"th1"},"model":"gpt-x"}}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if r := (<-evs).(conv.Ready); r.Agent != "codex_cli_rs/0.171.0 (gpt-x)" || r.Session != "th1" {
		t.Fatalf("ready: %+v", r)
	}
	c.Prompt("go")
	<-evs
	ts := s.next()
	s.send(`{"id":` + rid(ts) + `,"result":{"turn":{"id":"tu1","status":"inProgress"}}}`)
	s.send(`{"method":"item/started","params":{"threadId":"th1","item":{"type":"commandExecution","id":"i1","command":"make test","status":"inProgress"}}}`)
	s.send(`{"id":77,"method":"item/commandExecution/requestApproval","params":{"threadId":"th1","turnId":"tu1","itemId":"i1","command":"make test"}}`)
	s.send(`{"method":"item/agentMessage/delta","params":{"threadId":"other","itemId":"m0","delta":"a subagent's"}}`)
	tool := (<-evs).(conv.Tool)
	perm := (<-evs).(conv.Permission)
	if tool.Target != "make test" || perm.Target != "make test" || perm.Tool != "shell" || perm.Kind != "execute" {
		t.Fatalf("tool %+v permission %+v", tool, perm)
	}
	c.Answer(perm.ID, conv.AllowOnce)
	if a := s.next(); rid(a) != "77" || a["result"].(map[string]any)["decision"] != "accept" {
		t.Fatalf("answer: %v", a)
	}
	s.send(`{"method":"item/agentMessage/delta","params":{"threadId":"th1","itemId":"m1","delta":"Done"}}`)
	s.send(`{"method":"item/completed","params":{"threadId":"th1","item":{"type":"agentMessage","id":"m1","text":"Done"}}}`)
	s.send(`{"method":"turn/completed","params":{"threadId":"th1","turn":{"id":"tu1","status":"completed"}}}`)
	if txt := (<-evs).(conv.Text); txt.Text != "Done" {
		t.Fatalf("text: %+v", txt)
	}
	if end := (<-evs).(conv.TurnEnded); end.Outcome != conv.EndDone {
		t.Fatalf("end: %+v", end)
	}
	select {
	case e := <-evs:
		t.Fatalf("more events: %+v (a streamed message drawn twice?)", e)
	default:
	}
}

func FuzzNotification(f *testing.F) {
	f.Add("turn/completed", `{"threadId":"","turn":{"status":"failed","error":{"message":"x"}}}`)
	f.Add("item/completed", `{"item":{"type":"fileChange","changes":[{"path":"a"}],"status":"declined"}}`)
	f.Add("turn/plan/updated", `{"plan":[{"step":"a","status":"inProgress"}]}`)
	f.Fuzz(func(t *testing.T, method, params string) {
		c := New(eofReader{}, io.Discard, Options{Emit: func(conv.Event) {}})
		if !json.Valid([]byte(params)) {
			return
		}
		c.onNotify(jsonrpc.Message{Kind: jsonrpc.KindNotification, Method: method, Params: json.RawMessage(params)})
	})
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
