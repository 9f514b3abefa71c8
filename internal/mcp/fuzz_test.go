package mcp

import (
	"encoding/json"
	"testing"
)

// Whatever a client sends, parseLine does not panic, every member is a
// request or an error answer, and every answer is valid JSON.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}]`,
		`{"jsonrpc":"2.0","id":"x","result":{}}`, `[]`, `[`, `{}`, `null`, `"s"`, `{"jsonrpc":"2.0","id":null,"method":""}`,
		"\xff\xfe", `{"jsonrpc":"2.0","id":1e999,"method":"ping"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		items, _ := parseLine(line)
		for _, it := range items {
			switch {
			case it.req != nil && it.err != nil, it.req == nil && it.err == nil:
				t.Fatalf("%q: an item that is neither or both: %+v", line, it)
			case it.req != nil:
				if it.req.JSONRPC != "2.0" || it.req.Method == "" {
					t.Fatalf("%q: accepted %+v", line, it.req)
				}
			default:
				b, err := json.Marshal(it.err)
				if err != nil || !json.Valid(b) {
					t.Fatalf("%q: answer %s: %v", line, b, err)
				}
			}
		}
	})
}
