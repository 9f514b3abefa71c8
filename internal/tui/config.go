package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/BurntSushi/toml"
)

// Config is the client part of config.toml. Other tables belong to the
// daemon and are ignored here.
type Config struct {
	// Path is the file read, "" when there was none.
	Path      string
	Prefix    string
	Bindings  map[string]string
	Bell      bool
	Notify    bool
	AgentsOn  bool
	RailRight bool
	ASCIIOnly bool
}

// ConfigPath is where the config file lives: $XDG_CONFIG_HOME/tuios, else
// ~/.config/tuios.
func ConfigPath(getenv func(string) string) string {
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "tuios", "config.toml")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "tuios", "config.toml")
	}
	return ""
}

// fileConfig is the file's shape, the client's tables only.
type fileConfig struct {
	Keybindings struct {
		Prefix string            `toml:"prefix"`
		Inbox  map[string]string `toml:"inbox"`
	} `toml:"keybindings"`
	Alerts struct {
		Bell   *bool `toml:"bell"`
		Notify *bool `toml:"notify"`
	} `toml:"alerts"`
	Agents struct {
		Enabled *bool `toml:"enabled"`
	} `toml:"agents"`
	UI struct {
		Rail      string `toml:"rail"`
		ASCIIOnly bool   `toml:"ascii_only"`
	} `toml:"ui"`
}

// LoadConfig reads the client's settings from path. A missing file is
// the defaults; a file that does not parse is an error naming the file
// and the line.
func LoadConfig(path string) (Config, error) {
	cfg := Config{Prefix: DefaultPrefix, Bindings: map[string]string{}, Bell: true, Notify: true, AgentsOn: true}
	if path == "" {
		return cfg, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, err
	}
	var f fileConfig
	_, err = toml.Decode(string(b), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return cfg, fmt.Errorf("%s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		return cfg, fmt.Errorf("%s: %v", path, err)
	}
	cfg.Path = path
	if f.Keybindings.Prefix != "" {
		cfg.Prefix = f.Keybindings.Prefix
	}
	// The prefix actions are the other string keys of [keybindings].
	var raw struct {
		Keybindings map[string]any `toml:"keybindings"`
	}
	toml.Decode(string(b), &raw)
	known := DefaultBindings()
	for k, v := range raw.Keybindings {
		s, ok := v.(string)
		if !ok || k == "prefix" {
			continue
		}
		if _, ok := known[k]; !ok {
			return cfg, fmt.Errorf("%s:%d: [keybindings] has no action %q", path, keyLine(b, k), k)
		}
		cfg.Bindings[k] = s
	}
	for k, v := range f.Keybindings.Inbox {
		if _, ok := known["inbox."+k]; !ok {
			return cfg, fmt.Errorf("%s:%d: [keybindings.inbox] has no action %q", path, keyLine(b, k), k)
		}
		cfg.Bindings["inbox."+k] = v
	}
	if f.Alerts.Bell != nil {
		cfg.Bell = *f.Alerts.Bell
	}
	if f.Alerts.Notify != nil {
		cfg.Notify = *f.Alerts.Notify
	}
	if f.Agents.Enabled != nil {
		cfg.AgentsOn = *f.Agents.Enabled
	}
	cfg.RailRight = f.UI.Rail == "right"
	cfg.ASCIIOnly = f.UI.ASCIIOnly
	return cfg, nil
}

// keyLine is the first line that starts with key, for an error that
// names where the bad key is.
func keyLine(b []byte, key string) int {
	line := 1
	start := 0
	for i := 0; i <= len(b); i++ {
		if i == len(b) || b[i] == '\n' {
			l := string(b[start:i])
			for len(l) > 0 && (l[0] == ' ' || l[0] == '\t') {
				l = l[1:]
			}
			if len(l) > len(key) && l[:len(key)] == key && (l[len(key)] == ' ' || l[len(key)] == '=') {
				return line
			}
			line++
			start = i + 1
		}
	}
	return 0
}

// Apply sets the options the config decides.
func (c Config) Apply(opt *Options) {
	if opt.Prefix == "" {
		opt.Prefix = c.Prefix
	}
	if opt.Bindings == nil {
		opt.Bindings = map[string]string{}
	}
	for k, v := range c.Bindings {
		if _, set := opt.Bindings[k]; !set {
			opt.Bindings[k] = v
		}
	}
	opt.Bell, opt.Notify = c.Bell, c.Notify
	opt.AgentsOff = opt.AgentsOff || !c.AgentsOn
	opt.RailRight = opt.RailRight || c.RailRight
	opt.ASCIIOnly = opt.ASCIIOnly || c.ASCIIOnly
}
