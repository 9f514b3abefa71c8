package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.toml")
	os.WriteFile(p, []byte("[keybindings]\nprefix = \"ctrl+a\"\ndetach = \"q\"\n[keybindings.inbox]\ndismiss = \"x\"\n[alerts]\nbell = false\n[agents]\nenabled = false\n[daemon]\nrestore = true\n"), 0o600)
	cfg, err := LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	var opt Options
	cfg.Apply(&opt)
	if opt.Prefix != "ctrl+a" || opt.Bindings[ActDetach] != "q" || opt.Bindings[InDismiss] != "x" || opt.Bell || !opt.Notify || !opt.AgentsOff {
		t.Errorf("options %+v", opt)
	}
	os.WriteFile(p, []byte("[alerts]\nbell = true\nnotify = nope\n"), 0o600)
	if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), p+":3") {
		t.Errorf("bad file: %v", err)
	}
	if cfg, err := LoadConfig(filepath.Join(dir, "none.toml")); err != nil || !cfg.Bell || cfg.Prefix != DefaultPrefix {
		t.Errorf("missing file: %+v %v", cfg, err)
	}
	if got := ConfigPath(func(k string) string { return map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}[k] }); got != "/x/tuios/config.toml" {
		t.Error(got)
	}
}
