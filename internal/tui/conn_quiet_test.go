package tui

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/proto"
)

// fakeDaemon listens on a private socket and hands each request line to
// answer, which returns the lines to write back (none for a quiet call
// that succeeded).
func fakeDaemon(t *testing.T, answer func(req map[string]any) []string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "tq")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "d.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadBytes('\n')
					if err != nil {
						return
					}
					var req map[string]any
					json.Unmarshal(line, &req)
					for _, out := range answer(req) {
						c.Write([]byte(out + "\n"))
					}
				}
			}()
		}
	}()
	return path
}

// Typing on a line to a daemon that takes quiet requests sends each key
// quiet: a success is never answered, a failure reaches the model as the
// typing's error (the dock says it), and the answers of tagged calls
// still go to the calls that wait for them.
func TestQuietTypingReportsOnlyFailures(t *testing.T) {
	seen := make(chan map[string]any, 16)
	sockPath := fakeDaemon(t, func(req map[string]any) []string {
		seen <- req
		id, _ := json.Marshal(req["id"])
		switch {
		case req["quiet"] == true && req["params"].(map[string]any)["text"] == "bad":
			return []string{`{"id":` + string(id) + `,"error":{"code":"forbidden","message":"send-text is refused for this pane"}}`}
		case req["quiet"] == true:
			return nil
		}
		return []string{`{"id":` + string(id) + `,"result":{"type":"pong"}}`}
	})
	cl, err := client.Dial(client.Options{Socket: sockPath})
	if err != nil {
		t.Fatal(err)
	}
	st, err := client.Dial(client.Options{Socket: sockPath}) // a stream that sends nothing
	if err != nil {
		t.Fatal(err)
	}
	msgs := make(chan tea.Msg, 16)
	c := &conns{calls: newCallLine(cl, true), stream: st}
	c.start(func(m tea.Msg) { msgs <- m })
	defer c.close()

	c.Call("send-text", proto.SendTextParams{Text: "a"}, "")
	c.Call("send-text", proto.SendTextParams{Text: "bad"}, "")
	c.Call("list-sessions", nil, "mine")
	for i := 0; i < 3; i++ {
		select {
		case req := <-seen:
			if quiet := req["quiet"] == true; quiet != (req["verb"] == "send-text") {
				t.Errorf("%v went quiet=%v", req["verb"], quiet)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the daemon got fewer than three requests")
		}
	}
	var got []replyMsg
	for len(got) < 2 {
		select {
		case m := <-msgs:
			if r, ok := m.(replyMsg); ok {
				got = append(got, r)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("replies: %+v", got)
		}
	}
	var pe *proto.Error
	if got[0].verb != "send-text" || got[0].tag != "" || !errorsAs(got[0].err, &pe) || pe.Code != "forbidden" {
		t.Errorf("first reply %+v, want the refused key", got[0])
	}
	if got[1].tag != "mine" || got[1].err != nil {
		t.Errorf("second reply %+v, want the tagged call's answer", got[1])
	}
	m := NewModel(Options{}, nil, 80, 24)
	m.Update(got[0])
	if m.dock != "send-text: send-text is refused for this pane" {
		t.Errorf("dock %q", m.dock)
	}
}

func errorsAs(err error, pe **proto.Error) bool {
	e, ok := err.(*proto.Error)
	if ok {
		*pe = e
	}
	return ok
}
