package tui

import (
	"encoding/json"
	"reflect"

	"github.com/tuios/tuios/internal/proto"
)

// paramsOf is a params struct as the daemon reads it, by wire name, so a
// model test asks for c.params["window"] whatever type carried it: what
// proto.ParamMap sends, with a pointer's value in place of the pointer
// and a raw JSON value decoded (set-config's value).
func paramsOf(p any) map[string]any {
	m := proto.ParamMap(p)
	if _, ok := p.(map[string]any); ok {
		return m
	}
	for name, v := range m {
		switch x := v.(type) {
		case json.RawMessage:
			var d any
			json.Unmarshal(x, &d)
			m[name] = d
		default:
			if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer {
				m[name] = rv.Elem().Interface()
			}
		}
	}
	return m
}
