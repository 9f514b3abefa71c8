package mcp

import (
	"encoding/json"

	"github.com/tuios/tuios/internal/proto"
)

// arguments are a tools/call's arguments as the client sent them, each
// member's JSON as it came. They are checked by name (hidden, unknown,
// out of scope), get the caller's own session and pane where left out,
// and are then decoded into the verb's params type (params): the daemon
// is sent that, as the CLI sends it.
type arguments map[string]json.RawMessage

// null says the argument is absent or null.
func (a arguments) null(name string) bool {
	v, ok := a[name]
	return !ok || string(v) == "null"
}

// str is a string argument; any other value is "".
func (a arguments) str(name string) string {
	var s string
	json.Unmarshal(a[name], &s) // a value of another type leaves ""
	return s
}

// number is a number argument (not a string holding one).
func (a arguments) number(name string) (json.Number, bool) {
	v := a[name]
	if len(v) == 0 || v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return "", false
	}
	var n json.Number
	if json.Unmarshal(v, &n) != nil {
		return "", false
	}
	return n, true
}

func (a arguments) set(name string, v any) {
	a[name], _ = json.Marshal(v)
}

// decode turns the arguments into the verb's params, as the daemon would
// decode them (a value of the wrong type is its invalid_params).
func (a arguments) decode(params any) error {
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	if perr := proto.DecodeParams(b, params); perr != nil {
		return perr
	}
	return nil
}

// paramsOf makes a verb's params type, for a tool (tools.go).
func paramsOf[P any]() any { return new(P) }
