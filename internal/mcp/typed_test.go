package mcp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/proto"
)

// Every tool decodes its arguments into the params type its verb
// declares: the params a real daemon lists for the verb are the ones
// that type has, with the same types (a wrong type would refuse an
// argument the tool's schema offers, or send the daemon what it does
// not read).
func TestToolsSendTheirVerbsParams(t *testing.T) {
	sock := inProcessDaemon(t)
	s := New(Options{Dial: func() (*client.Client, error) { return client.Dial(client.Options{Socket: sock}) }})
	verbs, err := s.verbList()
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools() {
		if tl.name == "tuios_events" {
			if tl.params != nil {
				t.Errorf("tuios_events takes its own arguments, not %T", tl.params())
			}
			continue
		}
		v, ok := verbs[tl.verb]
		if !ok {
			t.Errorf("%s: the daemon has no %s", tl.name, tl.verb)
			continue
		}
		want := map[string]string{}
		for _, p := range v.Params {
			want[p.Name] = p.Type
		}
		got := map[string]string{}
		for _, p := range proto.Schema(tl.params()) {
			got[p.Name] = p.Type
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s sends %T %v; %s takes %v", tl.name, tl.params(), got, tl.verb, want)
		}
	}
}

// A verb's result is relayed as the daemon wrote it: its numbers keep
// every digit (a nanosecond time is past float64's exact integers), in
// the structured result and in the text; the text's members are sorted.
func TestResultsKeepTheDaemonsNumbers(t *testing.T) {
	res := json.RawMessage(`{"window_id":"w1","agent_state_at":1796580267542273321,"type":"agent_state","nested":{"b":1,"a":2.5}}`)
	tl := tool{name: "tuios_get_agent_state", verb: "get-agent-state"}
	out := succeeded(tl, res, reqInfo{version: "2025-06-18"})
	if sc, _ := out.StructuredContent.(json.RawMessage); string(sc) != string(res) {
		t.Errorf("structuredContent %s, want the daemon's %s", out.StructuredContent, res)
	}
	text := out.Content[0].Text
	if !strings.Contains(text, "1796580267542273321") {
		t.Errorf("the text lost the time's digits:\n%s", text)
	}
	if i, j := strings.Index(text, `"agent_state_at"`), strings.Index(text, `"window_id"`); i < 0 || j < i || !strings.Contains(text, "\"a\": 2.5,\n    \"b\": 1") {
		t.Errorf("the text's members are not sorted:\n%s", text)
	}
	// An untrusted result is marked so, and its text is fenced without
	// the mark.
	tl = tool{name: "tuios_peek_prompt", verb: "peek-prompt", untrusted: true}
	out = succeeded(tl, json.RawMessage(`{"window":"w1","found":false}`), reqInfo{version: "2025-06-18"})
	var m map[string]any
	json.Unmarshal(out.StructuredContent.(json.RawMessage), &m)
	if m["untrusted"] != true || m["window"] != "w1" {
		t.Errorf("structuredContent %v", m)
	}
	if text := out.Content[0].Text; strings.Contains(text, "untrusted\"") || !strings.Contains(text, "pane w1") {
		t.Errorf("fenced text:\n%s", text)
	}
}

// Whatever arguments a client sends, reading them and decoding them into
// every tool's params does not panic, and a decode that succeeds sends
// the daemon JSON that it reads back as the same params.
func FuzzArgumentsDecode(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"window":"w1","lines":40,"scrollback":true}`, `{"lines":"ten"}`, `{"tokens":{"a":null,"b":"x"}}`,
		`{"risk_ack":["a"],"timeout":1e3}`, `{"count":3,"prompts":["a","b"],"env":["A=1"]}`, `[]`, `null`, `{"types":[null]}`,
		`{"session":null,"wait_ms":-1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var args arguments
		if json.Unmarshal(raw, &args) != nil {
			return
		}
		args.str("session")
		args.number("timeout")
		intArg(args, "wait_ms", defaultWaitMS, 0, maxWaitMS)
		for _, tl := range tools() {
			if tl.params == nil {
				continue
			}
			p := tl.params()
			if args.decode(p) != nil {
				continue
			}
			wire, err := json.Marshal(p)
			if err != nil {
				t.Fatalf("%s: %v", tl.name, err)
			}
			// (An empty list or object is sent as none: the daemon
			// reads both as empty.)
			again := tl.params()
			if perr := proto.DecodeParams(wire, again); perr != nil {
				t.Fatalf("%s: %s sent as %s: %v", tl.name, raw, wire, perr)
			}
			if back, _ := json.Marshal(again); string(back) != string(wire) {
				t.Fatalf("%s: %s sent as %s reads back as %s", tl.name, raw, wire, back)
			}
		}
	})
}
