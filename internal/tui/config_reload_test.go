package tui

import (
	"os"
	"path/filepath"
	"testing"
)

// set-config writes config.toml and the layout's config_seq moves: the
// client reads its alerts again, without a new attach. A file that does
// not parse keeps them as they were.
func TestAlertsFollowSetConfig(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "config.toml") // not there at attach
	m, _, _ := newTest(t, Options{ConfigPath: path})
	if m.opt.Bell {
		t.Fatalf("the bell is on by default")
	}
	lay := m.layout
	if err := os.WriteFile(path, []byte("[notifications.agent]\nsound = true\nsound_mode = \"bell\"\nsettle_seconds = 7\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m.Update(lay) // the same config_seq: nothing read
	if m.opt.Bell {
		t.Fatalf("read the file without a config-changed")
	}
	lay.ConfigSeq++
	m.Update(lay)
	if !m.opt.Bell || m.opt.Alert.Settle.Seconds() != 7 {
		t.Fatalf("after config_seq moved: bell %v settle %v", m.opt.Bell, m.opt.Alert.Settle)
	}
	os.WriteFile(path, []byte("[notifications.agent\n"), 0o600)
	lay.ConfigSeq++
	m.Update(lay)
	if !m.opt.Bell || m.dock == "" {
		t.Fatalf("a broken file: bell %v, dock %q", m.opt.Bell, m.dock)
	}
}
