package mcp

import (
	"encoding/json"
	"testing"

	"github.com/tuios/tuios/internal/agentproto/jsonrpc"
)

func TestParseLine(t *testing.T) {
	for _, c := range []struct {
		line       string
		batch      bool
		reqs, errs int
		code       int // of the first error
	}{
		{line: "", reqs: 0},
		{line: "   ", reqs: 0},
		{line: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, reqs: 1},
		{line: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, reqs: 1},
		{line: `{"jsonrpc":"2.0","id":1,"result":{}}`, reqs: 0}, // a client's answer: nothing to do
		{line: `{"jsonrpc":"2.0","id":1,"method":"ping"`, errs: 1, code: jsonrpc.CodeParseError},
		{line: `nonsense`, errs: 1, code: jsonrpc.CodeParseError},
		{line: `[1,2`, errs: 1, code: jsonrpc.CodeParseError},
		{line: `[]`, errs: 1, code: jsonrpc.CodeInvalidRequest},
		{line: `{"id":1,"method":"ping"}`, errs: 1, code: jsonrpc.CodeInvalidRequest},
		{line: `{"jsonrpc":"2.0","id":{},"method":"ping"}`, errs: 1, code: jsonrpc.CodeInvalidRequest},
		{line: `{"jsonrpc":"2.0","id":1}`, errs: 1, code: jsonrpc.CodeInvalidRequest},
		{line: `{"jsonrpc":"2.0","id":1,"method":"ping","params":3}`, errs: 1, code: jsonrpc.CodeInvalidRequest},
		{line: `"text"`, errs: 1, code: jsonrpc.CodeInvalidRequest},
		{line: `[{"jsonrpc":"2.0","id":1,"method":"ping"},7,{"jsonrpc":"2.0","method":"x"}]`, batch: true, reqs: 2, errs: 1, code: jsonrpc.CodeInvalidRequest},
	} {
		items, batch := parseLine([]byte(c.line))
		reqs, errs, code := 0, 0, 0
		for _, it := range items {
			if it.req != nil {
				reqs++
			} else {
				if errs == 0 {
					code = it.err.Error.Code
				}
				errs++
			}
		}
		if batch != c.batch || reqs != c.reqs || errs != c.errs || code != c.code {
			t.Errorf("%q: batch %v, %d requests, %d errors (first %d); want %v, %d, %d (%d)", c.line, batch, reqs, errs, code, c.batch, c.reqs, c.errs, c.code)
		}
	}
}

// An explicit null id is a request (answered with id null), not a
// notification.
func TestParseLineNullID(t *testing.T) {
	items, _ := parseLine([]byte(`{"jsonrpc":"2.0","id":null,"method":"ping"}`))
	if len(items) != 1 || items[0].req == nil || items[0].req.notification() {
		t.Fatalf("id null: %+v", items)
	}
	b, _ := json.Marshal(&response{JSONRPC: "2.0", ID: items[0].req.ID, Result: map[string]any{}})
	if string(b) != `{"jsonrpc":"2.0","id":null,"result":{}}` {
		t.Errorf("answer: %s", b)
	}
}
