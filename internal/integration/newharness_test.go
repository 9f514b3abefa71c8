package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"
)

// Cursor Agent's ~/.cursor/hooks.json: flat entries, "version": 1 kept
// or added, the person's own hooks untouched, the first original backed
// up, and uninstall giving the file back byte for byte.
func TestCursorAgentHooksFile(t *testing.T) {
	h := harness(t, "cursor-agent")
	f := newHome(t)
	orig := "{\n  // mine\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [{ \"command\": \"./format.sh\" }]\n  }\n}\n"
	path := f.settings(h, orig, 0o600)
	if path != filepath.Join(f.dir, ".cursor", "hooks.json") {
		t.Fatalf("file %s", path)
	}
	res := mustInstall(t, h, Options{Env: f.env, Program: prog})
	if !res.Changed || res.Backup != path+BackupSuffix || readText(t, res.Backup) != orig {
		t.Fatalf("install: %+v", res)
	}
	var v struct {
		Version int                          `json:"version"`
		Hooks   map[string][]json.RawMessage `json:"hooks"`
	}
	text := readText(t, path)
	if err := json.Unmarshal([]byte(stripLineComments(text)), &v); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if v.Version != 1 || len(v.Hooks) != len(h.hooks.events)+1 || string(v.Hooks["afterFileEdit"][0]) != `{ "command": "./format.sh" }` {
		t.Fatalf("hooks.json after install:\n%s", text)
	}
	for _, e := range h.hooks.events {
		var entry map[string]any
		if len(v.Hooks[e]) != 1 || json.Unmarshal(v.Hooks[e][0], &entry) != nil || entry["command"] != h.HookCommand(prog) || len(entry) != 1 {
			t.Fatalf("%s: %s", e, v.Hooks[e])
		}
	}
	st := StatusOf(h, f.env)
	if st.State != StateInstalled || st.Reports != ReportsState || !strings.Contains(st.Untested, "cursor.com/docs/agent/hooks") ||
		!strings.Contains(st.Detail, "not run where this tuios was built") || !strings.Contains(st.Detail, "its hooks run "+prog) {
		t.Fatalf("status: %+v", st)
	}
	mustUninstall(t, h, f.env)
	if got := readText(t, path); got != orig {
		t.Fatalf("uninstall:\n%q\nwant\n%q", got, orig)
	}

	// A hooks.json tuios creates starts with "version": 1 and goes away
	// with the uninstall.
	g := newHome(t)
	path = g.settings(h, "", 0)
	mustInstall(t, h, Options{Env: g.env, Program: prog})
	if text := readText(t, path); !strings.HasPrefix(text, "{\n  \"version\": 1,") {
		t.Fatalf("created:\n%s", text)
	}
	if res := mustUninstall(t, h, g.env); !strings.Contains(res.Note, "tuios had created it") {
		t.Fatalf("uninstall of a created file: %+v", res)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("%s is still there", path)
	}
}

// Crush's crush.json is JSONC with the person's providers in it: only the
// PreToolUse entry is added, flat, with its timeout, and taken out again.
func TestCrushHooksFile(t *testing.T) {
	h := harness(t, "crush")
	f := newHome(t)
	f.vars["XDG_CONFIG_HOME"] = filepath.Join(f.dir, "xdg")
	orig := "{\n  \"$schema\": \"https://charm.land/crush.json\",\n  // my models\n  \"models\": { \"large\": { \"model\": \"claude-sonnet-4\", \"provider\": \"anthropic\" } },\n  \"hooks\": {\n    \"PreToolUse\": [\n      { \"matcher\": \"^bash$\", \"command\": \"./no-haskell.sh\" },\n    ],\n  },\n}\n"
	path := f.settings(h, orig, 0o644)
	if path != filepath.Join(f.dir, "xdg", "crush", "crush.json") {
		t.Fatalf("file %s", path)
	}
	mustInstall(t, h, Options{Env: f.env, Program: prog})
	text := readText(t, path)
	want := `{"command":"` + h.HookCommand(prog) + `","timeout":10}`
	if !strings.Contains(strings.Join(strings.Fields(text), ""), strings.ReplaceAll(want, " ", "")) || !strings.Contains(text, "./no-haskell.sh") ||
		!strings.Contains(text, "// my models") || strings.Contains(text, "\"version\"") {
		t.Fatalf("crush.json after install:\n%s", text)
	}
	if st := StatusOf(h, f.env); st.State != StateInstalled || st.Reports != ReportsSession || st.Untested == "" {
		t.Fatalf("status: %+v", st)
	}
	mustUninstall(t, h, f.env)
	if got := readText(t, path); got != orig {
		t.Fatalf("uninstall:\n%s", got)
	}
}

// Grok: a hooks file of tuios's own in ~/.grok/hooks, made with the
// directory when Grok has run but never had a hook; it goes with the
// uninstall.
func TestGrokHooksFile(t *testing.T) {
	h := harness(t, "grok")
	f := newHome(t)
	f.settings(h, "", 0) // ~/.grok exists, hooks/ does not
	path := filepath.Join(f.dir, ".grok", "hooks", "tuios.json")
	if h.File(f.env) != path {
		t.Fatalf("file %s", h.File(f.env))
	}
	mustInstall(t, h, Options{Env: f.env, Program: prog})
	var v struct {
		Hooks map[string][]struct {
			Hooks []map[string]any `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(readText(t, path)), &v); err != nil || len(v.Hooks) != 1 ||
		v.Hooks["SessionStart"][0].Hooks[0]["command"] != h.HookCommand(prog) || v.Hooks["SessionStart"][0].Hooks[0]["timeout"] != float64(5) {
		t.Fatalf("tuios.json: %v\n%s", err, readText(t, path))
	}
	if st := StatusOf(h, f.env); st.State != StateInstalled || st.Reports != ReportsSession {
		t.Fatalf("status: %+v", st)
	}
	mustUninstall(t, h, f.env)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("%s is still there", path)
	}
	// GROK_HOME moves it.
	f.vars["GROK_HOME"] = filepath.Join(f.dir, "gh")
	if got := h.File(f.env); got != filepath.Join(f.dir, "gh", "hooks", "tuios.json") {
		t.Fatalf("with GROK_HOME: %s", got)
	}
}

// Kimi Code's config.toml: tuios's [[hooks]] tables are appended, the
// rest of the file stays byte for byte, an older install reads out of
// date, a file that is not TOML is refused, and uninstall gives the file
// back.
func TestKimiConfigTOML(t *testing.T) {
	h := harness(t, "kimi")
	f := newHome(t)
	orig := "# ~/.kimi-code/config.toml\ndefault_model = \"kimi-for-coding\"\n\n[[hooks]]\nevent = \"Stop\"\ncommand = \"notify-send 'kimi is done'\"\n\n[loop_control]\nmax_steps_per_turn = 100\n"
	path := f.settings(h, orig, 0o600)
	if path != filepath.Join(f.dir, ".kimi-code", "config.toml") {
		t.Fatalf("file %s", path)
	}
	res := mustInstall(t, h, Options{Env: f.env, Program: prog})
	if !res.Changed || res.Backup == "" || readText(t, res.Backup) != orig || res.Program != prog {
		t.Fatalf("install: %+v", res)
	}
	text := readText(t, path)
	if !strings.HasPrefix(text, orig+"\n[[hooks]]\nevent = \"SessionStart\"\ncommand = \""+h.HookCommand(prog)+"\"\ntimeout = 10\n") {
		t.Fatalf("config.toml after install:\n%s", text)
	}
	var cfg struct {
		Hooks []struct{ Event, Command string } `toml:"hooks"`
	}
	if err := decodeTOML(text, &cfg); err != nil || len(cfg.Hooks) != 1+len(h.toml.events) || cfg.Hooks[0].Command != "notify-send 'kimi is done'" {
		t.Fatalf("as TOML: %v %+v", err, cfg)
	}
	if again := mustInstall(t, h, Options{Env: f.env, Program: prog}); again.Changed {
		t.Fatal("a second install changed the file")
	}
	st := StatusOf(h, f.env)
	if st.State != StateInstalled || st.Program != prog || !strings.Contains(st.Untested, "Kimi Code 2.1.0") {
		t.Fatalf("status: %+v", st)
	}
	// An older tuios's tables read out of date; install updates them.
	writeFile(t, path, strings.ReplaceAll(text, "--integration 1", "--integration 0"), 0o600)
	if st := StatusOf(h, f.env); st.State != StateOutOfDate {
		t.Fatalf("older: %+v", st)
	}
	mustInstall(t, h, Options{Env: f.env})
	if got := readText(t, path); got != text {
		t.Fatalf("update:\n%s", got)
	}
	mustUninstall(t, h, f.env)
	if got := readText(t, path); got != orig {
		t.Fatalf("uninstall:\n%q\nwant\n%q", got, orig)
	}
	// Not TOML: refused, nothing written.
	bad := "default_model = \n"
	writeFile(t, path, bad, 0o600)
	if _, err := Install(h, Options{Env: f.env, Program: prog}); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("a file that is not TOML: %v", err)
	}
	if readText(t, path) != bad {
		t.Fatal("a file that is not TOML was written")
	}
	if st := StatusOf(h, f.env); st.State != StateCannotRead {
		t.Fatalf("status of a file that is not TOML: %+v", st)
	}
	// KIMI_CODE_HOME moves the directory.
	f.vars["KIMI_CODE_HOME"] = filepath.Join(f.dir, "k")
	if got := h.File(f.env); got != filepath.Join(f.dir, "k", "config.toml") {
		t.Fatalf("with KIMI_CODE_HOME: %s", got)
	}
}

// The harnesses tuios has no integration for say why, and install
// refuses them.
func TestHarnessesWithoutAnIntegrationSayWhy(t *testing.T) {
	for id, why := range map[string]string{"antigravity": "names both the file's layout and a conversation id", "devin": "DEVIN_PROJECT_DIR"} {
		h := harness(t, id)
		st := StatusOf(h, newHome(t).env)
		if st.State != StateNoIntegration || !strings.Contains(st.Detail, why) {
			t.Errorf("%s: %+v", id, st)
		}
		if _, err := Install(h, Options{Env: newHome(t).env, Program: prog}); err == nil {
			t.Errorf("%s: install did not refuse", id)
		}
	}
}

func stripLineComments(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func decodeTOML(text string, v any) error {
	_, err := toml.Decode(text, v)
	return err
}

// hermesConfig is a config.yaml as a person keeps it: comments, other
// settings, a shell hook of their own and outbound webhooks under hooks:.
const hermesConfig = `# ~/.hermes/config.yaml
model:
  default: anthropic/claude-sonnet-4.6 # the one I pay for
  provider: openrouter

# my own hooks
hooks:
  pre_tool_call:
    - matcher: "terminal"
      command: "~/.hermes/agent-hooks/block-rm-rf.sh"
      timeout: 5
  outbound:
    - url: https://ci.example.com/hermes
hooks_auto_accept: false
`

// Hermes's config.yaml: tuios's entries go into the hooks: block, every
// comment, setting and hook of the person's stays, a second install
// changes nothing, an older install reads out of date, a file that is
// not YAML (or whose hooks: is not a mapping) is refused, and uninstall
// gives the file back.
func TestHermesConfigYAML(t *testing.T) {
	h := harness(t, "hermes")
	f := newHome(t)
	path := f.settings(h, hermesConfig, 0o600)
	if path != filepath.Join(f.dir, ".hermes", "config.yaml") {
		t.Fatalf("file %s", path)
	}
	res := mustInstall(t, h, Options{Env: f.env, Program: prog})
	if !res.Changed || res.Backup == "" || readText(t, res.Backup) != hermesConfig || res.Program != prog {
		t.Fatalf("install: %+v", res)
	}
	text := readText(t, path)
	for _, keep := range []string{"# ~/.hermes/config.yaml", "# the one I pay for", "# my own hooks", "hooks_auto_accept: false", "https://ci.example.com/hermes"} {
		if !strings.Contains(text, keep) {
			t.Fatalf("install lost %q:\n%s", keep, text)
		}
	}
	var cfg struct {
		Model struct{ Default, Provider string }
		Hooks map[string][]struct {
			Matcher, Command, URL string
			Timeout               int
		}
	}
	if err := yaml.Unmarshal([]byte(text), &cfg); err != nil || cfg.Model.Default != "anthropic/claude-sonnet-4.6" || len(cfg.Hooks) != 4 ||
		cfg.Hooks["pre_tool_call"][0].Command != "~/.hermes/agent-hooks/block-rm-rf.sh" || cfg.Hooks["outbound"][0].URL == "" {
		t.Fatalf("as YAML: %v %+v\n%s", err, cfg, text)
	}
	for _, e := range []string{"on_session_start", "pre_llm_call"} {
		if got := cfg.Hooks[e]; len(got) != 1 || got[0].Command != h.HookCommand(prog) || got[0].Timeout != 10 || got[0].Matcher != "" {
			t.Fatalf("%s: %+v\n%s", e, got, text)
		}
	}
	if again := mustInstall(t, h, Options{Env: f.env, Program: prog}); again.Changed {
		t.Fatal("a second install changed the file")
	}
	st := StatusOf(h, f.env)
	if st.State != StateInstalled || st.Reports != ReportsSession || st.Program != prog ||
		!strings.Contains(st.Untested, "hermes-agent.nousresearch.com") || !strings.Contains(st.Detail, "not run where this tuios was built") {
		t.Fatalf("status: %+v", st)
	}
	// An older tuios's entries read out of date; install updates them.
	writeFile(t, path, strings.ReplaceAll(text, "--integration 1", "--integration 0"), 0o600)
	if st := StatusOf(h, f.env); st.State != StateOutOfDate {
		t.Fatalf("older: %+v", st)
	}
	mustInstall(t, h, Options{Env: f.env})
	if got := readText(t, path); got != text {
		t.Fatalf("update:\n%s\nwant\n%s", got, text)
	}
	mustUninstall(t, h, f.env)
	if got := readText(t, path); got != hermesConfig {
		t.Fatalf("uninstall:\n%s\nwant\n%s", got, hermesConfig)
	}
	// Not YAML, or a hooks: that is not a mapping: refused, nothing written.
	for _, bad := range []string{"model: [unclosed\n", "hooks: run-everything\n", "hooks:\n  on_session_start: ./mine.sh\n"} {
		writeFile(t, path, bad, 0o600)
		if _, err := Install(h, Options{Env: f.env, Program: prog}); err == nil || !strings.Contains(err.Error(), path) {
			t.Fatalf("%q: %v", bad, err)
		}
		if readText(t, path) != bad {
			t.Fatalf("%q was written", bad)
		}
	}
	if st := StatusOf(h, f.env); st.State != StateNotInstalled {
		t.Fatalf("status of a file whose event is not a list: %+v", st)
	}
	// A config.yaml tuios creates goes with the uninstall.
	g := newHome(t)
	path = g.settings(h, "", 0)
	mustInstall(t, h, Options{Env: g.env, Program: prog})
	mustUninstall(t, h, g.env)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("%s is still there", path)
	}
	// HERMES_HOME moves it.
	f.vars["HERMES_HOME"] = filepath.Join(f.dir, "hh")
	if got := h.File(f.env); got != filepath.Join(f.dir, "hh", "config.yaml") {
		t.Fatalf("with HERMES_HOME: %s", got)
	}
}
