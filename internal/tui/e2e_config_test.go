package tui_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttachBrokenConfig: a config file that does not parse stops attach
// with the file and the line, before the terminal is touched.
func TestAttachBrokenConfig(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conf := filepath.Join(w.dir, "home", ".config", "tuios")
	os.MkdirAll(conf, 0o700)
	path := filepath.Join(conf, "config.toml")
	os.WriteFile(path, []byte("[ui]\nrail = \"right\"\n[notifications.agent]\nsound = loud\n"), 0o600)
	out, err := w.tuios("attach")
	if err == nil || !strings.Contains(out, path) || !strings.Contains(out, "line 4") {
		t.Errorf("attach with a broken file: %v\n%s", err, out)
	}
}
