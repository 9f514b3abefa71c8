package tui

import (
	"encoding/json"
	"reflect"
	"strings"
)

// paramsOf is a params struct as the daemon reads it, by wire name, so a
// model test asks for c.params["window"] whatever type carried it: the
// params that are sent (encoding/json's omitempty leaves out the rest,
// and MarshalJSON of attach, peek-prompt and respond too), a pointer's
// value, and a raw JSON value decoded (set-config's value).
func paramsOf(p any) map[string]any {
	if p == nil {
		return nil
	}
	if m, ok := p.(map[string]any); ok {
		return m
	}
	v := reflect.ValueOf(p)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	out := map[string]any{}
	addParams(out, v)
	return out
}

func addParams(out map[string]any, v reflect.Value) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f, fv := t.Field(i), v.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" && fv.Kind() == reflect.Struct {
			addParams(out, fv) // FanTargetParams: its fields are the outer one's
			continue
		}
		if !f.IsExported() || name == "" || name == "-" || fv.IsZero() {
			continue
		}
		if fv.Kind() == reflect.Slice && fv.Len() == 0 {
			continue
		}
		if raw, ok := fv.Interface().(json.RawMessage); ok {
			var x any
			json.Unmarshal(raw, &x)
			out[name] = x
			continue
		}
		if fv.Kind() == reflect.Pointer {
			fv = fv.Elem()
		}
		out[name] = fv.Interface()
	}
}
