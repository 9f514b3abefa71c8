package proto

// Option is one config key as list-options and get-option show it.
// Value and Default are the key's type (a string, number or bool).
type Option struct {
	Key         string   `json:"key"`
	Type        string   `json:"type"`
	Value       any      `json:"value"`
	Default     any      `json:"default"`
	Set         bool     `json:"set"` // the file sets it
	Accepted    []string `json:"accepted,omitempty"`
	Min         *float64 `json:"min,omitempty"`
	Max         *float64 `json:"max,omitempty"`
	Description string   `json:"description"`
	ReadBy      string   `json:"read_by"` // daemon, client, or both
	Applies     string   `json:"applies"` // when a change takes effect, in words
	PersonOnly  bool     `json:"person_only,omitempty"`
	// Running is what the running daemon uses, for a key it reads at
	// its start; Pending says the file differs from it.
	Running any  `json:"running,omitempty"`
	Pending bool `json:"pending,omitempty"`
}

// OptionList is list-options' result: the keys, and the config file
// they are read from.
type OptionList struct {
	Type    string   `json:"type"` // option_list
	Path    string   `json:"path"`
	Options []Option `json:"options"`
}

// OptionResult is get-option's result.
type OptionResult struct {
	Type   string `json:"type"` // option
	Path   string `json:"path"`
	Option Option `json:"option"`
}

// OptionSet is the result of set-option and set-config.
type OptionSet struct {
	Type     string `json:"type"` // option_set
	Key      string `json:"key"`
	Value    any    `json:"value"`
	Previous any    `json:"previous"`
	Changed  bool   `json:"changed"`
	Path     string `json:"path"`
	ReadBy   string `json:"read_by"`
	Applies  string `json:"applies"`
}

// Theme is one theme of list-themes.
type Theme struct {
	Name        string `json:"name"`
	Builtin     bool   `json:"builtin"`
	Current     bool   `json:"current"`
	Description string `json:"description"`
}

// ThemeList is list-themes' result; Note says where colours are changed.
type ThemeList struct {
	Type   string  `json:"type"` // theme_list
	Themes []Theme `json:"themes"`
	Note   string  `json:"note"`
}
