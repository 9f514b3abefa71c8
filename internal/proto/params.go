package proto

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/tuios/tuios/internal/fuzzy"
)

// A verb's params are a struct; its field tags are the one source that both
// list-verbs (Schema) and the checks every request passes (Validate) read,
// so what list-verbs promises is what the daemon enforces:
//
//	json:"name"                 the wire name
//	desc:"..."                  one line for list-verbs
//	req:"true"                  required
//	when:"condition=a|b"        required when param condition is a or b
//	min:"1" max:"65536"         an int's bounds; 0 (absent) takes the default
//	maxlen:"256"                a string's bytes, or a list's entries
//	accepted:"x,y"              the values a string (or each list entry) may take
//	check:"handler"             the handler checks accepted itself (with a better message)
//	default:"30000"             what absent means, for list-verbs
//
// An int param whose value is 0 is treated as absent: bounds apply to every
// other value, so a negative or huge number is refused before a handler
// sees it.
//
// The verbs' params types are here (params_<area>.go: NewSessionParams,
// WaitParams, ...), so the daemon decodes and the CLI, the client and MCP
// build one type. Every json tag has omitempty: a client sends only what it
// set, the daemon reads an absent param as its default, and a daemon of
// another version is never sent an empty param it may not know. A name or
// flag whose empty value means something (set-window's name: "" clears it)
// is a pointer.

// Schema describes a params struct (a pointer to one, or nil) for
// list-verbs.
func Schema(params any) []Param {
	out := []Param{}
	if params == nil {
		return out
	}
	t := reflect.TypeOf(params)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := wireName(f)
		if name == "" {
			continue
		}
		p := Param{Name: name, Type: typeName(f.Type), Description: f.Tag.Get("desc"), Required: f.Tag.Get("req") == "true"}
		if acc := f.Tag.Get("accepted"); acc != "" {
			p.Accepted = strings.Split(acc, ",")
		}
		if d := f.Tag.Get("default"); d != "" {
			p.Default = defaultValue(f.Type, d)
		}
		if v, ok := tagInt(f, "min"); ok {
			p.Minimum = &v
		}
		if v, ok := tagInt(f, "max"); ok {
			p.Maximum = &v
		}
		if v, ok := tagInt(f, "maxlen"); ok {
			p.MaxLength = int(v)
		}
		if param, values, ok := whenTag(f); ok {
			p.RequiredWhen = map[string][]string{param: values}
		}
		out = append(out, p)
	}
	return out
}

// Validate checks decoded params against their tags: required params,
// params required by another's value, int bounds, lengths and accepted
// values. It reports the first problem as invalid_params naming the param.
func Validate(params any) *Error {
	v := reflect.ValueOf(params)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := wireName(f)
		if name == "" {
			continue
		}
		fv := v.Field(i)
		if f.Tag.Get("req") == "true" && fv.IsZero() {
			return ParamError(name, "is required")
		}
		if other, values, ok := whenTag(f); ok && fv.IsZero() {
			if got := stringField(v, other); got != "" && contains(values, got) {
				return ParamError(name, fmt.Sprintf("is required when %s is %q", other, got))
			}
		}
		if fv.Kind() == reflect.Pointer {
			if fv.IsNil() {
				continue
			}
			fv = fv.Elem()
		}
		if err := checkValue(f, name, fv); err != nil {
			return err
		}
	}
	return nil
}

func checkValue(f reflect.StructField, name string, fv reflect.Value) *Error {
	switch fv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := fv.Int()
		if n == 0 {
			return nil
		}
		lo, hasLo := tagInt(f, "min")
		hi, hasHi := tagInt(f, "max")
		if hasLo && n < lo || hasHi && n > hi {
			return rangeError(name, strconv.FormatInt(n, 10), lo, hi, hasLo, hasHi)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n := fv.Uint()
		if n == 0 {
			return nil
		}
		lo, hasLo := tagInt(f, "min")
		hi, hasHi := tagInt(f, "max")
		if hasLo && lo > 0 && n < uint64(lo) || hasHi && hi >= 0 && n > uint64(hi) {
			return rangeError(name, strconv.FormatUint(n, 10), lo, hi, hasLo, hasHi)
		}
	case reflect.String:
		s := fv.String()
		if max, ok := tagInt(f, "maxlen"); ok && int64(len(s)) > max {
			return ParamError(name, fmt.Sprintf("is %d bytes, over the cap of %d", len(s), max))
		}
		return checkAccepted(f, name, s)
	case reflect.Slice:
		if max, ok := tagInt(f, "maxlen"); ok && int64(fv.Len()) > max {
			return ParamError(name, fmt.Sprintf("has %d entries, over the cap of %d", fv.Len(), max))
		}
		if fv.Type().Elem().Kind() == reflect.String {
			for i := 0; i < fv.Len(); i++ {
				if err := checkAccepted(f, name, fv.Index(i).String()); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func rangeError(name, got string, lo, hi int64, hasLo, hasHi bool) *Error {
	var want string
	switch {
	case hasLo && hasHi:
		want = fmt.Sprintf("%d to %d", lo, hi)
	case hasLo:
		want = fmt.Sprintf("at least %d", lo)
	default:
		want = fmt.Sprintf("at most %d", hi)
	}
	e := ParamError(name, fmt.Sprintf("is %s, out of range (%s)", got, want))
	e.Hint.Detail, e.Hint.Range = "accepted: "+want, want
	return e
}

func checkAccepted(f reflect.StructField, name, s string) *Error {
	acc := f.Tag.Get("accepted")
	if acc == "" || s == "" || f.Tag.Get("check") == "handler" {
		return nil
	}
	values := strings.Split(acc, ",")
	if contains(values, s) {
		return nil
	}
	best, bestD := "", 1<<30
	for _, v := range values {
		if d := fuzzy.Distance(s, v); d < bestD {
			best, bestD = v, d
		}
	}
	if bestD > max(2, len(s)/2) {
		best = ""
	}
	return Errorf(CodeInvalidParams, "unknown %s %q", name, clip(s, 64)).WithHint(Hint{Param: name, Accepted: values, DidYouMean: best})
}

// clip keeps a value a caller sent short in an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func wireName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	return name
}

func typeName(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "int"
	case reflect.Bool:
		return "bool"
	case reflect.String:
		return "string"
	case reflect.Slice:
		switch t.Elem().Kind() {
		case reflect.String:
			return "[]string"
		case reflect.Int, reflect.Int64, reflect.Uint64:
			return "[]int"
		}
	}
	return "object"
}

func tagInt(f reflect.StructField, key string) (int64, bool) {
	s := f.Tag.Get(key)
	if s == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		panic(fmt.Sprintf("proto: field %s: bad %s tag %q", f.Name, key, s)) // a programming error, caught by the schema test
	}
	return n, true
}

func whenTag(f reflect.StructField) (param string, values []string, ok bool) {
	w := f.Tag.Get("when")
	if w == "" {
		return "", nil, false
	}
	param, vals, ok := strings.Cut(w, "=")
	if !ok {
		panic(fmt.Sprintf("proto: field %s: bad when tag %q", f.Name, w))
	}
	return param, strings.Split(vals, "|"), true
}

// stringField is the value of the string param with wire name name.
func stringField(v reflect.Value, name string) string {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if wireName(t.Field(i)) == name && v.Field(i).Kind() == reflect.String {
			return v.Field(i).String()
		}
	}
	return ""
}

func defaultValue(t reflect.Type, s string) any {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n
		}
	case reflect.Bool:
		return s == "true"
	}
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
