package mcp

import (
	"bytes"
	"encoding/json"

	"github.com/tuios/tuios/internal/agentproto/jsonrpc"
)

// MaxLine caps one line of input: a bigger one is refused, never held.
const MaxLine = 1 << 20

// request is one JSON-RPC request or notification. ID is nil for a
// notification (no "id" member); an explicit null id is the bytes null.
type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

func (r *request) notification() bool { return r.ID == nil }

// response is one JSON-RPC response. A nil ID is written as null, as an
// error about a request whose id could not be read must be.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func errorResponse(id json.RawMessage, code int, msg string) *response {
	return &response{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: msg}}
}

// item is one member of a parsed line: a request to run, or the error
// answer for a member that is not a valid request.
type item struct {
	req *request
	err *response
}

// parseLine reads one line of input. A blank line, or a message that is
// a response (a client answering, which this server never asks for), is
// nothing. A line that is not JSON is one parse error; an empty batch is
// one invalid-request error (never an empty array, per JSON-RPC).
func parseLine(line []byte) (items []item, batch bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, false
	}
	if line[0] == '[' {
		var members []json.RawMessage
		if err := json.Unmarshal(line, &members); err != nil {
			return []item{{err: errorResponse(nil, jsonrpc.CodeParseError, "parse error: the line is not JSON: "+err.Error())}}, false
		}
		if len(members) == 0 {
			return []item{{err: errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid request: an empty batch")}}, false
		}
		for _, m := range members {
			if it, ok := parseMember(m); ok {
				items = append(items, it)
			}
		}
		return items, true
	}
	if !json.Valid(line) {
		return []item{{err: errorResponse(nil, jsonrpc.CodeParseError, "parse error: the line is not JSON")}}, false
	}
	if it, ok := parseMember(line); ok {
		return []item{it}, false
	}
	return nil, false
}

// parseMember reads one message; ok is false for a response, which needs
// no answer.
func parseMember(m json.RawMessage) (item, bool) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(m, &probe); err != nil || probe == nil {
		return item{err: errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid request: a message must be a JSON object")}, true
	}
	id, hasID := probe["id"]
	if hasID && !validID(id) {
		return item{err: errorResponse(nil, jsonrpc.CodeInvalidRequest, "invalid request: id must be a string, a number or null")}, true
	}
	if _, isMethod := probe["method"]; !isMethod {
		if _, r := probe["result"]; r {
			return item{}, false
		}
		if _, e := probe["error"]; e {
			return item{}, false
		}
	}
	var r request
	if err := json.Unmarshal(m, &r); err != nil {
		return item{err: errorResponse(id, jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())}, true
	}
	if hasID && r.ID == nil {
		r.ID = json.RawMessage("null")
	}
	if r.JSONRPC != "2.0" {
		return item{err: errorResponse(id, jsonrpc.CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)}, true
	}
	if r.Method == "" {
		return item{err: errorResponse(id, jsonrpc.CodeInvalidRequest, `invalid request: "method" is missing`)}, true
	}
	if len(r.Params) > 0 && r.Params[0] != '{' && r.Params[0] != '[' && string(r.Params) != "null" {
		return item{err: errorResponse(id, jsonrpc.CodeInvalidRequest, "invalid request: params must be an object or an array")}, true
	}
	return item{req: &r}, true
}

func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	switch id[0] {
	case '"', 'n', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}
