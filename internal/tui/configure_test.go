package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

func load(t *testing.T, text string) *config.File {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestConfigure(t *testing.T) {
	t.Parallel()
	f := load(t, "[keybindings]\nprefix = \"ctrl+a\"\ndetach = \"q\"\n[keybindings.inbox]\ndismiss = \"x\"\n"+
		"[notifications.agent]\nsound = true\ndock = false\nsuppress_focused = false\n[agents]\nenabled = false\n[ui]\nrail = \"right\"\nascii_only = true\n")
	opt := Options{Bindings: map[string]string{ActNext: "N", ActDetach: "D"}}
	if err := opt.Configure(f); err != nil {
		t.Fatal(err)
	}
	if opt.Prefix != "ctrl+a" || opt.Bindings[ActDetach] != "D" || opt.Bindings[ActNext] != "N" || opt.Bindings[InDismiss] != "x" {
		t.Errorf("keys: %q %v", opt.Prefix, opt.Bindings)
	}
	if !opt.Bell || !opt.Notify || !opt.DockOff || !opt.AlertFocused || !opt.AgentsOff || !opt.RailRight || !opt.ASCIIOnly {
		t.Errorf("options %+v", opt)
	}

	// The defaults: a notification and the dock, no bell.
	opt = Options{}
	if err := opt.Configure(&config.File{}); err != nil {
		t.Fatal(err)
	}
	if opt.Prefix != "" || opt.Bell || !opt.Notify || opt.DockOff || opt.AlertFocused || opt.AgentsOff || opt.RailRight {
		t.Errorf("defaults %+v", opt)
	}

	// enabled = false silences every alert.
	opt = Options{}
	opt.Configure(load(t, "[notifications.agent]\nenabled = false\nsound = true\n"))
	if opt.Bell || opt.Notify || !opt.DockOff {
		t.Errorf("alerts off: %+v", opt)
	}

	f = load(t, "[keybindings.inbox]\nfly = \"f\"\n")
	if err := (&Options{}).Configure(f); err == nil || !strings.Contains(err.Error(), f.Path) || !strings.Contains(err.Error(), `"fly"`) {
		t.Errorf("an unknown action: %v", err)
	}
}

func TestAlertOptions(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{Bell: true, DockOff: true, AlertFocused: true})
	l := m.layout
	l.Agents = []proto.AttachAgent{{Session: "work", Window: "w1", Name: "sh", State: "done"}}
	if _, cmd := m.Update(l); cmd == nil {
		t.Error("no alert for the focused pane with AlertFocused")
	}
	if strings.Contains(plain(m)[19], "sh in work is done") {
		t.Errorf("the dock shows an alert with DockOff: %q", plain(m)[19])
	}
}
