package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/client"
)

// modernMeta is the _meta of a 2026-07-28 request.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`

func errorOf(t *testing.T, m map[string]any) (code float64, data map[string]any) {
	t.Helper()
	e, ok := m["error"].(map[string]any)
	if !ok {
		t.Fatalf("not an error: %v", m)
	}
	data, _ = e["data"].(map[string]any)
	return e["code"].(float64), data
}

func TestDiscoverSaysWhatTheServerSpeaks(t *testing.T) {
	a := serve(t, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+modernMeta+`}}`)
	res := a[0]["result"].(map[string]any)
	var versions []string
	for _, v := range res["supportedVersions"].([]any) {
		versions = append(versions, v.(string))
	}
	if !slices.Equal(versions, SupportedVersions) || versions[0] != "2026-07-28" {
		t.Errorf("supportedVersions %v", versions)
	}
	if res["resultType"] != "complete" || res["cacheScope"] != "private" || res["ttlMs"] == nil || res["instructions"] == nil {
		t.Errorf("discover: %v", res)
	}
	info := res["_meta"].(map[string]any)["io.modelcontextprotocol/serverInfo"].(map[string]any)
	if info["name"] != "tuios" || info["version"] == "" {
		t.Errorf("serverInfo: %v", info)
	}
	if caps := res["capabilities"].(map[string]any); caps["tools"] == nil || caps["logging"] != nil {
		t.Errorf("capabilities: %v", caps)
	}
}

// Every request of the stateless revision is checked on its own: its
// version (an unknown one lists the supported ones, server/discover
// included), its client capabilities; ping and initialize are not its
// methods.
func TestModernRequestsAreCheckedOnTheirOwn(t *testing.T) {
	a := serve(t,
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728,"io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"ping","params":{`+modernMeta+`}}`,
		`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2026-07-28",`+modernMeta+`}}`,
		`{"jsonrpc":"2.0","id":8,"method":"logging/setLevel","params":{"level":"info",`+modernMeta+`}}`,
		`{"jsonrpc":"2.0","id":9,"method":"ping"}`,
	)
	if code, data := errorOf(t, a[0]); code != codeInvalidParams || fmt.Sprint(data["supported"]) != fmt.Sprint(SupportedVersions) {
		t.Errorf("server/discover without _meta: %v", a[0])
	}
	for i, requested := range map[int]string{1: "1900-01-01", 2: "2099-01-01"} {
		code, data := errorOf(t, a[i])
		if code != -32022 || data["requested"] != requested || fmt.Sprint(data["supported"]) != fmt.Sprint(SupportedVersions) || a[i]["id"] != float64(i+1) {
			t.Errorf("version %s: %v", requested, a[i])
		}
	}
	if code, _ := errorOf(t, a[3]); code != codeInvalidParams {
		t.Errorf("no clientCapabilities: %v", a[3])
	}
	if code, _ := errorOf(t, a[4]); code != codeInvalidParams {
		t.Errorf("a version that is a number: %v", a[4])
	}
	for _, i := range []int{5, 6, 7} {
		if code, _ := errorOf(t, a[i]); code != codeMethodNotFound {
			t.Errorf("request %d of the stateless revision: %v", i+1, a[i])
		}
	}
	if a[8]["result"] == nil {
		t.Errorf("a ping without _meta is the handshake versions' ping: %v", a[8])
	}
}

// The stateless revision keeps no state between requests: a request with
// its own version is served under it, whatever initialize settled, and
// does not change what a request without one gets.
func TestARequestsOwnVersionWins(t *testing.T) {
	call := func(id int, meta string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"tuios_list_agents","arguments":{}%s}}`, id, meta)
	}
	a := serve(t,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}`,
		call(2, ","+modernMeta),
		call(3, ""),
		call(4, `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}`),
		`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{`+modernMeta+`}}`,
	)
	modern := a[1]["result"].(map[string]any)
	if modern["structuredContent"] == nil || modern["resultType"] != "complete" || modern["_meta"] == nil || modern["isError"] != true {
		t.Errorf("a 2026-07-28 call after initialize 2025-03-26: %v", modern)
	}
	if legacy := a[2]["result"].(map[string]any); legacy["structuredContent"] != nil || legacy["resultType"] != nil {
		t.Errorf("a call with no version of its own, after initialize 2025-03-26: %v", legacy)
	}
	if own := a[3]["result"].(map[string]any); own["structuredContent"] == nil || own["resultType"] != nil {
		t.Errorf("a call naming 2025-06-18: %v", own)
	}
	// With no daemon the list is an error, but still the revision's own.
	if code, _ := errorOf(t, a[4]); code != codeInternal {
		t.Errorf("tools/list with no daemon: %v", a[4])
	}
}

// peer drives a server over real pipes and reads every line it writes.
type peer struct {
	t     *testing.T
	in    *os.File
	lines chan map[string]any
	done  chan error
}

func newPeer(t *testing.T) *peer {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{Dial: func() (*client.Client, error) { return nil, errors.New("no daemon here") }})
	p := &peer{t: t, in: inW, lines: make(chan map[string]any, 16), done: make(chan error, 1)}
	go func() { p.done <- s.Serve(context.Background(), inR, outW); outW.Close() }()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			var m map[string]any
			json.Unmarshal(sc.Bytes(), &m)
			p.lines <- m
		}
		close(p.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return p
}

func (p *peer) send(line string) { p.in.WriteString(line + "\n") }

func (p *peer) next() map[string]any {
	p.t.Helper()
	select {
	case m, ok := <-p.lines:
		if !ok {
			p.t.Fatal("the server closed its output")
		}
		return m
	case <-time.After(10 * time.Second):
		p.t.Fatal("nothing from the server in 10 s")
	}
	return nil
}

// subscriptions/listen is acknowledged with nothing honoured (nothing here
// ever changes) and stays open: cancelled by the client, it ends with no
// message; when the input ends, the server tears it down with
// notifications/cancelled, and with no response.
func TestListenIsAcknowledgedAndTornDown(t *testing.T) {
	p := newPeer(t)
	p.send(`{"jsonrpc":"2.0","id":"sub1","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + modernMeta + `}}`)
	ack := p.next()
	params, _ := ack["params"].(map[string]any)
	if ack["method"] != "notifications/subscriptions/acknowledged" || ack["id"] != nil ||
		params["_meta"].(map[string]any)["io.modelcontextprotocol/subscriptionId"] != "sub1" || fmt.Sprint(params["notifications"]) != "map[]" {
		t.Fatalf("acknowledgment: %v", ack)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"sub1"}}`)
	p.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if m := p.next(); m["id"] != float64(2) {
		t.Fatalf("after cancelling the listen, the next line is not the ping's answer: %v", m)
	}
	p.send(`{"jsonrpc":"2.0","id":3,"method":"subscriptions/listen","params":{"notifications":{}}}`) // no version: not a method
	if m := p.next(); m["error"].(map[string]any)["code"] != float64(codeMethodNotFound) {
		t.Fatalf("listen without the stateless revision: %v", m)
	}
	p.send(`{"jsonrpc":"2.0","id":4,"method":"subscriptions/listen","params":{` + modernMeta + `}}`)
	if m := p.next(); m["error"].(map[string]any)["code"] != float64(codeInvalidParams) {
		t.Fatalf("listen without notifications: %v", m)
	}
	p.send(`{"jsonrpc":"2.0","id":5,"method":"subscriptions/listen","params":{"notifications":{},` + modernMeta + `}}`)
	if m := p.next(); m["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("second listen: %v", m)
	}
	p.in.Close()
	m := p.next()
	if params, _ := m["params"].(map[string]any); m["method"] != "notifications/cancelled" || params["requestId"] != float64(5) {
		t.Fatalf("at the end of the input: %v", m)
	}
	if m, ok := <-p.lines; ok {
		t.Fatalf("after the teardown: %v", m)
	}
	if err := <-p.done; err != nil {
		t.Fatal(err)
	}
}

// Open streams are bounded.
func TestListensAreBounded(t *testing.T) {
	p := newPeer(t)
	for i := range maxListens {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"subscriptions/listen","params":{"notifications":{},%s}}`, i, modernMeta))
		if m := p.next(); m["method"] != "notifications/subscriptions/acknowledged" {
			t.Fatalf("listen %d: %v", i, m)
		}
	}
	p.send(`{"jsonrpc":"2.0","id":"one-more","method":"subscriptions/listen","params":{"notifications":{},` + modernMeta + `}}`)
	if m := p.next(); m["id"] != "one-more" || !strings.Contains(fmt.Sprint(m["error"]), "cancel one first") {
		t.Fatalf("one more listen: %v", m)
	}
}
