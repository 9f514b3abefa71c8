package daemon

import (
	"encoding/json"
	"errors"
	"os"
	"strings"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// The option verbs (list-options, get-option, set-option, list-themes;
// set-config is set-option under the CLI's name; docs/configuration.md).
// They read and write the config file itself, not the daemon's memory:
//
//   - set-option edits the key's one line of the file (or adds it under its
//     table), keeping every other byte (config.SetOption). What may not be
//     set this way is refused with forbidden and the reason, since it
//     decides who may act here and a pane may call set-option: [agents]
//     (but enabled), [hosts], [tailscale], [hooks], [keybindings], [dock],
//     [notify] and respond_from_shell. agents.enabled and
//     notifications.agent.command (a shell command the client runs) are set
//     only by the person: refused from a pane. Never over a link
//     (link_policy.go: capLocal).
//   - When a change takes effect: the daemon reads its [daemon] keys and
//     agents.enabled when it starts, so those apply at the next start
//     (list-options shows what the running daemon uses beside the file's
//     value). The attach client reads [notifications.agent] and [ui]
//     when it attaches, so a client attached now picks a change up when
//     it attaches again. Every write publishes a config-changed event
//     (message: the key), which a client or a script may take as the cue
//     to read the file again.
//   - None of the settable keys widens what a pane or another machine
//     may do here, so none waits for tuios config apply.

// appliesText says when a change to a key takes effect.
func appliesText(key, readBy string) string {
	switch {
	case readBy == "daemon":
		return "when the daemon starts next"
	case strings.HasPrefix(key, "notifications."):
		// Attached clients read their alerts again on config-changed
		// (the layout's config_seq; internal/tui/config_reload.go).
		return "at once in attached clients"
	}
	return "when a client attaches (a client attached now: detach and attach again)"
}

// configPath is the file the option verbs read and write: the one the
// daemon read, else where it would be.
func (s *Server) configPath() string {
	if s.opt.Config != nil && s.opt.Config.Path != "" {
		return s.opt.Config.Path
	}
	return config.Path(s.getenv)
}

// running is what the daemon read at its start for a key it reads then
// (s.opt.Config is never replaced, so it is safe to read).
func (s *Server) running(key string) (any, bool) {
	f := s.opt.Config
	if f == nil {
		f = &config.File{}
	}
	switch key {
	case "daemon.agent_autodetect":
		return config.On(f.Daemon.AgentAutodetect), true
	case "daemon.agent_detect_seconds":
		// As the file says it: 0 (the default) is "every 2 s", which is
		// the agents page's word for it, not a different setting.
		n := int64(0)
		if p := f.Daemon.AgentDetectSeconds; p != nil && *p != 0 {
			n = int64(*p)
			if n < 0 {
				n = -1
			}
		}
		return n, true
	case "daemon.resume_agents":
		return f.ResumeMode(), true
	case "daemon.restore":
		return f.RestoreSessions(), true
	case "agents.enabled":
		return f.AgentsEnabled(), true
	}
	return nil, false
}

// readConfig is the config file's bytes ("" when there is none).
func readConfig(path string) ([]byte, *proto.Error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "config %s: %v", path, err)
	}
	return data, nil
}

func (s *Server) optionRow(data []byte, path string, o config.Option) (proto.Option, *proto.Error) {
	v, set, err := config.OptionValue(data, o)
	if err != nil {
		return proto.Option{}, proto.Errorf(proto.CodeInvalidParams, "config %s does not parse: %v", path, err).
			WithHint(proto.Hint{Detail: "fix the file by hand (tuios attach names the line)"})
	}
	r := proto.Option{Key: o.Key, Type: o.Type, Value: v, Default: o.Default, Set: set, Accepted: o.Accepted, Min: o.Min, Max: o.Max,
		Description: o.Description, ReadBy: o.ReadBy, Applies: appliesText(o.Key, o.ReadBy), PersonOnly: o.PersonOnly}
	if run, ok := s.running(o.Key); ok {
		r.Running = run
		r.Pending = !sameValue(run, v)
	}
	return r, nil
}

func sameValue(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// optionError puts config's refusal of a key or a value in protocol terms.
func optionError(err error) *proto.Error {
	var oe *config.OptionError
	if !errors.As(err, &oe) {
		return proto.Errorf(proto.CodeInvalidParams, "%v", err)
	}
	switch oe.Kind {
	case config.OptionExcluded:
		return proto.Errorf(proto.CodeForbidden, "%s is not an option (set-config and get-config leave it to the file): %s", oe.Key, oe.Why).
			WithHint(proto.Hint{Detail: "edit ~/.config/tuios/config.toml by hand"})
	case config.OptionBadValue:
		return proto.Errorf(proto.CodeInvalidParams, "%s", oe.Why).
			WithHint(proto.Hint{Param: "value", Detail: "accepted: " + oe.Accepted})
	}
	return proto.Errorf(proto.CodeInvalidParams, "%s", oe.Why).
		WithHint(proto.Hint{Param: "key", DidYouMean: oe.DidYouMean, Command: "tuios list-options"})
}

// valueText is the value as the CLI would type it: a JSON string's text,
// or a bool's or a number's literal.
func valueText(raw json.RawMessage) (string, *proto.Error) {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", proto.Errorf(proto.CodeInvalidParams, "the value is not JSON").WithHint(proto.Hint{Param: "value"})
	}
	switch v := v.(type) {
	case string:
		return v, nil
	case bool:
		if v {
			return "true", nil
		}
		return "false", nil
	case json.Number:
		return v.String(), nil
	}
	return "", proto.Errorf(proto.CodeInvalidParams, "the value is a bool, a number or a string").
		WithHint(proto.Hint{Param: "value", Detail: "such as true, 5 or \"bell\""})
}

// optionVerbs are list-options, get-option, set-option (and set-config),
// list-themes.
func (s *Server) optionVerbs(add addFunc) {

	p, h := handler(func(cn *conn, p *proto.ListOptionsParams) (any, *proto.Error) {
		path := s.configPath()
		data, perr := readConfig(path)
		if perr != nil {
			return nil, perr
		}
		res := proto.OptionList{Type: "option_list", Path: path, Options: []proto.Option{}}
		for _, o := range config.Options() {
			if o.Unlisted || !strings.HasPrefix(o.Key, p.Prefix) {
				continue
			}
			r, perr := s.optionRow(data, path, o)
			if perr != nil {
				return nil, perr
			}
			res.Options = append(res.Options, r)
		}
		return res, nil
	})
	add("list-options", reads, "List the config keys set-option may set: each one's value in the config file, default, type, accepted values and when a change takes effect. [agents], [hosts], [notify], [keybindings] and the other tables that decide what may act here are not options (edit the file)",
		"option_list", `{"verb":"list-options","params":{"prefix":"notifications.agent"}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.GetOptionParams) (any, *proto.Error) {
		o, err := config.LookupOption(p.Key)
		if err != nil {
			return nil, optionError(err)
		}
		path := s.configPath()
		data, perr := readConfig(path)
		if perr != nil {
			return nil, perr
		}
		r, perr := s.optionRow(data, path, o)
		if perr != nil {
			return nil, perr
		}
		return proto.OptionResult{Type: "option", Path: path, Option: r}, nil
	})
	add("get-option", reads, "Read one config key: its value in the config file (its default when the file leaves it unset), its type and default, and when a change takes effect (option: a row as list-options gives it)",
		"option", `{"verb":"get-option","params":{"key":"notifications.agent.sound"}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.SetOptionParams) (any, *proto.Error) {
		if cn.link != nil {
			return nil, proto.Errorf(proto.CodeForbidden, "set-option is refused over links").WithHint(proto.Hint{Detail: "run it on this machine"})
		}
		o, err := config.LookupOption(p.Key)
		if err != nil {
			return nil, optionError(err)
		}
		if o.PersonOnly && !s.outsidePanes(cn) {
			return nil, proto.Errorf(proto.CodeForbidden, "%s is set only by the person: a program inside a pane may not", o.Key).
				WithHint(proto.Hint{Command: "tuios set-config " + o.Key + " VALUE", Detail: "run it from a terminal outside TUIOS, or edit the file by hand"})
		}
		text, perr := valueText(p.Value)
		if perr != nil {
			return nil, perr
		}
		v, err := o.Parse(text)
		if err != nil {
			return nil, optionError(err)
		}
		path := s.configPath()
		s.editMu.Lock()
		res, err := config.SetOption(path, o, v)
		s.editMu.Unlock()
		if err != nil {
			return nil, proto.Errorf(proto.CodeInvalidParams, "%v", err).
				WithHint(proto.Hint{Detail: "nothing was written; fix the file by hand if it does not parse"})
		}
		if res.Changed {
			s.opt.Logf("config %s: %s set to %v with set-option; it applies %s", path, o.Key, v, appliesText(o.Key, o.ReadBy))
			s.hub.Publish(event{Type: "config-changed", Message: o.Key})
		}
		return proto.OptionSet{Type: "option_set", Key: o.Key, Value: v, Previous: res.Previous, Changed: res.Changed,
			Path: path, ReadBy: o.ReadBy, Applies: appliesText(o.Key, o.ReadBy)}, nil
	})
	const setDesc = "Set one config key in the config file: its one line is changed (or added under its table) and every other line, comments too, is kept. " +
		"Refused: an unknown key (with the nearest), a bad value (with what it accepts), and with forbidden the tables that decide what may act here " +
		"([agents], [hosts], [tailscale], [hooks], [keybindings], [dock], [notify], respond_from_shell); agents.enabled and notifications.agent.command " +
		"are refused from a pane. [daemon] keys apply when the daemon starts next, [notifications.agent] at once in attached clients, [ui] when a client attaches; a config-changed event says a key was written"
	add("set-option", administers, setDesc, "option_set", `{"verb":"set-option","params":{"key":"notifications.agent.sound","value":true}}`, p, h)
	add("set-config", administers, "The same as set-option, under the CLI's name (tuios set-config KEY VALUE)", "option_set",
		`{"verb":"set-config","params":{"key":"notifications.agent.sound_mode","value":"bell"}}`, p, h)

	tp, th := handler(func(cn *conn, _ *proto.ListThemesParams) (any, *proto.Error) {
		return proto.ThemeList{Type: "theme_list", Themes: []proto.Theme{{Name: "default", Builtin: true, Current: true,
			Description: "your terminal's own colours: the attach client draws with the palette your terminal's theme defines"}},
			Note: "the attach client has one built-in theme and no theme setting: change the colours in your terminal"}, nil
	})
	add("list-themes", reads, "List the attach client's themes. It has one, built in: it draws with your terminal's own colours, so the terminal's theme is the one to change",
		"theme_list", `{"verb":"list-themes"}`, tp, th)
}
