package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIntegrationCommands(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	home := filepath.Join(e.dir, "home")

	var st struct {
		Harnesses []struct {
			Harness, State, Detail, File, Program string
			Reports                               string
		} `json:"harnesses"`
	}
	e.jsonTail(&st, "integration", "status")
	states := map[string]string{}
	for _, h := range st.Harnesses {
		states[h.Harness] = h.State
	}
	for id, want := range map[string]string{"claude-code": "not installed", "codex": "not installed", "opencode": "not installed",
		"aider": "no integration", "cursor-agent": "not installed", "kimi": "not installed", "antigravity": "no integration", "droid": "not installed"} {
		if states[id] != want {
			t.Fatalf("%s: %q, want %q (%+v)", id, states[id], want, st)
		}
	}
	if len(st.Harnesses) != 24 {
		t.Fatalf("%d harnesses in status, want every shipped manifest's 24", len(st.Harnesses))
	}

	// A harness that never ran is refused with the reason.
	r := e.run("integration", "install", "claude-code")
	if r.code != 1 || !strings.Contains(r.err, "no_config_dir") || !strings.Contains(r.err, "run the harness once first") {
		t.Fatalf("no config dir: %+v", r)
	}
	r = e.run("integration", "install", "nope")
	if r.code != 1 || !strings.Contains(r.err, "unknown_harness") {
		t.Fatalf("unknown harness: %+v", r)
	}
	r = e.run("integration", "install", "aider")
	if r.code != 1 || !strings.Contains(r.err, "no_integration") {
		t.Fatalf("no integration: %+v", r)
	}

	// --all installs what has run here, and only that.
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	os.MkdirAll(filepath.Join(home, ".config", "opencode"), 0o755)
	out := e.ok("integration", "install", "--all")
	if !strings.Contains(out, "Claude Code: installed") || !strings.Contains(out, "opencode: installed") || strings.Contains(out, "Codex") {
		t.Fatalf("--all:\n%s", out)
	}
	plugin, err := os.ReadFile(filepath.Join(home, ".config", "opencode", "plugins", "tuios.js"))
	if err != nil || !strings.HasPrefix(string(plugin), "// tuios-integration: opencode v3") || !strings.Contains(string(plugin), e.bin) {
		t.Fatalf("plugin: %v\n%s", err, plugin)
	}
	if out := e.ok("integration", "install", "claude-code"); !strings.Contains(out, "already installed and current") {
		t.Fatalf("a second install:\n%s", out)
	}
	e.jsonTail(&st, "integration", "status", "claude-code")
	if len(st.Harnesses) != 1 || st.Harnesses[0].State != "installed" || st.Harnesses[0].Program != e.bin {
		t.Fatalf("status: %+v", st)
	}

	// A plugin path holding someone else's file is never touched.
	os.Remove(filepath.Join(home, ".config", "opencode", "plugins", "tuios.js"))
	os.WriteFile(filepath.Join(home, ".config", "opencode", "plugins", "tuios.js"), []byte("// mine\n"), 0o644)
	if r := e.run("integration", "uninstall", "opencode"); r.code != 1 || !strings.Contains(r.err, "not_ours") {
		t.Fatalf("uninstall of a foreign file: %+v", r)
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".config", "opencode", "plugins", "tuios.js")); string(b) != "// mine\n" {
		t.Fatal("a foreign plugin file was changed")
	}

	// doctor agents: an agent pane whose harness has no integration.
	e.ok("integration", "uninstall", "claude-code")
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "agent", "--no-focus", "--", e.bin, "pretend-agent", "-steps", "200", "-step", "250ms")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "working,needs_input", "--timeout", "15000")
	doc := e.ok("doctor", "agents")
	for _, want := range []string{"claude-code", "not installed", "runs claude-code: not installed; tuios integration install claude-code", "Double reporting: none.", "User manifests: none"} {
		if !strings.Contains(doc, want) {
			t.Fatalf("doctor agents lacks %q:\n%s", want, doc)
		}
	}
	// A failing user manifest and the old shim beside an install.
	mdir := filepath.Join(home, ".config", "tuios", "harnesses")
	os.MkdirAll(mdir, 0o755)
	os.WriteFile(filepath.Join(mdir, "broken.toml"), []byte("schema_version = 1\nid = \n"), 0o644)
	e.ok("integration", "install", "claude-code")
	settings := filepath.Join(home, ".claude", "settings.json")
	b, _ := os.ReadFile(settings)
	shim := strings.Replace(string(b), `"hooks": {`, `"hooks": {"Notification": [{"hooks": [{"type": "command", "command": "~/src/tuios/integrations/claude-code/hook.sh"}]}],`, 1)
	os.WriteFile(settings, []byte(shim), 0o644)
	doc = e.ok("doctor", "agents")
	for _, want := range []string{"User manifest failing:", "broken.toml", "Double reporting: " + settings} {
		if !strings.Contains(doc, want) {
			t.Fatalf("doctor agents lacks %q:\n%s", want, doc)
		}
	}
}

// jsonTail runs a sub-verb with --json at the end and decodes its output.
func (e *env) jsonTail(v any, args ...string) {
	e.t.Helper()
	out := e.ok(append(args, "--json")...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		e.t.Fatalf("tuios %v: bad JSON %v:\n%s", args, err, out)
	}
}
