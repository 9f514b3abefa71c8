package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const e2eConfig = `# tuios config, by hand
[notifications.agent]
sound = false   # quiet by day
dock = true

[ui]
# rail = "right"
`

// The agents page: "You can also run tuios set-config
// notifications.agent.sound true". The file keeps every other byte, the
// value reads back, and the refusals say why.
func TestSetConfigEndToEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := filepath.Join(e.dir, "home", ".config", "tuios", "config.toml")
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, []byte(e2eConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	out := e.ok("set-config", "notifications.agent.sound", "true")
	if !strings.Contains(out, "notifications.agent.sound = true (was false)") || !strings.Contains(out, "attach") {
		t.Fatalf("set-config said:\n%s", out)
	}
	b, _ := os.ReadFile(path)
	if want := strings.Replace(e2eConfig, "sound = false   #", "sound = true   #", 1); string(b) != want {
		t.Fatalf("the file:\n%s\nwant:\n%s", b, want)
	}
	if got := e.ok("get-config", "notifications.agent.sound"); got != "true\n" {
		t.Fatalf("get-config: %q", got)
	}
	e.ok("set-config", "ui.rail", "right")
	b, _ = os.ReadFile(path)
	if !strings.HasSuffix(string(b), "[ui]\nrail = \"right\"\n# rail = \"right\"\n") {
		t.Fatalf("ui.rail not under [ui]:\n%s", b)
	}

	var list struct {
		Path    string `json:"path"`
		Options []struct {
			Key   string `json:"key"`
			Value any    `json:"value"`
			Set   bool   `json:"set"`
		} `json:"options"`
	}
	e.json(&list, "list-options")
	if list.Path != path {
		t.Fatalf("path %q", list.Path)
	}
	seen := map[string]bool{}
	for _, o := range list.Options {
		seen[o.Key] = true
		if strings.HasPrefix(o.Key, "agents.") || strings.HasPrefix(o.Key, "notify.") || strings.HasPrefix(o.Key, "hosts.") {
			t.Errorf("list-options shows %s", o.Key)
		}
		if o.Key == "ui.rail" && (o.Value != "right" || !o.Set) {
			t.Errorf("ui.rail row: %+v", o)
		}
	}
	if !seen["notifications.agent.sound_mode"] || !seen["daemon.restore"] {
		t.Fatalf("list-options: %v", seen)
	}
	text := e.ok("list-options", "notifications.agent.states")
	if !strings.Contains(text, "notifications.agent.states.needs_input") || strings.Contains(text, "ui.rail") {
		t.Fatalf("list-options PREFIX:\n%s", text)
	}

	before, _ := os.ReadFile(path)
	for _, c := range []struct {
		args  []string
		words []string
	}{
		{[]string{"set-config", "daemon.respond_from_shell", "true"}, []string{"tuios: forbidden:", "never set over the socket"}},
		{[]string{"set-config", "notify.ntfy.url", "https://ntfy.sh/x"}, []string{"tuios: forbidden:", "[notify]"}},
		{[]string{"set-config", "agents.approvals.hold_seconds", "30"}, []string{"tuios: forbidden:", "[agents]"}},
		{[]string{"set-config", "notifications.agent.sond", "true"}, []string{"invalid_params", `did you mean "notifications.agent.sound"?`}},
		{[]string{"set-config", "notifications.agent.settle_seconds", "99999"}, []string{"invalid_params", "accepted: a number from 0 to 3600"}},
		{[]string{"set-config", "notifications.agent.sound_mode", "loud"}, []string{"accepted: audio, bell, both"}},
		{[]string{"set-config", "notifications.agent.sound"}, []string{"needs a key and a value"}},
		{[]string{"get-confg", "notifications.agent.sound"}, []string{`unknown verb "get-confg"`, "did you mean tuios get-config?"}},
		{[]string{"set-confg", "notifications.agent.sound", "true"}, []string{`unknown verb "set-confg"`}},
	} {
		r := e.run(c.args...)
		if r.code != 1 {
			t.Errorf("%v: exit %d, want 1\n%s", c.args, r.code, r.err)
		}
		for _, w := range c.words {
			if !strings.Contains(r.err, w) {
				t.Errorf("%v: stderr lacks %q:\n%s", c.args, w, r.err)
			}
		}
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatalf("a refused call changed the file:\n%s", after)
	}

	// From a pane: only the person turns agents off.
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "cfg", "--no-focus", "--", "sh", "-c", "tuios set-config agents.enabled false; echo rc=$?; sleep 60")
	if r := e.run("wait-for", "window-output", "-s", "work", "-w", "cfg", "--pattern", "rc=[0-9]", "--timeout", "15000"); r.code != 0 {
		t.Fatalf("no answer in the pane: %s", r.err)
	}
	pane := e.ok("capture-pane", "-s", "work", "-w", "cfg")
	if !strings.Contains(pane, "forbidden") || !strings.Contains(pane, "rc=1") {
		t.Fatalf("the pane:\n%s", pane)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatalf("a pane turned agents off:\n%s", after)
	}

	themes := e.ok("list-themes")
	if !strings.Contains(themes, "* default") || !strings.Contains(themes, "one built-in theme") {
		t.Fatalf("list-themes:\n%s", themes)
	}
	for _, v := range []string{"set-config", "get-config", "list-options", "list-themes"} {
		if h := e.ok(v, "--help"); !strings.Contains(h, "Example:\n  tuios "+v) {
			t.Errorf("%s --help has no example:\n%s", v, h)
		}
	}
}

// The agents page's table: daemon.agent_detect_seconds, default 0, "0 uses
// 2". list-options and get-config say 0 as the default and the value, and
// a running daemon that reads 0 has nothing pending.
func TestAgentDetectSecondsDefaultIsZeroAsTheAgentsPageSays(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "w") // a daemon runs: running and pending are filled
	var got struct {
		Option struct {
			Default any  `json:"default"`
			Value   any  `json:"value"`
			Running any  `json:"running"`
			Pending bool `json:"pending"`
		} `json:"option"`
	}
	e.json(&got, "get-config", "daemon.agent_detect_seconds")
	if got.Option.Default != float64(0) || got.Option.Value != float64(0) || got.Option.Running != nil && got.Option.Running != float64(0) || got.Option.Pending {
		t.Fatalf("get-config --json: %+v", got.Option)
	}
	if out := e.ok("get-config", "daemon.agent_detect_seconds"); out != "0\n" {
		t.Fatalf("get-config: %q", out)
	}
	for _, line := range strings.Split(e.ok("list-options", "daemon.agent_detect_seconds"), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "daemon.agent_detect_seconds" {
			if f[1] != "0" || f[2] != "0" {
				t.Fatalf("list-options row: %q", line)
			}
			return
		}
	}
	t.Fatal("list-options has no daemon.agent_detect_seconds row")
}
