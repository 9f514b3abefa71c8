package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/agentproto/conv"
)

// agentEnd is the agent's end of the pipes, driven by the test.
type agentEnd struct {
	t   *testing.T
	out io.Writer
	in  *bufio.Reader
}

func (a *agentEnd) send(s string) { io.WriteString(a.out, s+"\n") }

func (a *agentEnd) next() map[string]any {
	a.t.Helper()
	l, err := a.in.ReadBytes('\n')
	if err != nil {
		a.t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(l, &m)
	return m
}

func id(m map[string]any) string { b, _ := json.Marshal(m["id"]); return string(b) }

func start(t *testing.T) (*Client, *agentEnd, chan conv.Event) {
	t.Helper()
	r1, w1 := io.Pipe()
	r2, w2 := io.Pipe()
	evs := make(chan conv.Event, 64)
	c := New(r1, w2, Options{Cwd: "/work", Emit: func(e conv.Event) { evs <- e }})
	go c.Run()
	t.Cleanup(func() { w1.Close(); r2.Close() })
	a := &agentEnd{t: t, out: w1, in: bufio.NewReader(r2)}
	done := make(chan error, 1)
	go func() { done <- c.Start(context.Background()) }()
	init := a.next()
	caps := init["params"].(map[string]any)["clientCapabilities"].(map[string]any)
	if caps["terminal"] != false || caps["fs"].(map[string]any)["readTextFile"] != false || caps["fs"].(map[string]any)["writeTextFile"] != false {
		t.Fatalf("capabilities advertised: %v", caps)
	}
	a.send(`{"jsonrpc":"2.0","id":` + id(init) + `,"result":{"protocolVersion":1,"authMethods":[{"id":"oauth"},{"id":"api-key"}]}}`)
	s1 := a.next()
	a.send(`{"jsonrpc":"2.0","id":` + id(s1) + `,"error":{"code":-32000,"message":"Authentication required"}}`)
	auth := a.next()
	if auth["method"] != "authenticate" || auth["params"].(map[string]any)["methodId"] != "api-key" {
		t.Fatalf("authenticate: %v", auth)
	}
	a.send(`{"jsonrpc":"2.0","id":` + id(auth) + `,"result":{}}`)
	s2 := a.next()
	if s2["method"] != "session/new" || s2["params"].(map[string]any)["cwd"] != "/work" {
		t.Fatalf("session/new: %v", s2)
	}
	a.send(`{"jsonrpc":"2.0","id":` + id(s2) + `,"result":{"sessionId":"s9"}}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if e := (<-evs).(conv.Ready); e.Session != "s9" {
		t.Fatalf("ready: %+v", e)
	}
	return c, a, evs
}

func TestATurnWithAPermission(t *testing.T) {
	c, a, evs := start(t)
	c.Prompt("go")
	<-evs // TurnStarted
	pr := a.next()
	if pr["method"] != "session/prompt" {
		t.Fatalf("prompt: %v", pr)
	}
	a.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s9","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"rm -rf build","kind":"execute","status":"pending"}}}`)
	a.send(`{"jsonrpc":"2.0","id":"r1","method":"session/request_permission","params":{"sessionId":"s9","toolCall":{"toolCallId":"t1"},` +
		`"options":[{"optionId":"yes","kind":"allow_once"},{"optionId":"never","kind":"reject_always"}]}}`)
	a.send(`{"jsonrpc":"2.0","id":"r2","method":"fs/read_text_file","params":{"path":"/etc/passwd"}}`)
	tool := (<-evs).(conv.Tool)
	perm := (<-evs).(conv.Permission)
	if tool.Target != "rm -rf build" || perm.Target != "rm -rf build" || perm.Tool != "shell" || !perm.Once || !perm.Deny {
		t.Fatalf("tool %+v, permission %+v", tool, perm)
	}
	if fs := a.next(); fs["id"] != "r2" || fs["error"] == nil {
		t.Fatalf("fs request served: %v", fs)
	}
	c.Answer(perm.ID, conv.Deny)
	if ans := a.next(); ans["id"] != "r1" || ans["result"].(map[string]any)["outcome"].(map[string]any)["optionId"] != "never" {
		t.Fatalf("deny: %v", ans)
	}
	a.send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s9","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"ok"}}}}`)
	a.send(`{"jsonrpc":"2.0","id":` + id(pr) + `,"result":{"stopReason":"end_turn"}}`)
	if txt := (<-evs).(conv.Text); txt.Text != "ok" {
		t.Fatalf("text: %+v", txt)
	}
	if end := (<-evs).(conv.TurnEnded); end.Outcome != conv.EndDone {
		t.Fatalf("end: %+v", end)
	}
}

func TestCancelAnswersEveryPendingRequest(t *testing.T) {
	c, a, evs := start(t)
	c.Prompt("go")
	<-evs
	pr := a.next()
	for _, rid := range []string{"1001", "1002"} {
		a.send(`{"jsonrpc":"2.0","id":` + rid + `,"method":"session/request_permission","params":{"sessionId":"s9","toolCall":{"toolCallId":"t","title":"ls","kind":"execute"},"options":[{"optionId":"y","kind":"allow_once"}]}}`)
		<-evs
	}
	c.Cancel()
	got := map[string]bool{}
	for i := 0; i < 3; i++ {
		m := a.next()
		switch {
		case m["method"] == "session/cancel":
			got["cancel"] = true
		case m["result"] != nil:
			if m["result"].(map[string]any)["outcome"].(map[string]any)["outcome"] != "cancelled" {
				t.Fatalf("not cancelled: %v", m)
			}
			got[id(m)] = true
		}
	}
	if !got["cancel"] || !got["1001"] || !got["1002"] {
		t.Fatalf("after cancel: %v", got)
	}
	a.send(`{"jsonrpc":"2.0","id":` + id(pr) + `,"result":{"stopReason":"cancelled"}}`)
	select {
	case e := <-evs:
		if end, ok := e.(conv.TurnEnded); !ok || end.Outcome != conv.EndCancelled {
			t.Fatalf("end: %+v", e)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no end")
	}
}

func FuzzSessionUpdate(f *testing.F) {
	f.Add(`{"sessionUpdate":"tool_call","toolCallId":"t","content":[{"type":"content","content":{"type":"text","text":"x"}}],"rawInput":{"command":["ls","-l"]}}`)
	f.Add(`{"sessionUpdate":"agent_message_chunk","content":{"type":"image"}}`)
	f.Add(`{"sessionUpdate":"plan","entries":[{"content":"a","status":"pending"}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		var u sessionUpdate
		if json.Unmarshal([]byte(s), &u) != nil {
			return
		}
		tc := merged(nil, &u.toolCall)
		if target := targetOf(tc); len(target) > len(s) {
			t.Fatalf("a target longer than the message: %q", target)
		}
		_ = outputOf(&u.toolCall) + u.Content.String() + ToolName(deref(tc.Kind))
	})
}
