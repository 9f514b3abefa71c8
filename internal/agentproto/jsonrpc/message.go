package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Kind is what a message is.
type Kind int

// The kinds of message.
const (
	KindRequest      Kind = iota + 1 // a method and an id: the peer waits for an answer
	KindNotification                 // a method and no id
	KindResponse                     // an id and a result or an error
)

// Message is one decoded message. ID is the raw JSON of the id (a string
// or a number), kept as sent so an answer carries it back unchanged.
type Message struct {
	Kind   Kind
	ID     json.RawMessage
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Error  *Error
}

// Error is a JSON-RPC error object.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

// Standard error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// wire is a message as it travels.
type wire struct {
	JSONRPC string          `json:"jsonrpc,omitempty"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// ErrNotMessage is Decode's error for a line that is not a JSON-RPC
// message.
var ErrNotMessage = errors.New("jsonrpc: not a JSON-RPC message")

// Decode reads one line. A "jsonrpc" member, when present, must be "2.0";
// Codex's app-server leaves it out, so it is not required.
func Decode(line []byte) (Message, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return Message{}, ErrNotMessage
	}
	var w wire
	if err := json.Unmarshal(line, &w); err != nil {
		return Message{}, fmt.Errorf("%w: %v", ErrNotMessage, err)
	}
	if w.JSONRPC != "" && w.JSONRPC != "2.0" {
		return Message{}, fmt.Errorf("%w: jsonrpc %q", ErrNotMessage, w.JSONRPC)
	}
	hasID := len(w.ID) > 0 && !bytes.Equal(w.ID, []byte("null"))
	if hasID && !validID(w.ID) {
		return Message{}, fmt.Errorf("%w: an id that is neither a string nor a number", ErrNotMessage)
	}
	m := Message{ID: w.ID, Method: w.Method, Params: w.Params, Result: w.Result, Error: w.Error}
	switch {
	case w.Method != "" && hasID:
		m.Kind = KindRequest
	case w.Method != "":
		m.Kind, m.ID = KindNotification, nil
	case hasID && (w.Result != nil || w.Error != nil):
		m.Kind = KindResponse
	default:
		return Message{}, fmt.Errorf("%w: neither a method nor an answer", ErrNotMessage)
	}
	return m, nil
}

// validID: a JSON string or number.
func validID(id json.RawMessage) bool {
	switch c := id[0]; {
	case c == '"':
		var s string
		return json.Unmarshal(id, &s) == nil
	case c == '-' || c >= '0' && c <= '9':
		var n json.Number
		return json.Unmarshal(id, &n) == nil
	}
	return false
}

// idKey is the id as a map key: a number's text is canonical enough for
// the ids this package mints (small integers), and a peer's string id is
// kept as it was sent.
func idKey(id json.RawMessage) string { return string(bytes.TrimSpace(id)) }
