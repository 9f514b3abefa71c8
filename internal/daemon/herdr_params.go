package daemon

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// herdrParams are a request's params, read field by field the way herdr's
// own (serde) parser does: unknown fields are ignored, a missing required
// one is `missing field `name“, a wrong type `invalid type`.
type herdrParams map[string]json.RawMessage

func parseHerdrParams(raw json.RawMessage) (herdrParams, *herdrErr) {
	p := herdrParams{}
	if len(raw) == 0 || string(raw) == "null" {
		return p, nil
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, herdrErrorf(proto.CodeInvalidRequest, "invalid params: "+clipText(err.Error(), 200))
	}
	return p, nil
}

func herdrMissing(name string) *herdrErr {
	return herdrErrorf(proto.CodeInvalidRequest, "missing field `"+name+"`")
}

func herdrBadType(name, want string) *herdrErr {
	return herdrErrorf(proto.CodeInvalidRequest, "invalid type for `"+name+"`: expected "+want)
}

// has says whether the field is present and not null.
func (p herdrParams) has(name string) bool {
	v, ok := p[name]
	return ok && string(v) != "null"
}

// str reads a string field; required fields must be present.
func (p herdrParams) str(name string, required bool) (string, *herdrErr) {
	if !p.has(name) {
		if required {
			return "", herdrMissing(name)
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(p[name], &s); err != nil {
		return "", herdrBadType(name, "a string")
	}
	return s, nil
}

// maxLabel bounds a tab or workspace label a herdr tool sets.
const maxLabel = 256

// label reads a display label: trimmed, control characters removed (it
// is drawn in attached clients' rails), at most maxLabel bytes; absent or
// null is "".
func (p herdrParams) label(name string) (string, *herdrErr) {
	s, herr := p.str(name, false)
	if herr != nil {
		return "", herr
	}
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < 0x20 || r >= 0x7f && r < 0xa0 {
			return -1
		}
		return r
	}, s))
	if len(s) > maxLabel {
		return "", herdrErrorf(proto.CodeInvalidRequest, name+" is longer than "+strconv.Itoa(maxLabel)+" bytes")
	}
	return s, nil
}

// u64 reads an unsigned integer field; ok is false when it is absent.
func (p herdrParams) u64(name string) (v uint64, ok bool, herr *herdrErr) {
	if !p.has(name) {
		return 0, false, nil
	}
	n, err := strconv.ParseUint(string(p[name]), 10, 64)
	if err != nil {
		return 0, false, herdrBadType(name, "an unsigned integer")
	}
	return n, true, nil
}

// f64 reads a number field; ok is false when it is absent. NaN and the
// infinities are not JSON, so what it returns is finite.
func (p herdrParams) f64(name string) (v float64, ok bool, herr *herdrErr) {
	if !p.has(name) {
		return 0, false, nil
	}
	if err := json.Unmarshal(p[name], &v); err != nil {
		return 0, false, herdrBadType(name, "a number")
	}
	return v, true, nil
}

// boolean reads a bool field (absent is false).
func (p herdrParams) boolean(name string) (bool, *herdrErr) {
	if !p.has(name) {
		return false, nil
	}
	var b bool
	if err := json.Unmarshal(p[name], &b); err != nil {
		return false, herdrBadType(name, "a boolean")
	}
	return b, nil
}

// timeout reads timeout_ms: absent is def, above 24 h is invalid_params.
func (p herdrParams) timeout(def int64) (int64, *herdrErr) {
	n, ok, herr := p.u64("timeout_ms")
	if herr != nil {
		return 0, herr
	}
	if !ok {
		return def, nil
	}
	if n == 0 || n > uint64(herdrMaxWait.Milliseconds()) {
		return 0, herdrErrorf(proto.CodeInvalidParams, "timeout_ms must be 1 to 86400000 (24 hours)")
	}
	return int64(n), nil
}
