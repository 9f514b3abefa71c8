package mcp

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/tuios/tuios/internal/agentproto/jsonrpc"
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

// Whatever a request's params hold, reading its _meta does not panic; it
// is served under a supported version or refused with invalid params or
// the unsupported-version error, which lists the supported versions.
func FuzzRequestInfo(f *testing.F) {
	for _, s := range []string{
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":7,"progressToken":"x"}}`,
		`{"_meta":{"progressToken":{"a":1}}}`, `{"_meta":null}`, `{"_meta":[]}`, `[1,2]`, `null`, `{}`, ``, `{"_meta":{"io.modelcontextprotocol/clientCapabilities":null}}`,
	} {
		f.Add("tools/list", []byte(s))
		f.Add("server/discover", []byte(s))
	}
	f.Fuzz(func(t *testing.T, method string, params []byte) {
		s := New(Options{})
		ri, err := s.requestInfo(&request{JSONRPC: "2.0", ID: []byte("1"), Method: method, Params: params})
		switch {
		case err == nil:
			if !slices.Contains(SupportedVersions, ri.version) || ri.modern != (ri.version == modernVersion) {
				t.Fatalf("%s %q: served under %+v", method, params, ri)
			}
			if ri.progress != nil && !json.Valid(ri.progress) {
				t.Fatalf("%q: progress token %q", params, ri.progress)
			}
		case err.Code == codeUnsupportedVersion:
			// What the client reads: data.supported.
			var d struct {
				Supported []string `json:"supported"`
			}
			if b, jerr := json.Marshal(err.Data); jerr != nil || json.Unmarshal(b, &d) != nil || !slices.Equal(d.Supported, SupportedVersions) {
				t.Fatalf("%q: %+v", params, err)
			}
		case err.Code != jsonrpc.CodeInvalidParams:
			t.Fatalf("%s %q: %+v", method, params, err)
		}
	})
}
