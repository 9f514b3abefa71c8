package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/proto"
)

var update = flag.Bool("update", false, "rewrite testdata/wire.golden from this run")

// TestWireAnswersMatchTheGolden holds what the server writes to an MCP
// client, against a real daemon, to a recorded transcript: the
// handshake, the tool list, calls that succeed, fail, wait (with
// progress), read pane text (fenced), and the stateless revision's
// results. The answers are compared as JSON values (member order is
// free, every value and string is exact); what differs from run to run
// (the boot id, the milliseconds waited) is masked first. Run with
// -update to rewrite it, and read the diff.
func TestWireAnswersMatchTheGolden(t *testing.T) {
	t.Setenv("PS1", "golden> ") // the pane's prompt, whoever runs the test
	sock := inProcessDaemon(t)
	dial := func() (*client.Client, error) { return client.Dial(client.Options{Socket: sock}) }
	c, err := dial()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var created proto.SessionCreated
	if err := c.Call("new-session", proto.NewSessionParams{Name: "work"}, &created); err != nil {
		t.Fatal(err)
	}
	win := created.WindowID
	// The shell has drawn its prompt: the pane's text is what it stays.
	if err := c.Call("wait-for", proto.WaitParams{Session: "work", Window: win, Condition: "window-idle", Idle: 300, Timeout: 10000}, nil); err != nil {
		t.Fatal(err)
	}

	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	s := New(Options{Write: true, ScopeAll: true, Version: "golden", Dial: dial, ProgressEvery: time.Hour})
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background(), inR, outW); outW.Close() }()
	lines := make(chan []byte, 64)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(lines)
	}()
	next := func() []byte {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the server closed its output")
			}
			return l
		case <-time.After(20 * time.Second):
			t.Fatal("no answer in 20 s")
		}
		return nil
	}

	modern := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	call := func(id, name, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`
	}
	requests := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"golden","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
		call("4", "tuios_list_windows", `{"session":"work"}`),
		call("5", "tuios_get_agent_state", `{"session":"work","window":"`+win+`"}`),
		call("6", "tuios_list_agents", `{"all":true}`),
		call("7", "tuios_capture_pane", `{"session":"work","window":"`+win+`"}`),
		call("8", "tuios_peek_prompt", `{"session":"work","window":"`+win+`"}`),
		call("9", "tuios_get_agent_state", `{"session":"work","window":"nope"}`),
		call("10", "tuios_get_agent_state", `{"session":"work","human_nonce":"x"}`),
		call("11", "tuios_capture_pane", `{"session":"work","window":"`+win+`","bogus":1}`),
		call("12", "tuios_capture_pane", `{"session":"work","window":"`+win+`","lines":"ten"}`),
		call("13", "tuios_set_agent_state", `{"session":"work","window":"`+win+`","state":"working","message":"golden"}`),
		call("14", "tuios_set_agent_meta", `{"session":"work","window":"`+win+`","tokens":{"model":"opus"}}`),
		call("15", "tuios_events", `{"session":"work","wait_ms":0}`),
		call("16", "tuios_events", `{"wait_ms":"soon"}`),
		`{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"_meta":{"progressToken":"p1"},"name":"tuios_wait_for","arguments":{"session":"work","window":"` + win + `","condition":"window-exit","timeout":1}}}`,
		call("18", "tuios_send_keys", `{"session":"work","window":"`+win+`","keys":"Escape"}`),
		`{"jsonrpc":"2.0","id":19,"method":"tools/list","params":{` + modern + `}}`,
		`{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{` + modern + `,"name":"tuios_get_agent_state","arguments":{"session":"work","window":"` + win + `"}}}`,
		`{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{` + modern + `,"name":"tuios_get_agent_state","arguments":{"window":"nope"}}}`,
		`{"jsonrpc":"2.0","id":22,"method":"server/discover","params":{` + modern + `}}`,
		`{"jsonrpc":"2.0","id":23,"method":"resources/list","params":{` + modern + `}}`,
		`{"jsonrpc":"2.0","id":24,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":25,"method":"resources/templates/list"}`,
		`{"jsonrpc":"2.0","id":26,"method":"server/discover"}`,
		`{"jsonrpc":"2.0","id":27,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}}`,
		`{"jsonrpc":"2.0","id":28,"method":"subscriptions/listen","params":{` + modern + `,"notifications":{"toolsListChanged":true}}}`,
	}
	var got bytes.Buffer
	for _, r := range requests {
		got.WriteString("> " + strings.ReplaceAll(r, win, "WIN") + "\n")
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal([]byte(r), &probe)
		inW.WriteString(r + "\n")
		if probe.ID == nil {
			continue
		}
		for {
			l := next()
			got.WriteString("< " + canonical(t, l, win) + "\n")
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			json.Unmarshal(l, &m)
			if m.Method == "notifications/subscriptions/acknowledged" || m.Method == "" && string(m.ID) == string(probe.ID) {
				break
			}
		}
	}
	inW.Close() // the open listen is torn down: notifications/cancelled
	for l := range lines {
		got.WriteString("< " + canonical(t, l, win) + "\n")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	golden := filepath.Join("testdata", "wire.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("the answers differ from %s at line %d:\n got: %s\nwant: %s", golden, i+1, g, w)
			}
		}
	}
}

// volatileKeys name the values that differ from run to run: masked in
// results and inside their text.
var volatileKeys = map[string]bool{"boot_id": true, "progress": true, "pid": true, "agent_state_at": true, "evidence_age_ms": true, "waiting_ms": true}

var volatileInText = regexp.MustCompile(`"(boot_id|pid|agent_state_at|evidence_age_ms|waiting_ms)": (null|-?[0-9.eE+]+|"[^"]*")`)

// canonical is one answer line as a JSON value with sorted members and
// the run's own values masked: the window id, the folder the test runs
// in, the volatileKeys.
func canonical(t *testing.T, line []byte, win string) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("the server wrote a line that is not JSON: %s", line)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(mask(v, "")); err != nil {
		t.Fatal(err)
	}
	out := strings.ReplaceAll(strings.TrimSuffix(b.String(), "\n"), win, "WIN")
	if wd, err := os.Getwd(); err == nil {
		out = strings.ReplaceAll(out, wd, "CWD")
	}
	return out
}

func mask(v any, key string) any {
	if volatileKeys[key] {
		return "X"
	}
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = mask(x, k)
		}
	case []any:
		for i, x := range v {
			v[i] = mask(x, key)
		}
	case string:
		return volatileInText.ReplaceAllString(v, `"$1": "X"`)
	}
	return v
}
