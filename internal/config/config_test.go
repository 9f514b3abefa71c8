package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestAMissingFileIsEveryDefault(t *testing.T) {
	f, err := Load(filepath.Join(t.TempDir(), "none.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !f.AgentsEnabled() || !f.RestoreSessions() || f.Daemon.RespondFromShell || f.Path != "" {
		t.Fatalf("defaults: %+v", f)
	}
}

func TestTheFileIsRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(path, []byte(`
[daemon]
respond_from_shell = true
agent_detect_seconds = 5
[agents]
enabled = false
[agents.approvals.risk]
builtin = false
[[agents.approvals.risk.rule]]
name = "terraform destroy"
pattern = '^terraform destroy'
[notifications.agent]
sound = true
[keybindings]
prefix = "ctrl+a"
[keybindings.inbox]
dismiss = "x"
[colours]
red = 1
`), 0o600)
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Daemon.RespondFromShell || *f.Daemon.AgentDetectSeconds != 5 || f.AgentsEnabled() || f.Path != path {
		t.Fatalf("read: %+v", f)
	}
	if rc := f.RiskConfig(); rc.Builtin == nil || *rc.Builtin || len(rc.Rules) != 1 || rc.Rules[0].Name != "terraform destroy" {
		t.Fatalf("risk: %+v", rc)
	}
	if !On(f.Notify.Agent.Sound) || !On(f.Notify.Agent.Dock) {
		t.Fatal("notifications")
	}
	if got := f.Bindings(""); got["prefix"] != "ctrl+a" {
		t.Fatalf("bindings: %v", got)
	}
	if got := f.Bindings("inbox"); !reflect.DeepEqual(got, map[string]string{"dismiss": "x"}) {
		t.Fatalf("inbox bindings: %v", got)
	}
	if got := f.Unknown(); !reflect.DeepEqual(got, []string{"colours", "colours.red"}) {
		t.Fatalf("unknown: %v", got)
	}
}

func TestABrokenFileNamesItselfAndTheLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(path, []byte("[daemon]\nrespond_from_shell = yes\n"), 0o600)
	f, err := Load(path)
	var ce *Error
	if !errors.As(err, &ce) || ce.Code() != "invalid_params" || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("err = %v", err)
	}
	if f == nil || f.Daemon.RespondFromShell {
		t.Fatal("a broken file must give every default, never a half-read one")
	}
	os.WriteFile(path, []byte("[keybindings]\nprefix = 3\n"), 0o600)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "keybindings.prefix") {
		t.Fatalf("a key that is not a string: %v", err)
	}
}

func TestPath(t *testing.T) {
	env := map[string]string{"HOME": "/home/u"}
	get := func(k string) string { return env[k] }
	if p := Path(get); p != "/home/u/.config/tuios/config.toml" {
		t.Fatal(p)
	}
	env["XDG_CONFIG_HOME"] = "relative"
	if p := Path(get); p != "/home/u/.config/tuios/config.toml" {
		t.Fatal("a relative XDG_CONFIG_HOME is ignored, as the spec says:", p)
	}
	env["XDG_CONFIG_HOME"] = "/x"
	if p := Path(get); p != "/x/tuios/config.toml" {
		t.Fatal(p)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("[daemon]\nrespond_from_shell = true\n[keybindings.inbox]\nd = \"x\"\n"))
	f.Add([]byte("[keybindings]\nprefix = [1]\n"))
	f.Add([]byte("[notify]\nquiet_active_seconds = -1\n[notify.ntfy]\nurl = \"https://ntfy.sh/x\"\npriority = 9\n[notify.pushover]\nuser_env = \"U\"\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if f, err := Parse(b); err == nil {
			f.Bindings("")
			f.RiskConfig()
			f.PushSettings()
		}
	})
}

func TestHoldAndQueueBounds(t *testing.T) {
	for _, c := range []struct {
		file  string
		hold  time.Duration
		queue int
	}{
		{"", 120 * time.Second, 8},
		{"[agents.approvals]\nhold_seconds = 5\n[agents.queue]\nmax = 100\n", 10 * time.Second, 64},
		{"[agents.approvals]\nhold_seconds = 900\n[agents.queue]\nmax = 3\n", 300 * time.Second, 3},
	} {
		f, err := Parse([]byte(c.file))
		if err != nil {
			t.Fatal(err)
		}
		if f.HoldFor() != c.hold || f.QueueMax() != c.queue {
			t.Errorf("%q: hold %v queue %d", c.file, f.HoldFor(), f.QueueMax())
		}
	}
}

func TestTheClientTables(t *testing.T) {
	f, err := Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := switches{Enabled: true, Notify: true, Dock: true, Sound: false, SuppressFocused: true}
	if got := switchesOf(f.Alerts()); got != want || f.RailRight() || f.UI.ASCIIOnly {
		t.Fatalf("defaults: %+v rail right %v ascii %v", got, f.RailRight(), f.UI.ASCIIOnly)
	}
	f, err = Parse([]byte("[ui]\nrail = \"right\"\nascii_only = true\n[notifications.agent]\nsound = true\ndock = false\nenabled = false\n"))
	if err != nil {
		t.Fatal(err)
	}
	want = switches{Enabled: false, Notify: true, Dock: false, Sound: true, SuppressFocused: true}
	if got := switchesOf(f.Alerts()); got != want || !f.RailRight() || !f.UI.ASCIIOnly || len(f.Unknown()) != 0 {
		t.Fatalf("read: %+v rail right %v ascii %v unknown %v", got, f.RailRight(), f.UI.ASCIIOnly, f.Unknown())
	}
	if _, err := Parse([]byte("[ui]\nrail = \"top\"\n")); err == nil || !strings.Contains(err.Error(), "ui.rail") {
		t.Fatalf("a rail on neither side: %v", err)
	}
	// rail is on (the default), off, or the side it is on.
	for text, shown := range map[string]bool{"": true, "rail = \"on\"": true, "rail = \"off\"": false, "rail = \"left\"": true, "rail = \"right\"": true} {
		f, err := Parse([]byte("[ui]\n" + text + "\n"))
		if err != nil || f.RailShown() != shown {
			t.Errorf("%q: shown %v, %v", text, f != nil && f.RailShown(), err)
		}
	}
	f, err = Parse([]byte("[keybindings]\nzoom = \"Z\"\n[keybindings.copy]\nup = \"K\"\n[keybindings.inbox]\ndismiss = \"x\"\n"))
	if err != nil || !reflect.DeepEqual(f.BindingTables(), []string{"", "copy", "inbox"}) || f.Bindings("copy")["up"] != "K" {
		t.Errorf("binding tables %v %v", f.BindingTables(), err)
	}
}
