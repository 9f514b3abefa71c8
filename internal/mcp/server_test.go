package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/agentproto/jsonrpc"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon"
	"github.com/tuios/tuios/internal/proto"
)

// serve sends lines to a peer and returns one answer line per request,
// once the server has returned at the end of its input.
func serve(t *testing.T, lines ...string) []map[string]any {
	t.Helper()
	p := newPeer(t)
	var answers []map[string]any
	for _, l := range lines {
		p.send(l)
		if !strings.Contains(l, `"id"`) {
			continue
		}
		answers = append(answers, p.next())
	}
	p.in.Close()
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return when its input ended")
	}
	return answers
}

func TestInitializeNegotiatesTheVersion(t *testing.T) {
	for _, c := range []struct{ ask, want string }{
		{"2024-11-05", "2024-11-05"}, {"2025-03-26", "2025-03-26"}, {"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"}, {"2099-01-01", "2025-11-25"}, {"", "2025-11-25"},
		// initialize is the handshake of the versions before the
		// stateless one, which is never its answer.
		{"2026-07-28", "2025-11-25"},
	} {
		a := serve(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+c.ask+`"}}`)
		res := a[0]["result"].(map[string]any)
		if res["protocolVersion"] != c.want {
			t.Errorf("asked %q: got %v, want %s", c.ask, res["protocolVersion"], c.want)
		}
		if res["serverInfo"].(map[string]any)["name"] != "tuios" {
			t.Errorf("serverInfo: %v", res["serverInfo"])
		}
	}
}

// structuredContent comes with 2025-06-18 and later, never before; a
// daemon that does not answer is a tool error with a code, not a crash.
func TestStructuredContentFromJune2025(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"tuios_list_agents","arguments":{}}}`
	for _, c := range []struct {
		version    string
		structured bool
	}{{"2025-03-26", false}, {"2025-06-18", true}, {"2026-07-28", true}} {
		a := serve(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+c.version+`"}}`, call)
		res := a[1]["result"].(map[string]any)
		if res["isError"] != true || !strings.Contains(res["content"].([]any)[0].(map[string]any)["text"].(string), "no_daemon") {
			t.Errorf("%s: %v", c.version, res)
		}
		if _, has := res["structuredContent"]; has != c.structured {
			t.Errorf("%s: structuredContent present %v, want %v", c.version, has, c.structured)
		}
	}
}

func TestUnknownToolAndMethod(t *testing.T) {
	a := serve(t,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tuios_no_such_tool","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"tuios_respond","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{}}`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	if e := a[0]["error"].(map[string]any); e["code"] != float64(jsonrpc.CodeInvalidParams) {
		t.Errorf("an unknown tool: %v", a[0])
	}
	// Whether a tool types is the daemon's word (list-verbs): with no
	// daemon to ask, a known tool is a tool error, not an unknown one.
	if res, _ := a[1]["result"].(map[string]any); res["isError"] != true || !strings.Contains(fmt.Sprint(res["content"]), "no_daemon") {
		t.Errorf("tuios_respond with no daemon: %v", a[1])
	}
	if e := a[2]["error"].(map[string]any); e["code"] != float64(jsonrpc.CodeMethodNotFound) {
		t.Errorf("resources/read: %v", a[2])
	}
	if a[3]["id"] != float64(4) || a[3]["result"] == nil {
		t.Errorf("ping: %v", a[3])
	}
}

// Calls in flight are bounded: past Options.MaxInFlight a call is
// answered rate_limited at once (a harness that sends thousands of
// waits holds that many daemon connections, not thousands), and a slot
// frees when a call ends.
func TestCallsInFlightAreBounded(t *testing.T) {
	release := make(chan struct{})
	dialled := make(chan struct{}, 8)
	s := New(Options{MaxInFlight: 2, Dial: func() (*client.Client, error) {
		dialled <- struct{}{}
		<-release // the daemon is slow: the call holds its slot
		return nil, errors.New("no daemon here")
	}})
	// The verb list is known: each call then dials for its own verb.
	// (A verb that declares nothing makes a typing tool, offered only
	// with --write: list-agents declares that it reads.)
	s.verbs = map[string]proto.VerbInfo{"list-agents": {Verb: "list-agents", Access: &proto.VerbAccess{ReadOnly: true}}}
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background(), inR, outW); outW.Close() }()
	call := func(id int) {
		inW.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"tuios_list_agents","arguments":{}}}` + "\n")
	}
	sc := bufio.NewScanner(outR)
	next := func() map[string]any {
		if !sc.Scan() {
			t.Fatal("no answer")
		}
		var m map[string]any
		json.Unmarshal(sc.Bytes(), &m)
		return m
	}
	code := func(m map[string]any) string {
		res, _ := m["result"].(map[string]any)
		c, _ := res["content"].([]any)
		if len(c) == 0 {
			return ""
		}
		text, _ := c[0].(map[string]any)["text"].(string)
		return strings.Fields(strings.TrimPrefix(text, "error "))[0]
	}
	call(1)
	call(2)
	<-dialled
	<-dialled // both hold their slots now
	call(3)
	if m := next(); m["id"] != float64(3) || code(m) != "rate_limited:" {
		t.Fatalf("the third call: %v", m)
	}
	close(release)
	for range 2 {
		if m := next(); code(m) != "no_daemon:" {
			t.Fatalf("a held call: %v", m)
		}
	}
	call(4) // a slot is free again
	if m := next(); m["id"] != float64(4) || code(m) != "no_daemon:" {
		t.Fatalf("after the slots freed: %v", m)
	}
	inW.Close()
	<-done
}

// A burst of first calls asks the daemon for its verb list once: the
// others wait for that one fetch (a real daemon answers it; the dials are
// counted).
func TestABurstOfCallsFetchesTheVerbListOnce(t *testing.T) {
	sock := inProcessDaemon(t)
	var dials atomic.Int32
	s := New(Options{Dial: func() (*client.Client, error) {
		dials.Add(1)
		return client.Dial(client.Options{Socket: sock})
	}})
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v, err := s.verbList(); err != nil || v["list-agents"].Verb == "" {
				t.Errorf("verbList: %v", err)
			}
		}()
	}
	wg.Wait()
	if n := dials.Load(); n != 1 {
		t.Fatalf("%d fetches of the verb list for 20 callers", n)
	}
}

// inProcessDaemon runs a real daemon in the test process on a private
// socket, stopped when the test ends, and returns the socket's path.
func inProcessDaemon(t *testing.T) string {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "run", "tuios.sock")
	srv, err := daemon.New(daemon.Options{Socket: sock, Shell: "/bin/sh", StateDir: "-", Config: &config.File{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	go srv.Serve(context.Background())
	t.Cleanup(func() { srv.Close() })
	return sock
}
