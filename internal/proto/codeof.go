package proto

import (
	"reflect"
)

// CodeOf finds the first error in err's tree that carries a stable code:
// every public package of the module gives its errors a Code() method
// returning its own string-based Code type, and a Hint() method. It
// returns that code and hint, and false when no error in the tree has one.
func CodeOf(err error) (code, hint string, ok bool) {
	for _, e := range tree(err) {
		m := reflect.ValueOf(e).MethodByName("Code")
		if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 || m.Type().Out(0).Kind() != reflect.String {
			continue
		}
		code = m.Call(nil)[0].String()
		if h, isHinted := e.(interface{ Hint() string }); isHinted {
			hint = h.Hint()
		}
		return code, hint, code != ""
	}
	return "", "", false
}

// tree lists err and every error it wraps, depth first.
func tree(err error) []error {
	var out []error
	var walk func(error)
	walk = func(e error) {
		for e != nil && len(out) < 64 {
			out = append(out, e)
			switch u := e.(type) {
			case interface{ Unwrap() []error }:
				for _, c := range u.Unwrap() {
					walk(c)
				}
				return
			case interface{ Unwrap() error }:
				e = u.Unwrap()
			default:
				return
			}
		}
	}
	walk(err)
	return out
}
