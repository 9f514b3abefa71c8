package proto

import (
	"reflect"
	"strings"
)

// ParamMap is a verb's params as the wire carries them: a params struct
// of internal/proto becomes a map of the fields it sets, under their wire
// names, leaving out what encoding/json's omitempty leaves out (false, 0,
// "", an empty list or map, a nil pointer), as params does. The daemon
// reads an absent param as its default, and a far daemon of another
// version is never sent a param it may not know. A map is kept as it is.
// The CLI sends this map (its remote routing reads the target out of it);
// the attach client's tests read what it sent through it.
func ParamMap(p any) map[string]any {
	switch p := p.(type) {
	case nil:
		return nil
	case map[string]any:
		return p
	}
	v := reflect.ValueOf(p)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	m := map[string]any{}
	addFields(m, v)
	return m
}

func addFields(m map[string]any, v reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f, fv := t.Field(i), v.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" && fv.Kind() == reflect.Struct {
			addFields(m, fv) // an embedded struct's fields are the outer one's
			continue
		}
		if !f.IsExported() || name == "-" || emptyValue(fv) {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = fv.Interface()
	}
}

// emptyValue is what encoding/json's omitempty leaves out.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.Array, reflect.String:
		return v.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	}
	return v.IsZero()
}
