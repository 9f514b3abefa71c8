package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
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
	for id, why := range map[string]string{"antigravity": "no one place", "devin": ".devin/hooks.v1.json", "hermes": "config.yaml"} {
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
