package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/tuios/tuios/review"
)

// File is the config file's content. Pointer fields are nil when the file
// leaves them unset, so a default can differ from the zero value.
type File struct {
	Daemon      Daemon                    `toml:"daemon"`
	Agents      Agents                    `toml:"agents"`
	Notify      Notifications             `toml:"notifications"`
	Keybindings map[string]toml.Primitive `toml:"keybindings"`
	UI          UI                        `toml:"ui"`
	// Hosts is [hosts.NAME]: the machines this daemon links to,
	// and [hosts."*"], the policy for machines without a table.
	Hosts map[string]Host              `toml:"hosts"`
	keys  map[string]map[string]string // Keybindings decoded: table → action → key
	// PushTable is [notify] as read; Parse decodes it on its own
	// (notify.go) and PushSettings gives it checked.
	PushTable toml.Primitive `toml:"notify"`
	push      Push
	pushErr   string

	// Path is the file read ("" when none was).
	Path    string `toml:"-"`
	unknown []string
}

// Daemon is the [daemon] table.
type Daemon struct {
	// RespondFromShell lets a caller outside every pane answer prompts
	// with respond, as the person.
	RespondFromShell bool `toml:"respond_from_shell"`
	// AgentAutodetect (default true) checks each pane's foreground
	// process for an agent CLI.
	AgentAutodetect *bool `toml:"agent_autodetect"`
	// AgentDetectSeconds is the interval of those checks: 0 is 2 s, a
	// negative number turns them off.
	AgentDetectSeconds *int `toml:"agent_detect_seconds"`
	// AgentBinaries are extra program names counted as agents.
	AgentBinaries []string `toml:"agent_binaries"`
	// ResumeAgents is ask (default), auto or off.
	ResumeAgents string `toml:"resume_agents"`
	// Restore (default true) brings sessions back after a daemon restart.
	Restore *bool `toml:"restore"`
}

// Agents is the [agents] table.
type Agents struct {
	// Enabled (default true): false leaves only the multiplexer.
	Enabled *bool `toml:"enabled"`
	// HerdrProtocol is always (default, as the agents page says), agents
	// or off: which panes get herdr's variables and whether the herdr
	// socket is served (HerdrMode).
	HerdrProtocol string      `toml:"herdr_protocol"`
	Approvals     Approvals   `toml:"approvals"`
	Queue         Queue       `toml:"queue"`
	Recap         Recap       `toml:"recap"`
	Permissions   Permissions `toml:"permissions"`
}

// Recap is [agents.recap]: the agent log's recap.
type Recap struct {
	// Mode is toast (default), inbox or off.
	Mode string `toml:"mode"`
	// Away is how long counts as away (a Go duration, default 10m).
	Away string `toml:"away"`
	// TestPatterns are the commands a recap counts as test runs; empty
	// takes the daemon's defaults (go test, npm test, pytest, cargo test...).
	TestPatterns []string `toml:"test_patterns"`
}

// Queue is [agents.queue]: the reply queue.
type Queue struct {
	// Max is the entries one pane may have waiting: 0 is 8, at most 64.
	Max int `toml:"max"`
}

// QueueMax is [agents.queue] max with its default and ceiling.
func (f *File) QueueMax() int {
	switch n := f.Agents.Queue.Max; {
	case n <= 0:
		return 8
	case n > 64:
		return 64
	default:
		return n
	}
}

// Approvals is [agents.approvals].
type Approvals struct {
	// Enabled are the harnesses whose permission requests the daemon
	// may hold for the Inbox (ids or aliases: claude, claude-code,
	// opencode, kilo, qwen).
	Enabled []string `toml:"enabled"`
	// HoldSeconds bounds a hold: default 120, clamped to 10..300.
	HoldSeconds *int `toml:"hold_seconds"`
	// HoldPlans (default true) holds Claude Code plans too, for the
	// harnesses in Enabled.
	HoldPlans *bool `toml:"hold_plans"`
	Risk      Risk  `toml:"risk"`
}

// HoldFor is [agents.approvals] hold_seconds with its default and clamp.
func (f *File) HoldFor() time.Duration {
	n := 120
	if p := f.Agents.Approvals.HoldSeconds; p != nil {
		n = min(max(*p, 10), 300)
	}
	return time.Duration(n) * time.Second
}

// Risk is [agents.approvals.risk]: the risk rules' configuration.
type Risk struct {
	Builtin       *bool             `toml:"builtin"`
	PanesMayAllow *bool             `toml:"panes_may_allow"`
	Rule          []review.RiskRule `toml:"rule"`
}

// Notifications is the [notifications] table.
type Notifications struct {
	Agent AgentAlerts `toml:"agent"`
}

// AgentAlerts is [notifications.agent]: what the attach client does when
// a pane that is not in front of the person needs them. Each switch but
// Sound is on when unset; File.Alerts applies those defaults.
type AgentAlerts struct {
	Enabled *bool `toml:"enabled"`
	// Notify sends a desktop notification through the outer terminal
	// (OSC 9 / OSC 777).
	Notify *bool `toml:"notify"`
	// Dock writes one line in the client's dock.
	Dock *bool `toml:"dock"`
	// Sound rings the outer terminal's bell (default off).
	Sound *bool `toml:"sound"`
	// SuppressFocused keeps quiet about the pane in front of the person.
	SuppressFocused *bool `toml:"suppress_focused"`
	// SoundMode is audio (default), bell or both: what sound = true plays.
	SoundMode string `toml:"sound_mode"`
	// SoundCooldownSeconds spaces the audio cues (default 3).
	SoundCooldownSeconds *float64 `toml:"sound_cooldown_seconds"`
	// SettleSeconds drops an alert whose state changes within it
	// (default 2).
	SettleSeconds *float64 `toml:"settle_seconds"`
	// QuietHours is "HH:MM-HH:MM" of local time with no alert.
	QuietHours string `toml:"quiet_hours"`
	// Command is a shell command run on each alert (alerts.go).
	Command string `toml:"command"`
	// States are the states that alert (alerts.go for the defaults).
	States AlertStates `toml:"states"`
	// Sounds are the person's own cue files, by state.
	Sounds AlertSounds `toml:"sounds"`
}

// UI is the [ui] table: how the attach client draws.
type UI struct {
	// Rail is the session rail: "on" (the default, on the left), "off"
	// (hidden until the client's toggle-rail key shows it), or the side
	// it is shown on, "left" or "right".
	Rail string `toml:"rail"`
	// ASCIIOnly draws ASCII instead of glyphs and box rules, for a
	// terminal or font without them (as attach --ascii-only).
	ASCIIOnly bool `toml:"ascii_only"`
}

// Alerts is [notifications.agent] with its defaults applied.
type Alerts struct {
	// Enabled false raises no alert at all, whatever the other switches.
	Enabled, Notify, Dock, Sound, SuppressFocused bool
	// SoundMode is "audio", "bell" or "both".
	SoundMode string
	// Cooldown is the least time between two audio cues.
	Cooldown time.Duration
	// Settle is how long a state must hold before it alerts.
	Settle time.Duration
	// Quiet is the part of the day with no alert.
	Quiet QuietHours
	// Command is run by sh -c on each alert; "" runs nothing.
	Command string
	// States says which states alert: state name -> on.
	States map[string]bool
	// Sounds are cue files by state name; a state without one plays
	// the built-in cue.
	Sounds map[string]string
}

// Path is the config file's path: $XDG_CONFIG_HOME/tuios/config.toml when
// XDG_CONFIG_HOME is absolute, else ~/.config/tuios/config.toml; "" when
// neither can be known. getenv is os.Getenv in a program.
func Path(getenv func(string) string) string {
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "tuios", "config.toml")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "tuios", "config.toml")
}

// Error is a config file that cannot be read or parsed.
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string { return "config " + e.Path + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Code is the stable error code: invalid_params.
func (e *Error) Code() string { return "invalid_params" }

// Hint says what to do next.
func (e *Error) Hint() string {
	return "fix the file (or move it aside) and run the command again"
}

// Load reads path. A path that does not exist is every default and no
// error; anything else that goes wrong is an *Error.
func Load(path string) (*File, error) {
	f := &File{}
	if path == "" {
		return f, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return f, &Error{Path: path, Err: err}
	}
	f, err = Parse(data)
	if err != nil {
		return &File{}, &Error{Path: path, Err: err}
	}
	f.Path = path
	return f, nil
}

// Parse reads a config file's bytes.
func Parse(data []byte) (*File, error) {
	f := &File{}
	md, err := toml.Decode(string(data), f)
	if err != nil {
		return nil, hideNotifyValue(err)
	}
	f.keys = map[string]map[string]string{}
	for table, prim := range f.Keybindings {
		var v any
		if err := md.PrimitiveDecode(prim, &v); err != nil {
			return nil, fmt.Errorf("keybindings.%s: %v", table, err)
		}
		switch v := v.(type) {
		case string: // [keybindings] prefix = "ctrl+a"
			addKey(f.keys, "", table, v)
		case map[string]any: // [keybindings.inbox] dismiss = "x"
			for action, k := range v {
				s, ok := k.(string)
				if !ok {
					return nil, fmt.Errorf("keybindings.%s.%s: a key is a string such as \"ctrl+a\"", table, action)
				}
				addKey(f.keys, table, action, s)
			}
		default:
			return nil, fmt.Errorf("keybindings.%s: a key is a string such as \"ctrl+a\"", table)
		}
	}
	switch f.UI.Rail {
	case "", "on", "off", "left", "right":
	default:
		return nil, fmt.Errorf("ui.rail: %q is not one of \"on\", \"off\", \"left\" or \"right\"", f.UI.Rail)
	}
	if err := checkAlerts(&f.Notify.Agent); err != nil {
		return nil, err
	}
	f.decodePush(md)
	for _, k := range md.Undecoded() {
		if s := k.String(); !strings.HasPrefix(s, "keybindings.") && !(f.pushErr != "" && strings.HasPrefix(s, "notify.")) {
			f.unknown = append(f.unknown, s)
		}
	}
	sort.Strings(f.unknown)
	return f, nil
}

func addKey(m map[string]map[string]string, table, action, key string) {
	if m[table] == nil {
		m[table] = map[string]string{}
	}
	m[table][action] = key
}

// Unknown lists the keys this build does not read (typos, or settings of
// a newer tuios), as dotted paths.
func (f *File) Unknown() []string { return f.unknown }

// Bindings are the key bindings of one table: "" is [keybindings] itself
// (prefix and the prefix-table actions), "inbox" is [keybindings.inbox],
// and so on for each [keybindings.NAME]. The map is the caller's to keep.
// The client knows which tables and actions exist (BindingTables lists
// the ones the file has, so it can refuse a misspelt one).
func (f *File) Bindings(table string) map[string]string {
	out := map[string]string{}
	for a, k := range f.keys[table] {
		out[a] = k
	}
	return out
}

// BindingTables are the key tables the file has, sorted: "" for
// [keybindings] itself when it binds anything, then each
// [keybindings.NAME]'s NAME.
func (f *File) BindingTables() []string {
	out := make([]string, 0, len(f.keys))
	for t := range f.keys {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// AgentsEnabled is [agents] enabled, default true.
func (f *File) AgentsEnabled() bool { return f.Agents.Enabled == nil || *f.Agents.Enabled }

// HerdrMode is [agents] herdr_protocol: "always" (every pane gets herdr's
// variables; the default the agents page names), "agents" (only panes
// that start a known herdr reporter) or "off" (no variables, no herdr
// socket). A value it does not know is the default.
func (f *File) HerdrMode() string {
	switch v := strings.ToLower(strings.TrimSpace(f.Agents.HerdrProtocol)); v {
	case "agents", "off":
		return v
	}
	return "always"
}

// Alerts is [notifications.agent]: every switch on when unset, but
// sound, which rings the bell only when asked for.
func (f *File) Alerts() Alerts {
	a := f.Notify.Agent
	al := Alerts{
		Enabled: On(a.Enabled), Notify: On(a.Notify), Dock: On(a.Dock),
		Sound: a.Sound != nil && *a.Sound, SuppressFocused: On(a.SuppressFocused),
		SoundMode: soundMode(a.SoundMode), Cooldown: seconds(a.SoundCooldownSeconds, 3),
		Settle: seconds(a.SettleSeconds, 2), Command: strings.TrimSpace(a.Command),
		States: a.States.on(), Sounds: a.Sounds.byState(),
	}
	al.Quiet, _ = ParseQuietHours(a.QuietHours) // Parse refused a bad one
	return al
}

// RailRight is [ui] rail = "right".
func (f *File) RailRight() bool { return f.UI.Rail == "right" }

// RailShown is [ui] rail other than "off": the client starts with the
// rail shown.
func (f *File) RailShown() bool { return f.UI.Rail != "off" }

// ResumeMode is [daemon] resume_agents: auto or off as written, ask for
// anything else (the default, and an unknown value).
func (f *File) ResumeMode() string {
	if m := f.Daemon.ResumeAgents; m == "auto" || m == "off" {
		return m
	}
	return "ask"
}

// RestoreSessions is [daemon] restore, default true.
func (f *File) RestoreSessions() bool { return f.Daemon.Restore == nil || *f.Daemon.Restore }

// RiskConfig is the risk rules' configuration for review.NewChecker.
func (f *File) RiskConfig() review.RiskConfig {
	return review.RiskConfig{Builtin: f.Agents.Approvals.Risk.Builtin, Rules: f.Agents.Approvals.Risk.Rule}
}

// On reads a switch that defaults to on.
func On(b *bool) bool { return b == nil || *b }
