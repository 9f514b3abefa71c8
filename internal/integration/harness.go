package integration

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Reports says what an integration makes a harness report.
type Reports string

const (
	ReportsState   Reports = "state"      // working, needs_input, done… from the hooks
	ReportsSession Reports = "session id" // only the conversation id; the state is the screen's
	ReportsNothing Reports = ""           // no integration
)

// Harness is one agent CLI and how tuios wires into it.
type Harness struct {
	ID      string
	Name    string
	Binary  string // the command a person types, looked up on PATH
	Reports Reports
	Reason  string // no integration: why
	Version int    // the integration's version; entries of another are out of date

	dirEnv  string // an environment variable that moves the config directory
	homeEnv string // an environment variable that stands for the home directory
	dir     string // the config directory under the home directory
	file    string // the settings file in it
	hooks   *jsonHooks
	toml    *tomlHooks
	yaml    *yamlHooks
	owned   *ownedFile
	// untested: the harness could not run where this version was built;
	// the integration follows its published hook documentation (named
	// here) and tuios claims no more than that (integration status,
	// doctor agents and the Agents tab say it).
	untested string
	notes    string // a line a person needs after installing (e.g. trust the hooks)
	suffix   string // shell text after the hook command (a harness that denies on a failed hook gets a fallback)

	statusLine bool // the harness has a status line command tuios can feed
}

// Env is where the harnesses' files are: the home directory and the
// environment (for variables such as CLAUDE_CONFIG_DIR).
type Env struct {
	Home   string
	Getenv func(string) string
}

// OSEnv is the running process's environment.
func OSEnv() Env {
	home, _ := os.UserHomeDir()
	return Env{Home: home, Getenv: os.Getenv}
}

func (e Env) get(k string) string {
	if e.Getenv == nil || k == "" {
		return ""
	}
	return e.Getenv(k)
}

// ConfigDir is the harness's config directory.
func (h Harness) ConfigDir(env Env) string {
	if d := env.get(h.dirEnv); d != "" {
		return d
	}
	if d := env.get(h.homeEnv); d != "" && h.dir != "" {
		return filepath.Join(d, h.dir)
	}
	if h.dir == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(h.dir, ".config/"); ok && env.get("XDG_CONFIG_HOME") != "" {
		return filepath.Join(env.get("XDG_CONFIG_HOME"), rest)
	}
	return filepath.Join(env.Home, h.dir)
}

// File is the file the integration writes.
func (h Harness) File(env Env) string {
	if h.file == "" {
		return ""
	}
	return filepath.Join(h.ConfigDir(env), h.file)
}

// HookCommand is the command line each hook entry runs.
func (h Harness) HookCommand(program string) string {
	return shellQuote(program) + " agent-hook " + h.ID + " --integration " + strconv.Itoa(h.Version) + h.suffix
}

// shellQuote quotes a program path for sh -c when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// programOf is the program an existing hook command runs.
func programOf(command string) string {
	i := strings.Index(command, " agent-hook ")
	if i < 0 {
		return ""
	}
	p := command[:i]
	if len(p) >= 2 && p[0] == '\'' && p[len(p)-1] == '\'' {
		p = strings.ReplaceAll(p[1:len(p)-1], `'\''`, "'")
	}
	return p
}

// Lookup finds a harness by id (or by a name a person would type).
func Lookup(id string) (Harness, bool) {
	for _, h := range Harnesses() {
		if h.ID == id || strings.EqualFold(h.Name, id) || h.Binary == id {
			return h, true
		}
	}
	return Harness{}, false
}

// wiredEvents are the events an install wires, nil for a harness whose
// integration is a plugin or none.
func (h Harness) wiredEvents() []string {
	switch {
	case h.hooks != nil:
		return h.hooks.events
	case h.doc() != nil:
		return h.doc().wired()
	}
	return nil
}

// docHooks edits tuios's hook entries inside a harness's own config
// document, whose other contents are the person's.
type docHooks interface {
	install(src, harness, command string) (string, error)
	uninstall(src, harness string) (string, error)
	state(src, harness string, version int) (installed, current bool, command string, err error)
	wired() []string
	// same says whether two texts are one document as this editor
	// writes it (what an uninstall may give back in place of the other).
	same(a, b string) bool
}

// doc is the harness's config-document editor, nil when its hooks live
// elsewhere (a settings JSON, a plugin file).
func (h Harness) doc() docHooks {
	switch {
	case h.toml != nil:
		return h.toml
	case h.yaml != nil:
		return h.yaml
	}
	return nil
}
