package proto

import "encoding/json"

// ListOptionsParams are the params of list-options.
type ListOptionsParams struct {
	Prefix string `json:"prefix,omitempty" desc:"only the keys that start with this, such as notifications.agent" maxlen:"256"`
}

// GetOptionParams are the params of get-option.
type GetOptionParams struct {
	Key string `json:"key,omitempty" desc:"the dotted key, such as notifications.agent.sound" req:"true" maxlen:"256"`
}

// SetOptionParams are the params of set-config and set-option.
type SetOptionParams struct {
	Key   string          `json:"key,omitempty" desc:"the dotted key, such as notifications.agent.sound" req:"true" maxlen:"256"`
	Value json.RawMessage `json:"value,omitempty" desc:"a JSON bool, number or string; a string is read as the key's type (\"true\", \"5\", \"bell\")" req:"true" maxlen:"4096"`
}

// ListThemesParams are the params of list-themes.
type ListThemesParams struct{}
